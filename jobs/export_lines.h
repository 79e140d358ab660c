// One line of an export's data file, in DynamoDB JSON or Amazon Ion text:
//   full export:        {"Item":{...}}
//   incremental export: {"Metadata":{"WriteTimestampMicros":{"N":"..."}},
//                        "Keys":{...},"OldImage":{...},"NewImage":{...}}
// (Ion: the same structure as Ion text). NEW_IMAGE exports leave out
// OldImage; a deletion has no NewImage, an insert no OldImage. A filtered
// export (FilterSpecification) writes the lines of the items its filter
// selects, with the attributes it projects (Keys stay whole).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "service/read/export_filter.h"
#include "storage/storage.h"

namespace pogi::jobs {

// Appends the line of the stored item `stored` (value::EncodeItem's form)
// when `filter` (null: none) selects it; whether it did.
Result<bool> AppendItemLine(std::string_view stored, const service::ExportFilter* filter, bool ion,
                            std::string* out);

// Appends the line of a change when `filter` (null: none) selects it (its
// new image, or the old one of a deletion); whether it did. `key_names` are
// the table's key attributes.
Result<bool> AppendChangeLine(const storage::HistoryChange& change, const std::vector<std::string>& key_names,
                              bool old_images, const service::ExportFilter* filter, bool ion,
                              std::string* out);

}  // namespace pogi::jobs
