// DynamoDB Streams JSON straight from a serialized pogi.v1.Record: GetRecords
// answers carry each record as the bytes storage holds, finished with its
// event id and sequence number (service/streams/stream_records.h FinishRecord), and
// this writes them without building a message.
#pragma once

#include <string_view>

#include "gateway/json_text.h"

namespace pogi::gateway {

// Appends the JSON object of the serialized pogi.v1.Record `record`, its
// members spelled and ordered as json_codec's writer writes a parsed Record.
// False, and *out unchanged, when the bytes are not a record as pogi writes
// them: malformed, or a message field given twice (protobuf would merge the
// two).
bool AppendRecordJson(std::string_view record, JsonOut& out);

}  // namespace pogi::gateway
