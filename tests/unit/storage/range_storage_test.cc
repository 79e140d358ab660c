// Tests of range reads, streams and snapshots on every backend: the order
// and bounds of Query and Scan over items and index entries (keys compared
// bytewise, the largest keys DynamoDB allows), reads longer than a page,
// stream sequence numbers, named snapshots, and data seen again after a
// reopen.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "storage/storage.h"
#include "tests/unit/storage/backend_fixture.h"

namespace pogi::storage {
namespace {

class RangeStorageTest : public BackendTest {};
POGI_ON_EVERY_BACKEND(RangeStorageTest);

// "partition/sort" of every row `read` visits, in order (at most `limit`).
std::vector<std::string> Keys(Storage& s, const RangeRead& read, size_t limit = SIZE_MAX) {
  std::vector<std::string> out;
  Status st = s.Read([&](ReadTxn& txn) {
    return txn.ReadRange(read, [&](const Row& row) {
      std::string key = std::string(row.partition) + "/" + std::string(row.sort);
      if (read.is_index) key += "@" + std::string(row.table_partition) + "/" + std::string(row.table_sort);
      out.push_back(key);
      return out.size() < limit;
    });
  });
  EXPECT_TRUE(st.ok()) << st.error().message();
  return out;
}

RangeRead QueryOf(int64_t table, const std::string& partition) {
  RangeRead r;
  r.id = table;
  r.partition = partition;
  return r;
}

TEST_P(RangeStorageTest, QueryOrdersSortKeysBytewiseWithinBounds) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  // Bytewise order: "\x01" < "A" < "a" < "\xc3\xa9" (UTF-8 é), whatever a
  // database's collation would say.
  for (std::string sk : {"a", "A", "\xc3\xa9", "\x01", "b"}) {
    MustWrite(*s, [&](WriteTxn& txn) { return txn.PutItem(t, {"p", sk}, "v", 1); });
  }
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutItem(t, {"other", "a"}, "v", 1); });
  EXPECT_EQ(Keys(*s, QueryOf(t, "p")),
            (std::vector<std::string>{"p/\x01", "p/A", "p/a", "p/b", "p/\xc3\xa9"}));
  RangeRead back = QueryOf(t, "p");
  back.forward = false;
  EXPECT_EQ(Keys(*s, back), (std::vector<std::string>{"p/\xc3\xa9", "p/b", "p/a", "p/A", "p/\x01"}));
  // a < sk <= b, then a <= sk < \xc3 (exclusions), then after a position.
  RangeRead bounded = QueryOf(t, "p");
  bounded.sort_lo = "a";
  bounded.exclude_lo = "a";
  bounded.sort_hi = "b";
  EXPECT_EQ(Keys(*s, bounded), (std::vector<std::string>{"p/b"}));
  RangeRead after = QueryOf(t, "p");
  after.start_after = RowPosition{"p", "A", "p", "A"};
  EXPECT_EQ(Keys(*s, after), (std::vector<std::string>{"p/a", "p/b", "p/\xc3\xa9"}));
  after.forward = false;
  after.start_after = RowPosition{"p", "b", "p", "b"};
  EXPECT_EQ(Keys(*s, after), (std::vector<std::string>{"p/a", "p/A", "p/\x01"}));
}

TEST_P(RangeStorageTest, ReadsLongerThanAPageAreWholeAndInOrder) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    for (int i = 0; i < 2500; i++) {
      char sk[8];
      snprintf(sk, sizeof sk, "%05d", i);
      POGI_RETURN_IF_ERROR(txn.PutItem(t, {"p", sk}, "v", 1));
      POGI_RETURN_IF_ERROR(txn.PutItem(t, {"k" + std::to_string(i), ""}, "v", 1));
    }
    return Status::Ok();
  });
  auto query = Keys(*s, QueryOf(t, "p"));
  ASSERT_EQ(query.size(), 2500u);
  for (int i = 1; i < 2500; i++) ASSERT_LT(query[i - 1], query[i]);
  // A scan visits every item once; its halves (hash ranges) split it.
  RangeRead scan;
  scan.id = t;
  auto all = Keys(*s, scan);
  EXPECT_EQ(all.size(), 5000u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 5000u);
  RangeRead low = scan, high = scan;
  low.hash_hi = kMaxHash / 2;
  high.hash_lo = kMaxHash / 2 + 1;
  auto a = Keys(*s, low), b = Keys(*s, high);
  EXPECT_EQ(a.size() + b.size(), 5000u);
  // 2,500 one-item partitions spread over both halves (and "p" in one).
  EXPECT_GT(std::min(a.size(), b.size()), 1000u);
  // Stopping early, then going on after the last row seen, misses nothing.
  auto first = Keys(*s, scan, 700);
  ASSERT_EQ(first.size(), 700u);
  std::string last = first.back();
  RangeRead rest = scan;
  size_t slash = last.find('/');
  std::string p = last.substr(0, slash), sk = last.substr(slash + 1);
  rest.start_after = RowPosition{p, sk, p, sk};
  auto second = Keys(*s, rest);
  first.insert(first.end(), second.begin(), second.end());
  EXPECT_EQ(first, all);
}

