// `pogi scan|query|get|put|delete`: data of a running pogi over the DynamoDB
// gRPC service. Keys and items are given as DynamoDB JSON ({"pk": {"S":
// "a"}}) or plain JSON ({"pk": "a"}); answers print as DynamoDB JSON (json,
// jsonl) or plain values (--simple, and always for --output table).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/client.h"
#include "cli/commands.h"
#include "gateway/json_codec.h"
#include "pogi/v1/dynamodb.grpc.pb.h"

namespace pogi::cli {
namespace {

using nlohmann::json;

const std::set<std::string> kTypes = {"S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"};

bool IsTyped(const json& v) { return v.is_object() && v.size() == 1 && kTypes.count(v.begin().key()); }

// A plain JSON value as a DynamoDB attribute value.
json Typed(const json& v) {
  if (v.is_string()) return {{"S", v}};
  if (v.is_boolean()) return {{"BOOL", v}};
  if (v.is_null()) return {{"NULL", true}};
  if (v.is_number()) return {{"N", v.dump()}};
  if (v.is_array()) {
    json l = json::array();
    for (const auto& e : v) l.push_back(Typed(e));
    return {{"L", l}};
  }
  json m = json::object();
  for (auto it = v.begin(); it != v.end(); ++it) m[it.key()] = Typed(it.value());
  return {{"M", m}};
}

// An attribute map given either way, in DynamoDB JSON.
json AttributeMap(const json& in) {
  bool typed = true;
  for (auto it = in.begin(); it != in.end(); ++it) typed = typed && IsTyped(it.value());
  if (typed) return in;
  json out = json::object();
  for (auto it = in.begin(); it != in.end(); ++it)
    out[it.key()] = IsTyped(it.value()) ? it.value() : Typed(it.value());
  return out;
}

json Plain(const json& v) {
  const std::string& t = v.begin().key();
  const json& x = v.begin().value();
  if (t == "N") {
    json n = json::parse(x.get<std::string>(), nullptr, false);
    return n.is_discarded() ? x : n;
  }
  if (t == "NULL") return nullptr;
  if (t == "L" || t == "SS" || t == "NS" || t == "BS") {
    json out = json::array();
    for (const auto& e : x)
      out.push_back(t == "L" ? Plain(e) : t == "NS" ? json::parse(e.get<std::string>()) : e);
    return out;
  }
  if (t == "M") {
    json out = json::object();
    for (auto it = x.begin(); it != x.end(); ++it) out[it.key()] = Plain(it.value());
    return out;
  }
  return x;
}

json PlainItem(const json& item) {
  json out = json::object();
  for (auto it = item.begin(); it != item.end(); ++it) out[it.key()] = Plain(it.value());
  return out;
}

struct Output {
  std::string format = "json";
  bool simple = false;
};

void Print(const std::vector<json>& items, const Output& out) {
  if (out.format == "jsonl") {
    for (const auto& i : items) std::printf("%s\n", (out.simple ? PlainItem(i) : i).dump().c_str());
    return;
  }
  if (out.format == "table") {
    std::vector<std::string> columns;
    std::set<std::string> seen;
    for (const auto& i : items) {
      for (auto it = i.begin(); it != i.end(); ++it) {
        if (seen.insert(it.key()).second) columns.push_back(it.key());
      }
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<size_t> width;
    for (const auto& c : columns) width.push_back(c.size());
    for (const auto& i : items) {
      json p = PlainItem(i);
      std::vector<std::string> row;
      for (size_t c = 0; c < columns.size(); ++c) {
        std::string cell =
            p.contains(columns[c])
                ? (p[columns[c]].is_string() ? p[columns[c]].get<std::string>() : p[columns[c]].dump())
                : "";
        width[c] = std::max(width[c], cell.size());
        row.push_back(std::move(cell));
      }
      rows.push_back(std::move(row));
    }
    auto line = [&](const std::vector<std::string>& cells) {
      std::string s;
      for (size_t c = 0; c < cells.size(); ++c) {
        s += cells[c] + std::string(c + 1 < cells.size() ? width[c] - cells[c].size() + 2 : 0, ' ');
      }
      std::printf("%s\n", s.c_str());
    };
    line(columns);
    for (const auto& r : rows) line(r);
    return;
  }
  json arr = json::array();
  for (const auto& i : items) arr.push_back(out.simple ? PlainItem(i) : i);
  std::printf("%s\n", arr.dump(2).c_str());
}

// Parses `text` as a JSON object; one-line error otherwise.
bool ParseObject(const std::string& command, const std::string& what, const std::string& text, json* out,
                 int* rc) {
  *out = json::parse(text, nullptr, false);
  if (out->is_discarded() || !out->is_object()) {
    *rc = UsageError(command, what + " is not a JSON object");
    return false;
  }
  return true;
}

template <typename Req>
bool ToRequest(const json& j, Req* req, int* rc) {
  Status s = gateway::JsonToMessage(j.dump(), req);
  if (!s.ok()) {
    std::fprintf(stderr, "pogi: %s\n", s.error().message().c_str());
    *rc = 2;
    return false;
  }
  return true;
}

std::vector<json> ItemsOf(const google::protobuf::Message& resp) {
  std::string text;
  gateway::MessageToJson(resp, &text);
  json j = json::parse(text);
  std::vector<json> out;
  if (j.contains("Items")) {
    for (auto& i : j["Items"]) out.push_back(std::move(i));
  } else if (j.contains("Item")) {
    out.push_back(std::move(j["Item"]));
  } else if (j.contains("Attributes")) {
    out.push_back(std::move(j["Attributes"]));
  }
  return out;
}

}  // namespace

int Data(const std::string& command, const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client =
      Connect(command, {"output", "key", "values", "names", "index", "limit", "filter", "projection"},
              {"simple", "consistent", "reverse"}, args, &flags, &rc);
  if (!client) return rc;
  Output out;
  out.format = flags.Get("output").value_or("json");
  out.simple = flags.Has("simple");
  if (out.format != "json" && out.format != "jsonl" && out.format != "table") {
    return UsageError(command, "--output must be json, jsonl or table");
  }
  const auto& pos = flags.positional();
  size_t want = command == "scan" || command == "query" ? 1 : 2;
  if (pos.size() != want) {
    return UsageError(command, command + (want == 1 ? " needs TABLE" : " needs TABLE and a JSON argument"));
  }
  json base = {{"TableName", pos[0]}};
  if (auto i = flags.Get("index")) base["IndexName"] = *i;
  if (auto f = flags.Get("filter")) base["FilterExpression"] = *f;
  if (auto p = flags.Get("projection")) base["ProjectionExpression"] = *p;
  if (flags.Has("consistent")) base["ConsistentRead"] = true;
  if (auto n = flags.Get("names")) {
    json names;
    if (!ParseObject(command, "--names", *n, &names, &rc)) return rc;
    base["ExpressionAttributeNames"] = names;
  }
  if (auto v = flags.Get("values")) {
    json values;
    if (!ParseObject(command, "--values", *v, &values, &rc)) return rc;
    base["ExpressionAttributeValues"] = AttributeMap(values);
  }
  int64_t limit = -1;
  if (auto l = flags.Get("limit")) {
    char* end = nullptr;
    limit = std::strtoll(l->c_str(), &end, 10);
    if (l->empty() || *end || limit <= 0) return UsageError(command, "invalid --limit " + *l);
  }
  auto stub = v1::DynamoDB::NewStub(client->channel);
  std::vector<json> items;
  grpc::Status s;
  if (command == "scan" || command == "query") {
    if (command == "query") {
      auto k = flags.Get("key");
      if (!k) return UsageError(command, "query needs --key 'pk = :v'");
      base["KeyConditionExpression"] = *k;
      if (flags.Has("reverse")) base["ScanIndexForward"] = false;
    }
    json page_start;
    while (true) {
      json j = base;
      if (!page_start.is_null()) j["ExclusiveStartKey"] = page_start;
      grpc::ClientContext ctx;
      SetDeadline(&ctx, 60);
      json resp_json;
      if (command == "scan") {
        v1::ScanRequest req;
        if (!ToRequest(j, &req, &rc)) return rc;
        v1::ScanResponse resp;
        s = stub->Scan(&ctx, req, &resp);
        if (!s.ok()) break;
        std::string text;
        gateway::MessageToJson(resp, &text);
        resp_json = json::parse(text);
      } else {
        v1::QueryRequest req;
        if (!ToRequest(j, &req, &rc)) return rc;
        v1::QueryResponse resp;
        s = stub->Query(&ctx, req, &resp);
        if (!s.ok()) break;
        std::string text;
        gateway::MessageToJson(resp, &text);
        resp_json = json::parse(text);
      }
      for (auto& i : resp_json["Items"]) {
        if (limit >= 0 && static_cast<int64_t>(items.size()) >= limit) break;
        items.push_back(std::move(i));
      }
      if ((limit >= 0 && static_cast<int64_t>(items.size()) >= limit) ||
          !resp_json.contains("LastEvaluatedKey")) {
        break;
      }
      page_start = resp_json["LastEvaluatedKey"];
    }
  } else {
    json arg;
    if (!ParseObject(command, command == "put" ? "ITEM" : "KEY", pos[1], &arg, &rc)) return rc;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    json j = base;
    if (command == "get") {
      j["Key"] = AttributeMap(arg);
      v1::GetItemRequest req;
      if (!ToRequest(j, &req, &rc)) return rc;
      v1::GetItemResponse resp;
      s = stub->GetItem(&ctx, req, &resp);
      if (s.ok()) items = ItemsOf(resp);
      if (s.ok() && items.empty()) {
        std::fprintf(stderr, "pogi: no item with that key in %s\n", pos[0].c_str());
        return 1;
      }
    } else if (command == "put") {
      j["Item"] = AttributeMap(arg);
      v1::PutItemRequest req;
      if (!ToRequest(j, &req, &rc)) return rc;
      v1::PutItemResponse resp;
      s = stub->PutItem(&ctx, req, &resp);
      if (s.ok()) return 0;
    } else {
      j["Key"] = AttributeMap(arg);
      j["ReturnValues"] = "ALL_OLD";
      v1::DeleteItemRequest req;
      if (!ToRequest(j, &req, &rc)) return rc;
      v1::DeleteItemResponse resp;
      s = stub->DeleteItem(&ctx, req, &resp);
      if (s.ok()) items = ItemsOf(resp);
    }
  }
  if (!s.ok()) return CallFailed(s, client->address);
  Print(items, out);
  return 0;
}

}  // namespace pogi::cli
