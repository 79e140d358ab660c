// The input buffer, DynamoDB JSON lines, and the choice of reader.
#include "jobs/input_records.h"

#include <algorithm>

#include "gateway/json_codec.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::jobs {

Result<bool> InputBuffer::More() {
  if (eof_) return false;
  if (pos_ > 0 && pos_ >= buf_.size() / 2) {  // drop what was taken
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  size_t want = std::max<size_t>(64 << 10, buf_.size() - pos_);
  size_t old = buf_.size();
  buf_.resize(old + want);
  size_t got = 0;
  while (got == 0) {
    Result<size_t> n = in_->Read(buf_.data() + old, want);
    if (!n.ok()) {
      buf_.resize(old);
      return n.error();
    }
    if (*n == 0) {
      eof_ = true;
      break;
    }
    got = *n;
  }
  buf_.resize(old + got);
  return got > 0;
}

void InputBuffer::Consume(size_t n) {
  pos_ += n;
  consumed_ += static_cast<int64_t>(n);
}

std::string ItemOfRecord(v1::AttributeValue record, value::AttributeMap* item) {
  if (!record.has_m()) return "The record is not a struct with an Item";
  auto* fields = record.mutable_m()->mutable_fields();
  auto it = fields->find("Item");
  if (it == fields->end()) return "The record has no Item";
  if (!it->second.has_m()) return "The record's Item is not a struct of attributes";
  *item = std::move(*it->second.mutable_m()->mutable_fields());
  return "";
}

std::string ConditionOfRecord(v1::AttributeValue& record, InputRecord* out) {
  if (!record.has_m()) return "";
  auto* fields = record.mutable_m()->mutable_fields();
  if (auto it = fields->find("ConditionExpression"); it != fields->end()) {
    if (!it->second.has_s()) return "The record's ConditionExpression is not a string";
    out->condition.set_condition_expression(std::move(*it->second.mutable_s()));
  }
  if (auto it = fields->find("ExpressionAttributeNames"); it != fields->end()) {
    if (!it->second.has_m()) return "The record's ExpressionAttributeNames is not a struct of strings";
    auto* names = out->condition.mutable_expression_attribute_names()->mutable_names();
    for (auto& [placeholder, name] : *it->second.mutable_m()->mutable_fields()) {
      if (!name.has_s()) return "The record's ExpressionAttributeNames is not a struct of strings";
      (*names)[placeholder] = std::move(*name.mutable_s());
    }
  }
  if (auto it = fields->find("ExpressionAttributeValues"); it != fields->end()) {
    if (!it->second.has_m()) return "The record's ExpressionAttributeValues is not a struct of values";
    *out->condition.mutable_expression_attribute_values()->mutable_attributes() =
        std::move(*it->second.mutable_m()->mutable_fields());
  }
  return "";
}

namespace {

// One JSON object a line; empty lines are skipped.
class JsonLinesReader final : public RecordReader {
 public:
  explicit JsonLinesReader(std::unique_ptr<outbound::ObjectReader> in) : buf_(std::move(in)) {}

  Result<bool> Next(InputRecord* out) override {
    for (;;) {
      std::string_view data = buf_.data();
      size_t nl = data.find('\n');
      if (nl == std::string_view::npos && !buf_.at_end()) {
        if (data.size() > kMaxRecordBytes) {
          // A line too long to hold: dropped up to its end.
          buf_.Consume(data.size());
          too_long_ = true;
        }
        POGI_ASSIGN_OR_RETURN(bool more, buf_.More());
        (void)more;
        continue;
      }
      if (data.empty() && buf_.at_end()) {
        if (!too_long_) return false;
      }
      std::string_view line = data.substr(0, nl);
      buf_.Consume(nl == std::string_view::npos ? data.size() : nl + 1);
      if (line.size() > kMaxRecordBytes) too_long_ = true;  // read whole, in one window
      if (too_long_) {
        too_long_ = false;
        *out = InputRecord();
        out->error = "The record is longer than " + std::to_string(kMaxRecordBytes) + " bytes";
        return true;
      }
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      *out = InputRecord();
      Parse(line, out);
      return true;
    }
  }

  int64_t bytes() const override { return buf_.consumed(); }

 private:
  static void Parse(std::string_view line, InputRecord* out) {
    v1::ExportLine parsed;
    Status s = gateway::JsonToMessage(line, &parsed);
    if (!s.ok()) {
      // The JSON reader's shape errors carry no message of their own.
      out->error =
          s.error().message().empty() ? "The record is not valid DynamoDB JSON" : s.error().message();
      return;
    }
    if (parsed.item().empty()) {
      out->error = "The record has no Item: a line of DynamoDB JSON is {\"Item\":{...}}";
      return;
    }
    out->item = std::move(*parsed.mutable_item());
    if (parsed.has_condition_expression()) {
      out->condition.set_condition_expression(std::move(*parsed.mutable_condition_expression()));
    }
    if (parsed.has_expression_attribute_names()) {
      *out->condition.mutable_expression_attribute_names() = std::move(*parsed.mutable_expression_attribute_names());
    }
    if (parsed.has_expression_attribute_values()) {
      *out->condition.mutable_expression_attribute_values() =
          std::move(*parsed.mutable_expression_attribute_values());
    }
  }

  InputBuffer buf_;
  bool too_long_ = false;
};

}  // namespace

std::unique_ptr<RecordReader> MakeRecordReader(std::string_view format, const CsvSettings& csv,
                                               std::unique_ptr<outbound::ObjectReader> in) {
  if (format == "CSV") return MakeCsvReader(csv, std::move(in));
  if (format == "ION") return MakeIonReader(std::move(in));
  return std::make_unique<JsonLinesReader>(std::move(in));
}

}  // namespace pogi::jobs
