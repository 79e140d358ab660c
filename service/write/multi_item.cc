// Shared pieces of the batch and transaction operations.
#include "service/write/multi_item.h"

#include <algorithm>

#include "common/base64.h"
#include "service/validate/capacity.h"
#include "service/validate/item_validation.h"

namespace pogi::service {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

std::string JoinSorted(std::vector<std::string> parts) {
  std::sort(parts.begin(), parts.end());
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

std::string RenderJavaValue(const v1::AttributeValue& v) {
  using V = v1::AttributeValue;
  auto list = [](const auto& values, bool binary) {
    std::string s = "[";
    for (int i = 0; i < values.size(); ++i)
      s += (i ? ", " : "") + (binary ? Base64Encode(values[i]) : values[i]);
    return s + "]";
  };
  std::string inner;
  switch (v.value_case()) {
    case V::kS:
      inner = "S=" + v.s();
      break;
    case V::kN:
      inner = "N=" + v.n();
      break;
    case V::kB:
      inner = "B=" + Base64Encode(v.b());
      break;
    case V::kSs:
      inner = "SS=" + list(v.ss().values(), false);
      break;
    case V::kNs:
      inner = "NS=" + list(v.ns().values(), false);
      break;
    case V::kBs:
      inner = "BS=" + list(v.bs().values(), true);
      break;
    case V::kM:
      inner = "M=" + RenderJava(v.m().fields());
      break;
    case V::kL: {
      inner = "L=[";
      for (int i = 0; i < v.l().values_size(); ++i)
        inner += (i ? ", " : "") + RenderJavaValue(v.l().values(i));
      inner += "]";
      break;
    }
    case V::kNullValue:
      inner = "NUL=true";
      break;
    case V::kBoolValue:
      inner = std::string("BOOL=") + (v.bool_value() ? "true" : "false");
      break;
    case V::VALUE_NOT_SET:
      break;
  }
  return "AttributeValue(" + inner + ")";
}

std::string RenderJavaField(const Message& m, const FieldDescriptor* f, int index);

std::string MemberName(const FieldDescriptor* f) {
  std::string n = f->json_name();
  if (!n.empty()) n[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(n[0])));
  return n;
}

std::string RenderJavaMessage(const Message& m) {
  const Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  if (d == v1::AttributeValue::descriptor())
    return RenderJavaValue(static_cast<const v1::AttributeValue&>(m));
  if (d == v1::Item::descriptor()) return RenderJava(static_cast<const v1::Item&>(m).attributes());
  bool list_wrapper = d == v1::ItemList::descriptor() || d == v1::WriteRequestList::descriptor() ||
                      d == v1::AttributeNameList::descriptor() || d == v1::AttributeValueList::descriptor();
  if (list_wrapper || d == v1::NameMap::descriptor()) {
    const FieldDescriptor* f = d->field(0);
    std::vector<std::string> parts;
    for (int i = 0; i < r->FieldSize(m, f); ++i) parts.push_back(RenderJavaField(m, f, i));
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return list_wrapper ? "[" + s + "]" : "{" + s + "}";
  }
  std::string s = d->name() + "(";
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    s += (i ? ", " : "") + MemberName(f) + "=";
    if (f->is_repeated()) {
      if (r->FieldSize(m, f) == 0) {
        s += "null";
        continue;
      }
      std::vector<std::string> parts;
      for (int k = 0; k < r->FieldSize(m, f); ++k) parts.push_back(RenderJavaField(m, f, k));
      if (f->is_map()) {
        s += "{" + JoinSorted(parts) + "}";
      } else {
        std::string joined;
        for (size_t k = 0; k < parts.size(); ++k) joined += (k ? ", " : "") + parts[k];
        s += "[" + joined + "]";
      }
    } else if (!r->HasField(m, f)) {
      s += "null";
    } else {
      s += RenderJavaField(m, f, -1);
    }
  }
  return s + ")";
}

// One value of field `f` (element `index` when repeated; a map entry as key=value).
std::string RenderJavaField(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  bool rep = index >= 0;
  if (f->is_map()) {
    const Message& e = r->GetRepeatedMessage(m, f, index);
    const Descriptor* ed = e.GetDescriptor();
    return e.GetReflection()->GetString(e, ed->map_key()) + "=" + RenderJavaField(e, ed->map_value(), -1);
  }
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
    case FieldDescriptor::CPPTYPE_BOOL:
      return (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false";
    case FieldDescriptor::CPPTYPE_INT64:
      return std::to_string(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return RenderJavaMessage(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f));
    default:
      return "?";
  }
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out->append(buf);
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

void AppendJsonValue(const v1::AttributeValue& v, std::string* out) {
  using V = v1::AttributeValue;
  auto list = [&](const char* type, const auto& values, bool binary) {
    out->append("{\"").append(type).append("\":[");
    for (int i = 0; i < values.size(); ++i) {
      if (i) out->push_back(',');
      AppendJsonString(binary ? Base64Encode(values[i]) : std::string(values[i]), out);
    }
    out->append("]}");
  };
  switch (v.value_case()) {
    case V::kS:
      out->append("{\"S\":");
      AppendJsonString(v.s(), out);
      out->push_back('}');
      break;
    case V::kN:
      out->append("{\"N\":");
      AppendJsonString(v.n(), out);
      out->push_back('}');
      break;
    case V::kB:
      out->append("{\"B\":");
      AppendJsonString(Base64Encode(v.b()), out);
      out->push_back('}');
      break;
    case V::kSs:
      list("SS", v.ss().values(), false);
      break;
    case V::kNs:
      list("NS", v.ns().values(), false);
      break;
    case V::kBs:
      list("BS", v.bs().values(), true);
      break;
    case V::kM:
      out->append("{\"M\":").append(RenderJson(v.m().fields())).push_back('}');
      break;
    case V::kL:
      out->append("{\"L\":[");
      for (int i = 0; i < v.l().values_size(); ++i) {
        if (i) out->push_back(',');
        AppendJsonValue(v.l().values(i), out);
      }
      out->append("]}");
      break;
    case V::kNullValue:
      out->append("{\"NULL\":true}");
      break;
    case V::kBoolValue:
      out->append(v.bool_value() ? "{\"BOOL\":true}" : "{\"BOOL\":false}");
      break;
    case V::VALUE_NOT_SET:
      out->append("{}");
      break;
  }
}

}  // namespace

