// Tests for ReadLag (settings, recorded versions, forgetting) and
// LaggedReadTxn (point reads and the merge of range reads in each order).
#include "service/core/read_lag.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "service/core/catalog.h"
#include "service/read/lagged_read.h"

namespace pogi::service {
namespace {

value::AttributeMap Item(const std::string& v) {
  value::AttributeMap m;
  m["v"].set_s(v);
  return m;
}

std::string ValueOf(std::string_view bytes) {
  auto item = value::DecodeItem(bytes);
  EXPECT_TRUE(item.ok());
  return item->attributes().at("v").s();
}

// A storage snapshot of one table's rows, in (partition, sort) order: enough
// for the Query shape the view merges into.
class FakeTxn final : public storage::ReadTxn {
 public:
  std::map<std::pair<std::string, std::string>, std::string> rows;

  Status ReadRange(const storage::RangeRead& read,
                   const std::function<bool(const storage::Row&)>& visit) override {
    std::vector<std::pair<std::pair<std::string, std::string>, std::string>> in;
    for (const auto& r : rows) {
      if (read.partition && r.first.first != *read.partition) continue;
      in.push_back(r);
    }
    if (!read.forward) std::reverse(in.begin(), in.end());
    for (const auto& [k, item] : in) {
      storage::Row row;
      row.partition = row.table_partition = k.first;
      row.sort = row.table_sort = k.second;
      row.item = item;
      if (!visit(row)) break;
    }
    return Status::Ok();
  }
  Result<std::optional<std::string>> GetItem(int64_t, const storage::EncodedKey& key) override {
    auto it = rows.find({key.partition, key.sort});
    if (it == rows.end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }
  Result<std::pair<int64_t, int64_t>> IndexCounters(int64_t) override {
    return std::pair<int64_t, int64_t>(0, 0);
  }
  Status ReadVectorGenerations(int64_t, std::string_view, storage::VectorGenerations* out) override {
    out->fill(0);
    return Status::Ok();
  }
  Status ReadVectorSlot(int64_t, std::string_view, int,
                        const std::function<bool(const storage::VectorEntry&)>&) override {
    return Status::Ok();
  }
  Result<std::pair<int64_t, int64_t>> VectorIndexCounters(int64_t) override {
    return std::pair<int64_t, int64_t>(0, 0);
  }
  Result<std::optional<storage::TableRecord>> GetTable(int64_t) override {
    return std::optional<storage::TableRecord>();
  }
  Result<std::vector<storage::StreamRecordRow>> ReadStreamRecords(int64_t, int64_t, int64_t, int) override {
    return std::vector<storage::StreamRecordRow>();
  }
  int64_t LastStreamSequence(int64_t) override { return 0; }
  Result<std::optional<std::string>> GetStream(int64_t) override { return std::optional<std::string>(); }
  Result<std::string> GetTableSettings(int64_t) override { return std::string(); }
  Result<std::optional<std::string>> GetSharedValue(std::string_view, int64_t) override {
    return std::optional<std::string>();
  }
  Status ReadHistoryPage(int64_t, int64_t, std::string*, int,
                         const std::function<bool(const storage::Row&)>&) override {
    return Status::Ok();
  }
  Status ReadHistoryChanges(int64_t, int64_t, int64_t, std::string*, int,
                            const std::function<bool(const storage::HistoryChange&)>&) override {
    return Status::Ok();
  }
  Result<std::vector<storage::JobRecord>> ListJobs(std::string_view) override {
    return std::vector<storage::JobRecord>();
  }
  Result<std::optional<storage::JobRecord>> GetJob(std::string_view) override {
    return std::optional<storage::JobRecord>();
  }
  Result<std::vector<storage::BackupRecord>> ListBackups() override {
    return std::vector<storage::BackupRecord>();
  }
  Result<std::optional<storage::BackupRecord>> GetBackup(std::string_view) override {
    return std::optional<storage::BackupRecord>();
  }
  Status ReadBackupItems(int64_t, const std::function<bool(const storage::Row&)>&) override {
    return Status::Ok();
  }
  Status ReadHistoryAsOf(int64_t, int64_t, const std::function<bool(const storage::Row&)>&) override {
    return Status::Ok();
  }
  Status ReadBackupHistoryAsOf(int64_t, int64_t, const std::function<bool(const storage::Row&)>&) override {
    return Status::Ok();
  }
};

class ReadLagTest : public ::testing::Test {
 protected:
  ReadLagTest() {
    table_.id = 7;
    table_.description.set_table_name("t");
  }
  // What the write path does: record the old version, then store the new.
  void Write(const std::string& sort, const std::optional<std::string>& v) {
    storage::EncodedKey key{"p", sort};
    auto it = txn_.rows.find({"p", sort});
    std::optional<value::AttributeMap> old;
    if (it != txn_.rows.end()) old = Item(ValueOf(it->second));
    lag_.Record(table_, key, old ? &*old : nullptr);
    if (v) {
      txn_.rows[{"p", sort}] = value::EncodeItem(Item(*v));
    } else {
      txn_.rows.erase({"p", sort});
    }
  }
  std::vector<std::string> Query(bool forward) {
    std::optional<LaggedReadTxn> holder;
    storage::ReadTxn& view = ReadView(txn_, lag_, table_, true, holder);
    storage::RangeRead read;
    read.id = table_.id;
    read.partition = "p";
    read.forward = forward;
    std::vector<std::string> out;
    EXPECT_TRUE(view.ReadRange(read,
                               [&](const storage::Row& r) {
                                 out.push_back(std::string(r.sort) + "=" + ValueOf(r.item));
                                 return true;
                               })
                    .ok());
    return out;
  }

