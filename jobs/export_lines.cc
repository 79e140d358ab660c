// Export lines: DynamoDB JSON straight from an item's stored bytes (the
// read path's writer, gateway/item_proto_json), or through the JSON codec
// and the Ion writer for what is built per change.
#include "jobs/export_lines.h"

#include "gateway/item_proto_json.h"
#include "gateway/json_codec.h"
#include "jobs/ion_text.h"
#include "service/value/item.h"

namespace pogi::jobs {
namespace {

Error Corrupt() { return Error::Internal("a stored item is corrupt"); }

}  // namespace

Result<bool> AppendItemLine(std::string_view stored, const service::ExportFilter* filter, bool ion,
                            std::string* out) {
  if (filter) {
    POGI_ASSIGN_OR_RETURN(v1::Item item, value::DecodeItem(stored));
    POGI_ASSIGN_OR_RETURN(bool selected, filter->Selects(item.attributes()));
    if (!selected) return false;
    if (filter->projects()) {
      return AppendItemLine(value::EncodeItem(filter->Project(item.attributes())), nullptr, ion, out);
    }
  }
  if (ion) {
    POGI_ASSIGN_OR_RETURN(v1::Item item, value::DecodeItem(stored));
    out->append("{Item:");
    AppendIonItem(item.attributes(), out);
    out->append("}\n");
    return true;
  }
  POGI_ASSIGN_OR_RETURN(std::string_view proto, value::StoredItemProto(stored));
  gateway::JsonOut json(out);
  json.Put("{\"Item\":");
  if (!gateway::AppendItemProtoJson(proto, json)) return Corrupt();
  json.Put("}\n");
  return true;
}

Result<bool> AppendChangeLine(const storage::HistoryChange& change, const std::vector<std::string>& key_names,
                              bool old_images, const service::ExportFilter* filter, bool ion,
                              std::string* out) {
  v1::ExportLine line;
  std::optional<v1::Item> old_item, new_item;
  if (change.old_item) {
    POGI_ASSIGN_OR_RETURN(old_item, value::DecodeItem(*change.old_item));
  }
  if (change.new_item) {
    POGI_ASSIGN_OR_RETURN(new_item, value::DecodeItem(*change.new_item));
  }
  const v1::Item& either = new_item ? *new_item : *old_item;
  for (const std::string& k : key_names) {
    auto it = either.attributes().find(k);
    if (it != either.attributes().end()) (*line.mutable_keys())[k] = it->second;
  }
  if (filter) {
    POGI_ASSIGN_OR_RETURN(bool selected, filter->Selects(either.attributes()));
    if (!selected) return false;
  }
  auto image = [&](const v1::Item& item) {
    return filter ? filter->Project(item.attributes()) : item.attributes();
  };
  (*line.mutable_metadata())["WriteTimestampMicros"].set_n(std::to_string(change.time_us));
  if (old_images && old_item) *line.mutable_old_image() = image(*old_item);
  if (new_item) *line.mutable_new_image() = image(*new_item);
  if (!ion) {
    std::string json;
    gateway::MessageToJson(line, &json);
    out->append(json).push_back('\n');
    return true;
  }
  out->append("{Metadata:");
  AppendIonItem(line.metadata(), out);
  out->append(",Keys:");
  AppendIonItem(line.keys(), out);
  if (old_images && old_item) {
    out->append(",OldImage:");
    AppendIonItem(line.old_image(), out);
  }
  if (new_item) {
    out->append(",NewImage:");
    AppendIonItem(line.new_image(), out);
  }
  out->append("}\n");
  return true;
}

}  // namespace pogi::jobs
