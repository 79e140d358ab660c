// Tests for service/index_entries' write checks (CheckIndexKeys): the index
// key values DynamoDB refuses (wrong type, empty, over the key size limits),
// with its messages, and what is not refused.
#include "service/write/index_entries.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::B;
using test::N;
using test::S;

constexpr char kInvalid[] = "One or more parameter values were invalid: ";

// pk/sk table with a GSI "gi" (g S, gs S), an LSI "li" (pk, ls B) and a
// multi-attribute GSI "multi" (m1 S + m2 S, r1 S + r2 N).
Table IndexedTable() {
  Table t;
  t.hash = {"pk", "S"};
  t.range = KeyAttribute{"sk", "S"};
  Index gi;
  gi.name = "gi";
  gi.keys.hash = {{"g", "S"}};
  gi.keys.range = {{"gs", "S"}};
  Index li;
  li.name = "li";
  li.global = false;
  li.keys.hash = {{"pk", "S"}};
  li.keys.range = {{"ls", "B"}};
  Index multi;
  multi.name = "multi";
  multi.keys.hash = {{"m1", "S"}, {"m2", "S"}};
  multi.keys.range = {{"r1", "S"}, {"r2", "N"}};
  t.indexes = {gi, li, multi};
  return t;
}

std::string Check(const Table& t, std::vector<std::pair<std::string, v1::AttributeValue>> attrs) {
  value::AttributeMap item;
  item["pk"] = S("p");
  item["sk"] = S("s");
  for (auto& [k, v] : attrs) item[k] = v;
  Status s = CheckIndexKeys(t, item);
  if (s.ok()) return "(ok)";
  EXPECT_EQ(s.error().code(), ErrorCode::kValidation);
  return s.error().message();
}

TEST(IndexEntriesTest, ItemWithoutIndexKeysIsNotInTheIndex) {
  EXPECT_EQ(Check(IndexedTable(), {}), "(ok)");
  // A non-key attribute may be as large as the item allows.
  EXPECT_EQ(Check(IndexedTable(), {{"other", S(std::string(5000, 'x'))}}), "(ok)");
}

TEST(IndexEntriesTest, TypeMismatchAndEmptyValues) {
  EXPECT_EQ(Check(IndexedTable(), {{"g", N("1")}}),
            std::string(kInvalid) + "Type mismatch for Index Key g Expected: S Actual: N IndexName: gi");
  EXPECT_EQ(Check(IndexedTable(), {{"g", S("")}}),
            "One or more parameter values are not valid. A value specified for a secondary index key is not "
            "supported. The AttributeValue for a key attribute cannot contain an empty string value. "
            "IndexName: gi, IndexKey: g");
}

TEST(IndexEntriesTest, PartitionKeyLimitIs2048Bytes) {
  EXPECT_EQ(Check(IndexedTable(), {{"g", S(std::string(2048, 'x'))}}), "(ok)");
  EXPECT_EQ(
      Check(IndexedTable(), {{"g", S(std::string(2049, 'x'))}}),
      std::string(kInvalid) +
          "Size limit exceeded for Index Key g Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: gi");
}

TEST(IndexEntriesTest, SortKeyLimitIs1024Bytes) {
  EXPECT_EQ(Check(IndexedTable(), {{"gs", S(std::string(1024, 'y'))}}), "(ok)");
  EXPECT_EQ(
      Check(IndexedTable(), {{"gs", S(std::string(1025, 'y'))}}),
      std::string(kInvalid) +
          "Size limit exceeded for Index Key gs Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: gi");
  // A local index's sort key, binary.
  EXPECT_EQ(Check(IndexedTable(), {{"ls", B(std::string(1024, '\0'))}}), "(ok)");
  EXPECT_EQ(
      Check(IndexedTable(), {{"ls", B(std::string(1025, '\0'))}}),
      std::string(kInvalid) +
          "Size limit exceeded for Index Key ls Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: li");
}

TEST(IndexEntriesTest, SizesAreUtf8Bytes) {
  std::string euros;
  for (int i = 0; i < 683; ++i) euros += "\xe2\x82\xac";  // 683 characters, 2049 bytes
  EXPECT_EQ(
      Check(IndexedTable(), {{"g", S(euros)}}),
      std::string(kInvalid) +
          "Size limit exceeded for Index Key g Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: gi");
}

TEST(IndexEntriesTest, EachAttributeOfAMultiAttributeKeyHasItsRolesLimit) {
  EXPECT_EQ(Check(IndexedTable(), {{"m1", S(std::string(2048, 'a'))},
                                   {"m2", S(std::string(2048, 'b'))},
                                   {"r1", S(std::string(1024, 'c'))},
                                   {"r2", N("1")}}),
            "(ok)");
  EXPECT_EQ(Check(IndexedTable(), {{"m2", S(std::string(2049, 'b'))}}),
            std::string(kInvalid) +
                "Size limit exceeded for Index Key m2 Actual Size: 2049 bytes Max Size: "
                "2048 bytes IndexName: multi");
  EXPECT_EQ(Check(IndexedTable(), {{"r1", S(std::string(1025, 'c'))}}),
            std::string(kInvalid) +
                "Size limit exceeded for Index Key r1 Actual Size: 1025 bytes Max Size: "
                "1024 bytes IndexName: multi");
}

TEST(IndexEntriesTest, TableWithoutIndexesChecksNothing) {
  Table t;
  t.hash = {"pk", "S"};
  value::AttributeMap item;
  item["pk"] = S("p");
  item["g"] = S(std::string(5000, 'x'));
  EXPECT_TRUE(CheckIndexKeys(t, item).ok());
}

TEST(IndexEntriesTest, OneIndexAtATime) {
  Table t = IndexedTable();
  value::AttributeMap item;
  item["pk"] = S("p");
  item["g"] = S(std::string(2049, 'x'));
  EXPECT_FALSE(CheckIndexKeyValues(t.indexes[0], item).ok());
  EXPECT_TRUE(CheckIndexKeyValues(t.indexes[1], item).ok());
}

}  // namespace
}  // namespace pogi::service
