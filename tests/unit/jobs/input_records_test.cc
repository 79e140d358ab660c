// The records of import input: DynamoDB JSON lines, CSV and Ion objects,
// read through gzip, zstd or nothing, a few bytes at a time.
#include "jobs/input_records.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include "jobs/decompress.h"
#include "jobs/gzip_writer.h"
#include "jobs/ion_text.h"

namespace pogi::jobs {
namespace {

// An object's bytes, handed out `chunk` at a time (records then span reads).
class StringReader final : public outbound::ObjectReader {
 public:
  StringReader(std::string data, size_t chunk) : data_(std::move(data)), chunk_(chunk) {}
  Result<size_t> Read(char* buf, size_t n) override {
    size_t k = std::min({n, chunk_, data_.size() - pos_});
    std::copy_n(data_.data() + pos_, k, buf);
    pos_ += k;
    return k;
  }

 private:
  std::string data_;
  size_t chunk_;
  size_t pos_ = 0;
};

// An object written into memory, for the gzip writer.
class StringWriter final : public outbound::ObjectWriter {
 public:
  explicit StringWriter(std::string* out) : out_(out) {}
  Status Write(std::string_view data) override {
    out_->append(data);
    return Status::Ok();
  }
  Status Finish() override { return Status::Ok(); }
  int64_t size() const override { return static_cast<int64_t>(out_->size()); }

 private:
  std::string* out_;
};

// Every record as "Ion text of the item" or "ERROR message"; a last
// "FAILED message" when the object stops making records.
std::vector<std::string> Records(std::string_view format, std::string data, CsvSettings csv = {},
                                 std::string_view compression = "NONE", size_t chunk = 7) {
  auto reader = MakeRecordReader(
      format, csv, Decompressing(std::make_unique<StringReader>(std::move(data), chunk), compression));
  std::vector<std::string> out;
  for (;;) {
    InputRecord rec;
    Result<bool> next = reader->Next(&rec);
    if (!next.ok()) {
      out.push_back((IsDataError(next.error()) ? "FAILED " : "STORE ") + next.error().message());
      return out;
    }
    if (!*next) return out;
    if (!rec.error.empty()) {
      out.push_back("ERROR " + rec.error);
    } else {
      std::string ion;
      AppendIonItem(rec.item, &ion);
      out.push_back(ion);
    }
  }
}

TEST(InputRecordsTest, DynamoDbJsonLines) {
  std::string data =
      "{\"Item\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1.50\"}}}\r\n"
      "\n"
      "not json\n"
      "{\"NewImage\":{\"pk\":{\"S\":\"b\"}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"c\"},\"l\":{\"L\":[{\"BOOL\":true}]}}}";  // no newline at the end
  auto got = Records("DYNAMODB_JSON", data);
  ASSERT_EQ(got.size(), 4u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], "{n:1.50,pk:\"a\"}");
  EXPECT_TRUE(got[1].starts_with("ERROR ")) << got[1];
  EXPECT_EQ(got[2], "ERROR The record has no Item: a line of DynamoDB JSON is {\"Item\":{...}}");
  EXPECT_EQ(got[3], "{l:[true],pk:\"c\"}");
}

TEST(InputRecordsTest, CsvWithItsHeaderLine) {
  CsvSettings csv;
  csv.key_types = {{"pk", "S"}, {"sk", "N"}, {"bin", "B"}};
  std::string data =
      "\xEF\xBB\xBFpk,sk,bin,note\n"
      "a,1,AAE=,plain\r\n"
      "\"b,1\",2.50,,\"says \"\"hi\"\"\nover two lines\"\n"
      "\n"
      "c,3\n"
      "d,4,!!,x\n";
  auto got = Records("CSV", data, csv);
  ASSERT_EQ(got.size(), 4u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], "{bin:{{AAE=}},note:\"plain\",pk:\"a\",sk:1.}");
  EXPECT_EQ(
      got[1],
      "{note:\"says \\\"hi\\\"\\nover two lines\",pk:\"b,1\",sk:2.50}");  // an empty field: no attribute
  EXPECT_EQ(got[2], "ERROR The CSV record has 2 values; its header has 4");
  EXPECT_EQ(got[3], "ERROR The value of the binary key attribute bin is not base64");
}