std::string RenderJava(const Message& m) { return RenderJavaMessage(m); }

std::string RenderJava(const value::AttributeMap& m) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : m) parts.push_back(k + "=" + RenderJavaValue(v));
  return "{" + JoinSorted(std::move(parts)) + "}";
}

std::string RenderJson(const value::AttributeMap& m) {
  std::vector<const std::string*> names;
  for (const auto& [k, v] : m) names.push_back(&k);
  std::sort(names.begin(), names.end(), [](auto* a, auto* b) { return *a < *b; });
  std::string out = "{";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out.push_back(',');
    AppendJsonString(*names[i], &out);
    out.push_back(':');
    AppendJsonValue(m.at(*names[i]), &out);
  }
  return out + "}";
}

std::string ItemIdentity(const Table& table, const storage::EncodedKey& key) {
  std::string id = std::to_string(table.id);
  id.push_back('\0');
  id += std::to_string(key.partition.size());
  id.push_back(':');
  id += key.partition;
  id += key.sort;
  return id;
}

bool IsKeySchemaMismatch(const Error& e) {
  const std::string& m = e.message();
  return m == "The provided key element does not match the schema" ||
         m.rfind("One or more parameter values were invalid: Type mismatch for key ", 0) == 0 ||
         m.rfind("One or more parameter values were invalid: Missing the key ", 0) == 0;
}

void CapacityTally::Add(const std::string& table, double units) {
  for (auto& [name, total] : tables_) {
    if (name == table) {
      total += units;
      return;
    }
  }
  tables_.emplace_back(table, units);
}

void CapacityTally::Fill(const std::string& mode, char kind,
                         google::protobuf::RepeatedPtrField<v1::ConsumedCapacity>* out) const {
  if (!WantsCapacity(mode)) return;
  for (const auto& [name, units] : tables_) {
    v1::ConsumedCapacity* c = out->Add();
    FillConsumed(mode, name, units, c);
    if (kind == 'R') {
      c->set_read_capacity_units(units);
      if (c->has_table()) c->mutable_table()->set_read_capacity_units(units);
    } else if (kind == 'W') {
      c->set_write_capacity_units(units);
      if (c->has_table()) c->mutable_table()->set_write_capacity_units(units);
    }
  }
}

bool FillCollectionMetrics(const Table& table, const value::AttributeMap& item,
                           v1::ItemCollectionMetrics* out) {
  if (table.description.local_secondary_indexes_size() == 0) return false;
  auto it = item.find(table.hash.name);
  if (it == item.end()) return false;
  (*out->mutable_item_collection_key())[table.hash.name] = it->second;
  // DynamoDB estimates an item collection's size as a range in GB; a local
  // collection is far below 1 GB.
  out->add_size_estimate_range_gb(0.0);
  out->add_size_estimate_range_gb(1.0);
  return true;
}

void AddCollectionMetrics(const Table& table, const value::AttributeMap& item,
                          google::protobuf::Map<std::string, v1::ItemCollectionMetricsList>* metrics) {
  v1::ItemCollectionMetrics m;
  if (FillCollectionMetrics(table, item, &m)) {
    *(*metrics)[table.description.table_name()].add_metrics() = std::move(m);
  }
}

Error TransactionCanceled(const std::vector<v1::CancellationReason>& reasons) {
  std::string codes;
  auto detail = std::make_shared<v1::ErrorDetail>();
  for (size_t i = 0; i < reasons.size(); ++i) {
    codes += (i ? ", " : "") + reasons[i].code();
    *detail->add_cancellation_reasons() = reasons[i];
  }
  Error e(ErrorCode::kTransactionCanceled,
          "Transaction cancelled, please refer cancellation reasons for specific reasons [" + codes + "]");
  e.set_detail(std::move(detail));
  return e;
}

v1::CancellationReason Reason(const std::string& code, const std::string& message) {
  v1::CancellationReason r;
  r.set_code(code);
  if (!message.empty()) r.set_message(message);
  return r;
}

Error TransactionValidation(Error e) {
  static const std::string kHead = "1 validation error detected: ";
  if (e.code() == ErrorCode::kValidation && e.message() == kNestingError) {
    return Error::Validation(e.message().substr(kHead.size()));
  }
  return e;
}

Error CancelForKey(size_t count, size_t index, const std::string& message) {
  std::vector<v1::CancellationReason> reasons(count, Reason("None"));
  reasons[index] = Reason("ValidationError", message);
  return TransactionCanceled(reasons);
}

}  // namespace pogi::service
