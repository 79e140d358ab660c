// The records of an import's or a bulk put's input object, one item each,
// in the InputFormat's syntax:
//   DYNAMODB_JSON  JSON lines, each {"Item":{...}} (an export's data file)
//   ION            Ion text or binary, each a struct {Item:{...}}
//   CSV            a header (the first line, or InputFormatOptions'
//                  HeaderList), then one item a line
// read from the decompressed object in bounded memory: a record at most
// kMaxRecordBytes, one record held at a time.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "outbound/object_store.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/value/item.h"

namespace pogi::jobs {

inline constexpr size_t kMaxRecordBytes = 16 << 20;

struct InputRecord {
  value::AttributeMap item;
  // Why the record is no item (DynamoDB's words where it has them), or empty.
  std::string error;
  // The record's own condition (a bulk put's per-item ConditionExpression,
  // ExpressionAttributeNames and ExpressionAttributeValues), in PutItem's
  // members; none set when it has none. Imports ignore it.
  v1::PutItemRequest condition;
};

struct CsvSettings {
  char delimiter = ',';
  std::vector<std::string> header;  // empty: the object's first line
  // The types of the table's and its indexes' key attributes: their values
  // are read as that type; every other column is a string.
  std::map<std::string, std::string> key_types;
};

class RecordReader {
 public:
  virtual ~RecordReader() = default;
  // The next record into *out: true, or false at the object's end. An error
  // means the rest of the object cannot be read: the store failed, or (a
  // data error, decompress.h's IsDataError) its bytes stop making records.
  virtual Result<bool> Next(InputRecord* out) = 0;
  // Bytes of the decompressed object taken so far.
  virtual int64_t bytes() const = 0;
};

std::unique_ptr<RecordReader> MakeRecordReader(std::string_view format, const CsvSettings& csv,
                                               std::unique_ptr<outbound::ObjectReader> in);

// What the three readers read through: the object's bytes, a window at a
// time.
class InputBuffer {
 public:
  explicit InputBuffer(std::unique_ptr<outbound::ObjectReader> in) : in_(std::move(in)) {}
  // The bytes read and not yet taken.
  std::string_view data() const { return std::string_view(buf_).substr(pos_); }
  // Whether the object has no more bytes than data().
  bool at_end() const { return eof_; }
  // Reads more (at least 64 KiB, and at least as much as is held, so that
  // a record read again from its start costs little); false at the end.
  Result<bool> More();
  void Consume(size_t n);
  int64_t consumed() const { return consumed_; }

 private:
  std::unique_ptr<outbound::ObjectReader> in_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
  int64_t consumed_ = 0;
};

// The two readers of their own files (csv_records.cc, ion_records.cc).
std::unique_ptr<RecordReader> MakeCsvReader(const CsvSettings& csv,
                                            std::unique_ptr<outbound::ObjectReader> in);
std::unique_ptr<RecordReader> MakeIonReader(std::unique_ptr<outbound::ObjectReader> in);

// The item of a record's Item member (`record` a map value holding it), or
// why there is none.
std::string ItemOfRecord(v1::AttributeValue record, value::AttributeMap* item);
// The condition members of a record (Ion: ConditionExpression a string,
// ExpressionAttributeNames a struct of strings, ExpressionAttributeValues a
// struct of values) into out->condition, or why they are malformed.
std::string ConditionOfRecord(v1::AttributeValue& record, InputRecord* out);

}  // namespace pogi::jobs
