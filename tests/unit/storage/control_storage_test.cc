// Tests for the control plane's storage calls (on every backend): table
// settings, shared values, on-demand backups (a consistent copy that outlives
// its table) and point-in-time history (as-of reads, pruning, dropping).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "storage/storage.h"
#include "tests/unit/storage/backend_fixture.h"

namespace pogi::storage {
namespace {

class ControlStorageTest : public BackendTest {};
POGI_ON_EVERY_BACKEND(ControlStorageTest);

EncodedKey Key(const std::string& pk) { return {pk, ""}; }

// partition -> item of what `read` visits.
std::map<std::string, std::string> Collect(
    Storage& s, const std::function<Status(ReadTxn&, const std::function<bool(const Row&)>&)>& read) {
  std::map<std::string, std::string> out;
  Status st = s.Read([&](ReadTxn& txn) {
    return read(txn, [&](const Row& row) {
      out[std::string(row.partition)] = std::string(row.item);
      return true;
    });
  });
  EXPECT_TRUE(st.ok()) << st.error().message();
  return out;
}

std::map<std::string, std::string> AsOf(Storage& s, int64_t table, int64_t t) {
  return Collect(s, [&](ReadTxn& txn, const auto& visit) { return txn.ReadHistoryAsOf(table, t, visit); });
}

TEST_P(ControlStorageTest, TableSettingsAreKeptAndDroppedWithTheTable) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  std::string got = "x";
  auto read = [&] {
    ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                   POGI_ASSIGN_OR_RETURN(got, txn.GetTableSettings(t));
                   return Status::Ok();
                 }).ok());
  };
  read();
  EXPECT_EQ(got, "");
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutTableSettings(t, "one"); });
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutTableSettings(t, "two"); });
  read();
  EXPECT_EQ(got, "two");
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DropTable(t); });
  read();
  EXPECT_EQ(got, "");
}

TEST_P(ControlStorageTest, SharedValuesAreReplacedAndExpire) {
  auto s = OpenFresh();
  auto get = [&](const std::string& key, int64_t now_us) {
    std::optional<std::string> got;
    Status st = s->Read([&](ReadTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(got, txn.GetSharedValue(key, now_us));
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.error().message();
    return got.value_or("<none>");
  };
  EXPECT_EQ(get("clock", 0), "<none>");
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutSharedValue("clock", "one", 0); });
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutSharedValue("clock", "two", 0); });
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutSharedValue("token/a", std::string("\0x", 2), 1000); });
  EXPECT_EQ(get("clock", 5000), "two") << "0: never expires";
  EXPECT_EQ(get("token/a", 999), std::string("\0x", 2)) << "bytes kept as they are";
  EXPECT_EQ(get("token/a", 1000), "<none>") << "expired at its instant";
  // Pruning forgets the expired values, and only them.
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PruneSharedValues(1000); });
  EXPECT_EQ(get("token/a", 0), "<none>");
  EXPECT_EQ(get("clock", 0), "two");
  MustWrite(*s, [&](WriteTxn& txn) { return txn.NoteCatalogChange(); });
}

TEST_P(ControlStorageTest, BackupIsACopyThatOutlivesItsTable) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, Key("a"), "A", 1));
    return txn.PutItem(t, Key("b"), "B", 1);
  });
  int64_t id = 0;
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(id, txn.CreateBackup({0, "arn:1", "t", 100, "d1"}, t));
    return Status::Ok();
  });
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, Key("a"), "A2", 1));
    return txn.DropTable(t);
  });
  auto items = Collect(*s, [&](ReadTxn& txn, const auto& visit) { return txn.ReadBackupItems(id, visit); });
  EXPECT_EQ(items, (std::map<std::string, std::string>{{"a", "A"}, {"b", "B"}}));
  std::optional<BackupRecord> rec;
  std::vector<BackupRecord> all;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                 POGI_ASSIGN_OR_RETURN(rec, txn.GetBackup("arn:1"));
                 POGI_ASSIGN_OR_RETURN(all, txn.ListBackups());
                 return Status::Ok();
               }).ok());
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->id, id);
  EXPECT_EQ(rec->table_name, "t");
  EXPECT_EQ(rec->created_us, 100);
  EXPECT_EQ(rec->description, "d1");
  ASSERT_EQ(all.size(), 1u);
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DeleteBackup(id); });
  items = Collect(*s, [&](ReadTxn& txn, const auto& visit) { return txn.ReadBackupItems(id, visit); });
  EXPECT_TRUE(items.empty());
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                 POGI_ASSIGN_OR_RETURN(rec, txn.GetBackup("arn:1"));
                 return Status::Ok();
               }).ok());
  EXPECT_FALSE(rec);
}