TEST(InputRecordsTest, CsvWithAHeaderListAndADelimiter) {
  CsvSettings csv;
  csv.delimiter = ';';
  csv.header = {"pk", "v"};
  auto got = Records("CSV", "a;1\nb;x,y\n", csv);
  EXPECT_EQ(got, (std::vector<std::string>{"{pk:\"a\",v:\"1\"}", "{pk:\"b\",v:\"x,y\"}"}));
  EXPECT_EQ(Records("CSV", "", csv), std::vector<std::string>{});
  auto unclosed = Records("CSV", "a;\"never closed\n", csv);
  ASSERT_EQ(unclosed.size(), 1u);
  EXPECT_TRUE(unclosed[0].starts_with("FAILED ")) << unclosed[0];
}

TEST(InputRecordsTest, IonTextAndBinary) {
  auto text =
      Records("ION", "$ion_1_0 {Item:{pk:\"a\",n:1.5}}\n$ion_1_0 {Item:{pk:\"b\",f:1e0}}\n{NotItem:{}}\n");
  EXPECT_EQ(text, (std::vector<std::string>{
                      "{n:1.5,pk:\"a\"}",
                      "ERROR An Ion float (1e0) is not a DynamoDB number: write a decimal (1d0)",
                      "ERROR The record has no Item"}));
  auto broken = Records("ION", "{Item:{pk:\"a\"}}\n{Item:{pk:\n");
  ASSERT_EQ(broken.size(), 2u);
  EXPECT_TRUE(broken[1].starts_with("FAILED the object is not valid Ion")) << broken[1];
  // $ion_symbol_table::{symbols:["Item","pk"]} {Item:{pk:"a"}}, in binary.
  std::string binary = std::string("\xE0\x01\x00\xEA", 4) + "\xED\x81\x83\xDA\x87\xB8\x84Item\x82pk" +
                       "\xD5\x8A\xD3\x8B\x81\x61";
  auto got = Records("ION", binary);
  ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], "{pk:\"a\"}");
}

std::string Gzip(std::string_view data) {
  std::string out;
  GzipWriter w(std::make_unique<StringWriter>(&out));
  EXPECT_TRUE(w.Write(data).ok());
  EXPECT_TRUE(w.Finish().ok());
  return out;
}

TEST(InputRecordsTest, GzipAndZstd) {
  std::string lines;
  for (int i = 0; i < 2000; ++i) lines += "{\"Item\":{\"pk\":{\"S\":\"k" + std::to_string(i) + "\"}}}\n";
  // Two gzip members, as concatenated .gz files are.
  std::string half = lines.substr(0, lines.size() / 2 + 7);
  auto got = Records("DYNAMODB_JSON", Gzip(half) + Gzip(lines.substr(half.size())), {}, "GZIP", 100);
  ASSERT_EQ(got.size(), 2000u);
  EXPECT_EQ(got[1999], "{pk:\"k1999\"}");

  std::string z(ZSTD_compressBound(lines.size()), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), lines.data(), lines.size(), 3));
  got = Records("DYNAMODB_JSON", z + z, {}, "ZSTD", 100);  // two frames
  ASSERT_EQ(got.size(), 4000u);
  EXPECT_EQ(got[3999], "{pk:\"k1999\"}");
}