TEST_P(RangeStorageTest, TheLargestKeysAreStoredAndRead) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  // DynamoDB's limits: 2048-byte partition keys, 1024-byte sort keys.
  std::string pk(2048, 'p'), sk1(1024, 'a'), sk2(1024, 'b');
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {pk, sk1}, "one", 1));
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {pk, sk2}, "two", 1));
    POGI_ASSIGN_OR_RETURN(int64_t index, txn.CreateIndex(t, "gsi"));
    // An index entry keyed by the largest index key and table key at once.
    return txn.PutIndexEntry(index, {pk, sk2}, {pk, sk1}, "entry", 1);
  });
  auto keys = Keys(*s, QueryOf(t, pk));
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[1], pk + "/" + sk2);
  std::optional<std::string> got;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                 POGI_ASSIGN_OR_RETURN(got, txn.GetItem(t, {pk, sk1}));
                 return Status::Ok();
               }).ok());
  EXPECT_EQ(got.value_or("(none)"), "one");
}

TEST_P(RangeStorageTest, IndexEntriesOrderByIndexKeyThenTableKey) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t index = 0;
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(index, txn.CreateIndex(t, "gsi"));
    POGI_RETURN_IF_ERROR(txn.PutIndexEntry(index, {"g", "2"}, {"a", ""}, "x", 1));
    POGI_RETURN_IF_ERROR(txn.PutIndexEntry(index, {"g", "1"}, {"b", ""}, "x", 1));
    POGI_RETURN_IF_ERROR(txn.PutIndexEntry(index, {"g", "1"}, {"c", ""}, "x", 1));
    return txn.PutIndexEntry(index, {"h", "1"}, {"d", ""}, "x", 1);
  });
  RangeRead q = QueryOf(index, "g");
  q.is_index = true;
  auto keys = Keys(*s, q);
  ASSERT_EQ(keys.size(), 3u);
  // Index sort key first; entries that share it come in one fixed order of
  // their table keys (DynamoDB promises none), the same forwards as
  // backwards reversed.
  EXPECT_EQ(keys[2], "g/2@a/");
  q.forward = false;
  auto back = Keys(*s, q);
  EXPECT_EQ(std::vector<std::string>(keys.rbegin(), keys.rend()), back);
  // Paging on from the first entry.
  RangeRead after = QueryOf(index, "g");
  after.is_index = true;
  std::string first_table = keys[0].substr(keys[0].find('@') + 1, 1);
  after.start_after = RowPosition{"g", "1", first_table, ""};
  EXPECT_EQ(Keys(*s, after), std::vector<std::string>(keys.begin() + 1, keys.end()));
  std::pair<int64_t, int64_t> counts;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                 POGI_ASSIGN_OR_RETURN(counts, txn.IndexCounters(index));
                 return Status::Ok();
               }).ok());
  EXPECT_EQ(counts.first, 4);
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DeleteIndexEntry(index, {"g", "2"}, {"a", ""}); });
  EXPECT_EQ(Keys(*s, QueryOf(index, "g")).size(), 0u);  // not an index read: the table's items
  q.forward = true;
  EXPECT_EQ(Keys(*s, q).size(), 2u);
}