TEST_P(ControlStorageTest, AFailedWriteLeavesNoBackup) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  Status st = s->Write([&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(int64_t id, txn.CreateBackup({0, "arn:x", "t", 1, "d"}, t));
    (void)id;
    return Error::Internal("fail after the copy");
  });
  EXPECT_FALSE(st.ok());
  std::vector<BackupRecord> all;
  ASSERT_TRUE(s->Read([&](ReadTxn& txn) -> Status {
                 POGI_ASSIGN_OR_RETURN(all, txn.ListBackups());
                 return Status::Ok();
               }).ok());
  EXPECT_TRUE(all.empty());
}

TEST_P(ControlStorageTest, HistoryAsOfAnInstant) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("a"), 10, "a1", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("b"), 10, "b1", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("a"), 20, "a2", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("b"), 30, std::nullopt, 0));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("c"), 30, "c1", 1));
    return txn.AppendHistory(t, Key("c"), 30, "c2", 1);  // same instant: replaces
  });
  using M = std::map<std::string, std::string>;
  EXPECT_EQ(AsOf(*s, t, 9), M{});
  EXPECT_EQ(AsOf(*s, t, 10), (M{{"a", "a1"}, {"b", "b1"}}));
  EXPECT_EQ(AsOf(*s, t, 25), (M{{"a", "a2"}, {"b", "b1"}}));
  EXPECT_EQ(AsOf(*s, t, 30), (M{{"a", "a2"}, {"c", "c2"}}));
  // Pruning at 25 keeps every answer from 25 on.
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PruneHistory(t, 25); });
  EXPECT_EQ(AsOf(*s, t, 25), (M{{"a", "a2"}, {"b", "b1"}}));
  EXPECT_EQ(AsOf(*s, t, 30), (M{{"a", "a2"}, {"c", "c2"}}));
  EXPECT_EQ(AsOf(*s, t, 10), (M{{"b", "b1"}}));  // a1 is gone
  // Pruning at 30 forgets the deletion of b (nothing before it is needed).
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PruneHistory(t, 30); });
  EXPECT_EQ(AsOf(*s, t, 30), (M{{"a", "a2"}, {"c", "c2"}}));
  EXPECT_EQ(AsOf(*s, t, 29), (M{{"a", "a2"}}));
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DropHistory(t); });
  EXPECT_EQ(AsOf(*s, t, 30), M{});
}

TEST_P(ControlStorageTest, HistoryGoesWithTheTable) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t u = NewTable(*s, "u");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("a"), 10, "a1", 1));
    return txn.AppendHistory(u, Key("a"), 10, "u1", 1);
  });
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DropTable(t); });
  EXPECT_TRUE(AsOf(*s, t, 10).empty());
  EXPECT_EQ(AsOf(*s, u, 10).size(), 1u);
}

TEST_P(ControlStorageTest, ABackupKeepsTheHistoryOfItsDeletedTable) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t backup = 0;
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("a"), 10, "a1", 1));
    POGI_RETURN_IF_ERROR(txn.AppendHistory(t, Key("a"), 20, "a2", 1));
    return txn.AppendHistory(t, Key("b"), 20, "b1", 1);
  });
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(backup, txn.CreateBackup({0, "arn:sys", "t", 30, "d"}, t));
    POGI_RETURN_IF_ERROR(txn.MoveHistoryToBackup(t, backup));
    return txn.DropTable(t);
  });
  using M = std::map<std::string, std::string>;
  auto kept = [&](int64_t at) {
    return Collect(
        *s, [&](ReadTxn& txn, const auto& visit) { return txn.ReadBackupHistoryAsOf(backup, at, visit); });
  };
  EXPECT_EQ(kept(15), (M{{"a", "a1"}}));
  EXPECT_EQ(kept(20), (M{{"a", "a2"}, {"b", "b1"}}));
  // A new table given the old id starts without that history.
  int64_t again = NewTable(*s, "t");
  if (again == t) EXPECT_TRUE(AsOf(*s, again, 20).empty());
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DeleteBackup(backup); });
  EXPECT_TRUE(kept(20).empty());
}

}  // namespace
}  // namespace pogi::storage