TEST(InputRecordsTest, WrongOrDamagedCompression) {
  std::string plain = "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n";
  EXPECT_EQ(Records("DYNAMODB_JSON", plain, {}, "GZIP"),
            std::vector<std::string>{"FAILED the object is not in GZIP format"});
  auto z = Records("DYNAMODB_JSON", plain, {}, "ZSTD");
  ASSERT_EQ(z.size(), 1u);
  EXPECT_TRUE(z[0].starts_with("FAILED the object is not in ZSTD format")) << z[0];
  std::string cut = Gzip(plain + plain);
  cut.resize(cut.size() - 6);
  auto got = Records("DYNAMODB_JSON", cut, {}, "GZIP");
  ASSERT_FALSE(got.empty());
  EXPECT_TRUE(got.back().starts_with("FAILED ")) << got.back();
  // Read as given: GZIP data read as NONE is no JSON.
  got = Records("DYNAMODB_JSON", Gzip(plain), {}, "NONE");
  ASSERT_FALSE(got.empty());
  EXPECT_TRUE(got[0].starts_with("ERROR ")) << got[0];
}

TEST(InputRecordsTest, ALineTooLongIsOneError) {
  std::string data = "{\"Item\":{\"pk\":{\"S\":\"" + std::string(kMaxRecordBytes + 10, 'x') + "\"}}}\n" +
                     "{\"Item\":{\"pk\":{\"S\":\"after\"}}}\n";
  auto got = Records("DYNAMODB_JSON", data, {}, "NONE", 1 << 20);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[0].starts_with("ERROR The record is longer than")) << got[0];
  EXPECT_EQ(got[1], "{pk:\"after\"}");
}

TEST(InputRecordsTest, AnIonValueTooLongEndsTheObject) {
  std::string data = "{Item:{pk:\"" + std::string(kMaxRecordBytes + 10, 'x') + "\"}}\n{Item:{pk:\"after\"}}\n";
  auto got = Records("ION", data, {}, "NONE", 1 << 20);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].starts_with("FAILED an Ion value is longer than")) << got[0].substr(0, 200);
}

// A bulk put's record may carry its condition, in DynamoDB JSON and Ion.
TEST(InputRecordsTest, ConditionsOfBulkPutRecords) {
  auto first = [](std::string_view format, std::string data) {
    auto reader = MakeRecordReader(format, {}, Decompressing(std::make_unique<StringReader>(std::move(data), 5), ""));
    InputRecord rec;
    auto next = reader->Next(&rec);
    EXPECT_TRUE(next.ok() && *next);
    return rec;
  };
  InputRecord json = first("DYNAMODB_JSON",
                           "{\"Item\":{\"pk\":{\"S\":\"a\"}},\"ConditionExpression\":\"#n <> :v\","
                           "\"ExpressionAttributeNames\":{\"#n\":\"n\"},"
                           "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}}}\n");
  EXPECT_EQ(json.error, "");
  EXPECT_EQ(json.condition.condition_expression(), "#n <> :v");
  EXPECT_EQ(json.condition.expression_attribute_names().names().at("#n"), "n");
  EXPECT_EQ(json.condition.expression_attribute_values().attributes().at(":v").n(), "1");
  EXPECT_EQ(json.item.at("pk").s(), "a");
  InputRecord ion = first("ION",
                          "{Item:{pk:\"a\"},ConditionExpression:\"attribute_not_exists(#k)\","
                          "ExpressionAttributeNames:{'#k':\"pk\"},ExpressionAttributeValues:{':v':2}}");
  EXPECT_EQ(ion.error, "");
  EXPECT_EQ(ion.condition.condition_expression(), "attribute_not_exists(#k)");
  EXPECT_EQ(ion.condition.expression_attribute_names().names().at("#k"), "pk");
  EXPECT_EQ(ion.condition.expression_attribute_values().attributes().at(":v").n(), "2");
  EXPECT_EQ(first("ION", "{Item:{pk:\"a\"},ConditionExpression:3}").error,
            "The record's ConditionExpression is not a string");
  EXPECT_FALSE(first("DYNAMODB_JSON", "{\"Item\":{\"pk\":{\"S\":\"a\"}}}").condition.has_condition_expression());
}

}  // namespace
}  // namespace pogi::jobs