TEST_P(RangeStorageTest, StreamSequenceNumbersIncreaseAndRecordsTrim) {
  auto s = OpenFresh();
  int64_t stream = 0;
  std::vector<int64_t> seqs;
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(stream, txn.CreateStream("state"));
    return Status::Ok();
  });
  for (int i = 0; i < 3; i++) {
    MustWrite(*s, [&](WriteTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(int64_t seq, txn.AppendStreamRecord(stream, 100.0 + i, "r" + std::to_string(i)));
      seqs.push_back(seq);
      return Status::Ok();
    });
  }
  ASSERT_LT(seqs[0], seqs[1]);
  ASSERT_LT(seqs[1], seqs[2]);
  int64_t end = 0;
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(end, txn.IssueStreamSequence(stream));
    return Status::Ok();
  });
  EXPECT_GT(end, seqs[2]);
  std::vector<StreamRecordRow> records;
  int64_t last = 0;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                 last = txn.LastStreamSequence(stream);
                 POGI_ASSIGN_OR_RETURN(records, txn.ReadStreamRecords(stream, 0, last, 10));
                 return Status::Ok();
               }).ok());
  EXPECT_EQ(last, end);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1].record, "r1");
  EXPECT_DOUBLE_EQ(records[1].created, 101.0);
  int64_t trimmed = 0;
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(trimmed, txn.TrimStreamRecords(stream, 101.5));
    return Status::Ok();
  });
  EXPECT_EQ(trimmed, seqs[1]);
  auto streams = s->ListStreams();
  ASSERT_TRUE(streams.ok());
  ASSERT_EQ(streams->size(), 1u);
  EXPECT_EQ((*streams)[0].state, "state");
}

TEST_P(RangeStorageTest, SnapshotsRestoreEveryTableAtOnce) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"a", ""}, "before", 6));
    return txn.AdjustCounters(t, 1, 6);
  });
  ASSERT_TRUE(s->SaveSnapshot("base").ok());
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"a", ""}, "after", 5));
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"b", ""}, "new", 3));
    POGI_RETURN_IF_ERROR(txn.AdjustCounters(t, 1, 2));
    POGI_ASSIGN_OR_RETURN(int64_t u, txn.CreateTable({0, "u", "d"}));
    (void)u;
    return Status::Ok();
  });
  auto list = s->ListSnapshots();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].name, "base");
  ASSERT_TRUE(s->RestoreSnapshot("base").ok());
  auto tables = s->ListTables();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].item_count, 1);
  EXPECT_EQ((*tables)[0].size_bytes, 6);
  EXPECT_EQ(Keys(*s, QueryOf(t, "a")), (std::vector<std::string>{"a/"}));
  EXPECT_EQ(Keys(*s, QueryOf(t, "b")).size(), 0u);
  EXPECT_EQ(s->RestoreSnapshot("missing").error().code(), ErrorCode::kResourceNotFound);
  ASSERT_TRUE(s->DeleteSnapshot("base").ok());
  EXPECT_TRUE(s->ListSnapshots()->empty());
  EXPECT_EQ(s->DeleteSnapshot("base").error().code(), ErrorCode::kResourceNotFound);
}

// A durable backend: what one storage wrote, another opened on the same
// place reads (PostgreSQL: the same schema; SQLite's own file tests are
// StorageTest's).
TEST_P(RangeStorageTest, ASecondOpenSeesTheData) {
  if (!IsPostgres())
    GTEST_SKIP() << "SQLite in memory; StorageTest.DataPersistsAcrossReopen covers its files";
  Options o = BackendOptions("shared");
  int64_t t = 0;
  {
    auto r = Storage::Open(o);
    ASSERT_TRUE(r.ok()) << r.error().message();
    t = NewTable(**r, "t");
    MustWrite(**r, [&](WriteTxn& txn) -> Status {
      POGI_RETURN_IF_ERROR(txn.PutItem(t, {"k", ""}, "v", 1));
      return txn.AdjustCounters(t, 1, 1);
    });
  }
  auto r = Storage::Open(o);
  ASSERT_TRUE(r.ok()) << r.error().message();
  auto tables = (*r)->ListTables();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  EXPECT_EQ((*tables)[0].item_count, 1);
  EXPECT_EQ(Keys(**r, QueryOf(t, "k")), (std::vector<std::string>{"k/"}));
}

TEST_P(RangeStorageTest, AnUnreachableDatabaseFailsInOneLine) {
  if (!IsPostgres()) GTEST_SKIP() << "PostgreSQL only";
  Options o;
  o.postgres = "host=127.0.0.1 port=1 dbname=none connect_timeout=2";
  auto r = Storage::Open(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("cannot connect to PostgreSQL"), std::string::npos)
      << r.error().message();
  EXPECT_EQ(r.error().message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace pogi::storage