  Table table_;
  ReadLag lag_;
  FakeTxn txn_;
};

TEST_F(ReadLagTest, OffByDefaultRecordsNothing) {
  EXPECT_FALSE(lag_.active());
  Write("a", "1");
  EXPECT_TRUE(lag_.Since(table_).empty());
  EXPECT_EQ(Query(true), std::vector<std::string>{"a=1"});
}

TEST_F(ReadLagTest, SettingsGlobalAndPerTable) {
  lag_.Set("", 100);
  lag_.Set("t", 200);
  EXPECT_TRUE(lag_.active());
  EXPECT_EQ(lag_.global_ms(), 100);
  EXPECT_EQ(lag_.table_ms().at("t"), 200);
  lag_.Set("t", 0);  // back to the global lag
  EXPECT_TRUE(lag_.table_ms().empty());
  EXPECT_TRUE(lag_.active());
  lag_.Set("t", 300);
  lag_.Set("", 0);  // everything off
  EXPECT_FALSE(lag_.active());
  EXPECT_TRUE(lag_.table_ms().empty());
}

TEST_F(ReadLagTest, ViewShowsTheStateBeforeTheWindow) {
  Write("b", "old-b");
  Write("d", "old-d");
  lag_.Set("t", 60000);
  Write("a", "new-a");  // created
  Write("b", "new-b");  // changed twice: the first old version counts
  Write("b", "newer-b");
  Write("c", "new-c");
  Write("d", std::nullopt);  // deleted
  EXPECT_EQ(Query(true), (std::vector<std::string>{"b=old-b", "d=old-d"}));
  EXPECT_EQ(Query(false), (std::vector<std::string>{"d=old-d", "b=old-b"}));

  std::optional<LaggedReadTxn> holder;
  storage::ReadTxn& view = ReadView(txn_, lag_, table_, true, holder);
  auto a = view.GetItem(table_.id, {"p", "a"});
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->has_value());
  auto b = view.GetItem(table_.id, {"p", "b"});
  ASSERT_TRUE(b.ok() && b->has_value());
  EXPECT_EQ(ValueOf(**b), "old-b");
  // A consistent read sees the table itself.
  std::optional<LaggedReadTxn> none;
  EXPECT_EQ(&ReadView(txn_, lag_, table_, false, none), &txn_);
}

TEST_F(ReadLagTest, VersionsOlderThanTheLagAreGone) {
  lag_.Set("t", 20);
  Write("a", "1");
  EXPECT_EQ(Query(true), std::vector<std::string>{});
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(Query(true), std::vector<std::string>{"a=1"});
}

TEST_F(ReadLagTest, ForgetDropsATablesVersions) {
  Write("a", "1");
  lag_.Set("", 60000);
  Write("a", "2");
  EXPECT_EQ(lag_.Since(table_).size(), 1u);
  lag_.Forget(table_.id);
  EXPECT_TRUE(lag_.Since(table_).empty());
}

}  // namespace
}  // namespace pogi::service
