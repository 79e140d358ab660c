// Tests for what exports, imports and bulk operations keep and read (on
// every backend): job rows, and point-in-time history a page at a time.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "storage/storage.h"
#include "tests/unit/storage/backend_fixture.h"

namespace pogi::storage {
namespace {

class JobStorageTest : public BackendTest {};
POGI_ON_EVERY_BACKEND(JobStorageTest);

EncodedKey Key(const std::string& pk, const std::string& sk = "") { return {pk, sk}; }

TEST_P(JobStorageTest, JobsAreReplacedAndListedByKind) {
  auto s = OpenFresh();
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutJob({"arn:e2", "export", 20, "s2"}));
    POGI_RETURN_IF_ERROR(txn.PutJob({"arn:e1", "export", 10, "s1"}));
    return txn.PutJob({"arn:i1", "import", 5, "i"});
  });
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutJob({"arn:e1", "export", 10, "s1-done"}); });
  Status st = s->Read([&](ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto exports, txn.ListJobs("export"));
    EXPECT_EQ(exports.size(), 2u);
    if (exports.size() == 2) {
      EXPECT_EQ(exports[0].arn, "arn:e1");
      EXPECT_EQ(exports[0].state, "s1-done");
      EXPECT_EQ(exports[1].arn, "arn:e2");
    }
    POGI_ASSIGN_OR_RETURN(auto imports, txn.ListJobs("import"));
    EXPECT_EQ(imports.size(), 1u);
    POGI_ASSIGN_OR_RETURN(auto one, txn.GetJob("arn:i1"));
    EXPECT_TRUE(one && one->kind == "import" && one->created_us == 5);
    POGI_ASSIGN_OR_RETURN(auto none, txn.GetJob("arn:none"));
    EXPECT_FALSE(none);
    return Status::Ok();
  });
  ASSERT_TRUE(st.ok()) << st.error().message();
}

// The history of 300 keys, read in pages of 7 in separate transactions,
// is ReadHistoryAsOf's answer, in its order.
TEST_P(JobStorageTest, HistoryPagesMakeTheWholeAsOfRead) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    for (int i = 0; i < 300; i++) {
      std::string pk = "k" + std::to_string(i);
      POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key(pk, "s"), 10, pk + "@10", 3));
      if (i % 3 == 0) POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key(pk, "s"), 20, std::nullopt, 0));
      if (i % 5 == 0) POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key(pk, "s"), 30, pk + "@30", 3));
    }
    return Status::Ok();
  });
  for (int64_t at : {15, 25, 35}) {
    std::vector<std::string> whole, paged;
    ASSERT_TRUE(s->Read([&](ReadTxn& txn) {
                   return txn.ReadHistoryAsOf(t, at, [&](const Row& r) {
                     whole.push_back(std::string(r.partition) + "=" + std::string(r.item));
                     return true;
                   });
                 }).ok());
    std::string cursor;
    int pages = 0;
    do {
      ASSERT_TRUE(s->Read([&](ReadTxn& txn) {
                     return txn.ReadHistoryPage(t, at, &cursor, 7, [&](const Row& r) {
                       EXPECT_EQ(r.sort, "s");
                       paged.push_back(std::string(r.partition) + "=" + std::string(r.item));
                       return true;
                     });
                   }).ok());
      ASSERT_LT(++pages, 100);
    } while (!cursor.empty());
    EXPECT_EQ(paged, whole) << "at " << at;
    EXPECT_EQ(whole.size(), at == 15 ? 300u : at == 25 ? 200u : 200u + 20u);
  }
  // A visit that stops early resumes after the last row it took.
  std::string cursor;
  std::vector<std::string> first;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) {
                 return txn.ReadHistoryPage(t, 15, &cursor, 50, [&](const Row& r) {
                   first.push_back(std::string(r.partition));
                   return first.size() < 2;
                 });
               }).ok());
  ASSERT_EQ(first.size(), 2u);
  ASSERT_FALSE(cursor.empty());
  std::string next;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) {
                 return txn.ReadHistoryPage(t, 15, &cursor, 1, [&](const Row& r) {
                   next = std::string(r.partition);
                   return true;
                 });
               }).ok());
  EXPECT_NE(next, first[0]);
  EXPECT_NE(next, first[1]);
}

TEST_P(JobStorageTest, HistoryChangesGiveEachKeysImagesAroundTheSpan) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("kept"), 10, "k1", 1));  // untouched in the span
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("updated"), 10, "u1", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("updated"), 22, "u2", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("updated"), 25, "u3", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("deleted"), 10, "d1", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("deleted"), 21, std::nullopt, 0));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("inserted"), 20, "i1", 1));  // at the span's start: in it
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("brief"), 23, "b1", 1));     // made and deleted inside
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("brief"), 24, std::nullopt, 0));
    return txn.AppendHistory(t, Key("later"), 30, "l1", 1);  // at the span's end: not in it
  });
  using Change = std::tuple<std::optional<std::string>, std::optional<std::string>, int64_t>;
  std::map<std::string, Change> got;
  std::string cursor;
  int pages = 0;
  do {
    ASSERT_TRUE(s->Read([&](ReadTxn& txn) {
                   return txn.ReadHistoryChanges(t, 20, 30, &cursor, 2, [&](const HistoryChange& c) {
                     auto str = [](std::optional<std::string_view> v) {
                       return v ? std::optional<std::string>(std::string(*v)) : std::nullopt;
                     };
                     got[std::string(c.partition)] = Change{str(c.old_item), str(c.new_item), c.time_us};
                     return true;
                   });
                 }).ok());
    ASSERT_LT(++pages, 20);
  } while (!cursor.empty());
  std::map<std::string, Change> want = {
      {"updated", {"u1", "u3", 25}},
      {"deleted", {"d1", std::nullopt, 21}},
      {"inserted", {std::nullopt, "i1", 20}},
  };
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace pogi::storage
