// CSV input (ImportTable's InputFormat CSV), as DynamoDB's import reads it:
// records of fields split by the delimiter (a comma unless
// InputFormatOptions says otherwise), RFC 4180 quoting ("a ""b"" c", line
// breaks inside quotes), CRLF or LF line ends; the first line is the header
// unless HeaderList is given (then the first line is data). Values of the
// table's and its indexes' key attributes take their key type (N a number,
// B base64); every other column is a string. An empty field makes no
// attribute, and an empty line no record.
#include "common/base64.h"
#include "jobs/input_records.h"

namespace pogi::jobs {
namespace {

enum class Parse { kRecord, kNeedMore, kEnd, kUnclosed };

class CsvReader final : public RecordReader {
 public:
  CsvReader(const CsvSettings& csv, std::unique_ptr<outbound::ObjectReader> in)
      : settings_(csv), header_(csv.header), buf_(std::move(in)) {}

  Result<bool> Next(InputRecord* out) override {
    for (;;) {
      std::vector<std::string> fields;
      size_t used = 0;
      Parse p = ParseRecord(buf_.data(), buf_.at_end(), &fields, &used);
      if (p == Parse::kNeedMore) {
        if (buf_.at_end()) return Error::Validation("the object ends inside a CSV record");
        if (buf_.data().size() > kMaxRecordBytes) {
          return Error::Validation("a CSV record is longer than " + std::to_string(kMaxRecordBytes) +
                                   " bytes (an unclosed quote?)");
        }
        POGI_ASSIGN_OR_RETURN(bool more, buf_.More());
        (void)more;
        continue;
      }
      if (p == Parse::kEnd) return false;
      if (p == Parse::kUnclosed) return Error::Validation("the object ends inside a quoted CSV field");
      buf_.Consume(used);
      if (first_) {
        first_ = false;
        if (!fields.empty() && fields[0].starts_with("\xEF\xBB\xBF")) fields[0].erase(0, 3);  // a BOM
      }
      if (fields.size() == 1 && fields[0].empty() && !quoted_) continue;  // an empty line
      if (header_.empty()) {
        header_ = std::move(fields);
        continue;
      }
      *out = InputRecord();
      Build(fields, out);
      return true;
    }
  }

  int64_t bytes() const override { return buf_.consumed(); }

 private:
  // One record from the start of `data`: its fields and the bytes it took.
  Parse ParseRecord(std::string_view data, bool at_end, std::vector<std::string>* fields, size_t* used) {
    if (data.empty()) return at_end ? Parse::kEnd : Parse::kNeedMore;
    const char delim = settings_.delimiter;
    std::string field;
    bool in_quotes = false;
    quoted_ = false;
    size_t i = 0;
    while (i < data.size()) {
      char c = data[i];
      if (in_quotes) {
        if (c == '"') {
          if (i + 1 >= data.size()) {
            if (!at_end) return Parse::kNeedMore;  // "" or the closing quote?
            in_quotes = false;
            ++i;
            continue;
          }
          if (data[i + 1] == '"') {
            field.push_back('"');
            i += 2;
          } else {
            in_quotes = false;
            ++i;
          }
        } else {
          field.push_back(c);
          ++i;
        }
        continue;
      }
      if (c == '"' && field.empty()) {
        in_quotes = quoted_ = true;
        ++i;
      } else if (c == delim) {
        fields->push_back(std::move(field));
        field.clear();
        ++i;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r') {
          if (i + 1 >= data.size() && !at_end) return Parse::kNeedMore;
          if (i + 1 < data.size() && data[i + 1] == '\n') ++i;
        }
        fields->push_back(std::move(field));
        *used = i + 1;
        return Parse::kRecord;
      } else {
        field.push_back(c);
        ++i;
      }
    }
    if (!at_end) return Parse::kNeedMore;
    if (in_quotes) return Parse::kUnclosed;
    fields->push_back(std::move(field));
    *used = data.size();
    return Parse::kRecord;
  }

  void Build(std::vector<std::string>& fields, InputRecord* out) {
    if (fields.size() != header_.size()) {
      out->error = "The CSV record has " + std::to_string(fields.size()) + " values; its header has " +
                   std::to_string(header_.size());
      return;
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].empty()) continue;
      v1::AttributeValue v;
      auto key = settings_.key_types.find(header_[i]);
      std::string type = key == settings_.key_types.end() ? "S" : key->second;
      if (type == "N") {
        v.set_n(std::move(fields[i]));
      } else if (type == "B") {
        auto bytes = Base64Decode(fields[i]);
        if (!bytes) {
          out->error = "The value of the binary key attribute " + header_[i] + " is not base64";
          return;
        }
        v.set_b(std::move(*bytes));
      } else {
        v.set_s(std::move(fields[i]));
      }
      if (out->item.count(header_[i])) {
        out->error = "The CSV header names " + header_[i] + " twice";
        return;
      }
      out->item[header_[i]] = std::move(v);
    }
  }

  CsvSettings settings_;
  std::vector<std::string> header_;
  InputBuffer buf_;
  bool first_ = true;
  bool quoted_ = false;  // the record just parsed had a quoted field
};

}  // namespace

std::unique_ptr<RecordReader> MakeCsvReader(const CsvSettings& csv,
                                            std::unique_ptr<outbound::ObjectReader> in) {
  return std::make_unique<CsvReader>(csv, std::move(in));
}

}  // namespace pogi::jobs
