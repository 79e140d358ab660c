// One line of an export's data file, in DynamoDB JSON or Amazon Ion text:
//   full export:        {"Item":{...}}
//   incremental export: {"Metadata":{"WriteTimestampMicros":{"N":"..."}},
//                        "Keys":{...},"OldImage":{...},"NewImage":{...}}
// (Ion: the same structure as Ion text). NEW_IMAGE exports leave out
// OldImage; a deletion has no NewImage, an insert no OldImage.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "storage/storage.h"

namespace pogi::jobs {

// Appends the line of the stored item `stored` (value::EncodeItem's form).
Status AppendItemLine(std::string_view stored, bool ion, std::string* out);

// Appends the line of a change; `key_names` are the table's key attributes.
Status AppendChangeLine(const storage::HistoryChange& change, const std::vector<std::string>& key_names,
                        bool old_images, bool ion, std::string* out);

}  // namespace pogi::jobs
