// `pogi export [TABLE]` and `pogi import [TABLE] FILE`: JSON lines over the
// streaming Admin calls. A dump is one line per table definition
// ({"Table": DescribeTable's shape}) followed by one line per item
// ({"TableName": ..., "Item": ...}, PutItem's shape). Progress goes to
// stderr only when stderr is a terminal; stdout carries data only.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/client.h"
#include "cli/commands.h"
#include "gateway/json_codec.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {
namespace {

// Items, rate and (when the total is known) ETA, redrawn at most 4 times a second.
class Progress {
 public:
  explicit Progress(const char* verb) : verb_(verb), on_(isatty(STDERR_FILENO)) {}
  void set_total(int64_t total) { total_ = total; }
  void Tick(int64_t items, bool last = false) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    if (!last && now - drawn_ < std::chrono::milliseconds(250)) return;
    drawn_ = now;
    double secs = std::chrono::duration<double>(now - start_).count();
    double rate = secs > 0 ? items / secs : 0;
    std::fprintf(stderr, "\r%s %lld items, %.0f items/s", verb_, static_cast<long long>(items), rate);
    if (total_ > 0 && rate > 0 && items < total_)
      std::fprintf(stderr, ", ETA %.0f s", (total_ - items) / rate);
    std::fprintf(stderr, "\033[K%s", last ? "\n" : "");
  }

 private:
  const char* verb_;
  bool on_;
  int64_t total_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), drawn_;
};

// The "first member name" of a JSON object line: enough to tell table lines
// from item lines.
bool IsTableLine(const std::string& line) {
  size_t q = line.find('"');
  return q != std::string::npos && line.compare(q, 7, "\"Table\"") == 0;
}

}  // namespace

int Export(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("export", {}, {}, args, &flags, &rc);
  if (!client) return rc;
  if (flags.positional().size() > 1) return UsageError("export", "export takes at most one TABLE");
  v1::ExportTableRequest req;
  if (!flags.positional().empty()) req.set_table_name(flags.positional()[0]);
  grpc::ClientContext ctx;
  auto reader = v1::Admin::NewStub(client->channel)->ExportTable(&ctx, req);
  v1::ExportRecord record;
  Progress progress("exported");
  int64_t items = 0, total = 0;
  std::string line;
  while (reader->Read(&record)) {
    line.clear();
    if (record.has_table()) {
      v1::DescribeTableResponse wrap;
      *wrap.mutable_table() = std::move(*record.mutable_table());
      total += wrap.table().item_count();
      progress.set_total(total);
      gateway::MessageToJson(wrap, &line);
    } else {
      v1::PutItemRequest wrap;
      wrap.set_table_name(record.table_name());
      *wrap.mutable_item() = std::move(*record.mutable_item());
      gateway::MessageToJson(wrap, &line);
      progress.Tick(++items);
    }
    line.push_back('\n');
    std::fwrite(line.data(), 1, line.size(), stdout);
  }
  grpc::Status s = reader->Finish();
  std::fflush(stdout);
  progress.Tick(items, true);
  if (!s.ok()) return CallFailed(s, client->address);
  return 0;
}

int Import(const std::vector<std::string>& args) {
  Flags flags({}, {"no-create"});
  int rc = 0;
  auto client = Connect("import", {}, {"no-create"}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  if (pos.empty() || pos.size() > 2) return UsageError("import", "import needs [TABLE] FILE");
  const std::string& path = pos.back();
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path);
    if (!file) {
      std::fprintf(stderr, "pogi: cannot read %s\n", path.c_str());
      return 1;
    }
    in = &file;
  }
  grpc::ClientContext ctx;
  v1::ImportResponse resp;
  auto writer = v1::Admin::NewStub(client->channel)->ImportTable(&ctx, &resp);
  v1::ImportRequest first;
  first.mutable_options()->set_create_tables(!flags.Has("no-create"));
  if (pos.size() == 2) first.mutable_options()->set_table_name(pos[0]);
  bool sent_options = false;
  Progress progress("imported");
  int64_t items = 0, line_no = 0;
  std::string line;
  while (std::getline(*in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    v1::ImportRequest req;
    if (!sent_options) {
      req = first;
      sent_options = true;
    }
    Status parsed = Status::Ok();
    if (IsTableLine(line)) {
      v1::DescribeTableResponse wrap;
      parsed = gateway::JsonToMessage(line, &wrap);
      *req.mutable_table() = std::move(*wrap.mutable_table());
    } else {
      v1::PutItemRequest wrap;
      parsed = gateway::JsonToMessage(line, &wrap);
      req.set_table_name(wrap.table_name());
      *req.mutable_item() = std::move(*wrap.mutable_item());
      progress.Tick(++items);
    }
    if (!parsed.ok()) {
      std::fprintf(stderr, "pogi: %s:%lld: %s\n", path.c_str(), static_cast<long long>(line_no),
                   parsed.error().message().c_str());
      writer->WritesDone();
      writer->Finish();
      return 1;
    }
    if (!writer->Write(req)) break;
  }
  if (!sent_options) writer->Write(first);
  writer->WritesDone();
  grpc::Status s = writer->Finish();
  progress.Tick(items, true);
  if (!s.ok()) return CallFailed(s, client->address);
  for (const auto& e : resp.errors()) {
    std::fprintf(stderr, "pogi: record %lld (%s): %s\n", static_cast<long long>(e.record()),
                 e.table_name().c_str(), e.message().c_str());
  }
  std::printf("imported %lld items (%lld failed), created %lld tables\n",
              static_cast<long long>(resp.items_written()), static_cast<long long>(resp.items_failed()),
              static_cast<long long>(resp.tables_created()));
  return resp.items_failed() > 0 ? 1 : 0;
}

}  // namespace pogi::cli
