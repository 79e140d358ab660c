// Tests for storage::Storage (StorageBackendTest: on every backend; StorageTest:
// SQLite's own): opening (in memory, on disk, and the
// one-line errors of a bad folder or file), the catalog, items, counters,
// transactional rollback, persistence, readers beside a writer, and the
// exclusive hold on a database folder.
#include "storage/storage.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/storage/backend_fixture.h"

namespace pogi::storage {
namespace {

namespace fs = std::filesystem;

class StorageBackendTest : public BackendTest {};
POGI_ON_EVERY_BACKEND(StorageBackendTest);

// A fresh folder under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "pogi_storage_test_XXXXXX").string();
    char* p = mkdtemp(tmpl.data());
    EXPECT_NE(p, nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::unique_ptr<Storage> OpenOrDie(const Options& options) {
  auto r = Storage::Open(options);
  EXPECT_TRUE(r.ok()) << r.error().message();
  return r.ok() ? std::move(r).value() : nullptr;
}

std::unique_ptr<Storage> OpenMemory() {
  Options o;
  o.in_memory = true;
  return OpenOrDie(o);
}
std::unique_ptr<Storage> OpenDir(const std::string& dir) { return OpenOrDie(Options{.data_dir = dir}); }

int64_t CreateTable(Storage& s, const std::string& name, const std::string& description = "desc") {
  int64_t id = 0;
  Status st = s.Write([&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(id, txn.CreateTable({0, name, description}));
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.error().message();
  return id;
}

void Put(Storage& s, int64_t table, const EncodedKey& key, const std::string& bytes) {
  Status st = s.Write([&](WriteTxn& txn) { return txn.PutItem(table, key, bytes, 10); });
  EXPECT_TRUE(st.ok()) << st.error().message();
}

// The stored item, "(none)" when absent.
std::string Get(Storage& s, int64_t table, const EncodedKey& key) {
  std::string out;
  Status st = s.Read([&](ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetItem(table, key));
    out = bytes ? *bytes : "(none)";
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.error().message();
  return out;
}

std::optional<TableRecord> GetTable(Storage& s, int64_t table) {
  std::optional<TableRecord> out;
  Status st = s.Read([&](ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(out, txn.GetTable(table));
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.error().message();
  return out;
}

std::string OpenError(const Options& options) {
  auto r = Storage::Open(options);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "(opened)";
  EXPECT_EQ(r.error().code(), ErrorCode::kInternalServerError);
  EXPECT_EQ(r.error().message().find('\n'), std::string::npos) << "not one line: " << r.error().message();
  return r.error().message();
}

// ---------------------------------------------------------------- opening

TEST(StorageTest, OpensInMemory) {
  auto s = OpenMemory();
  ASSERT_TRUE(s);
  auto tables = s->ListTables();
  ASSERT_TRUE(tables.ok());
  EXPECT_TRUE(tables->empty());
}

TEST(StorageTest, OpensInAFolderAndCreatesTheDatabaseFile) {
  TempDir dir;
  auto s = OpenDir(dir.path());
  ASSERT_TRUE(s);
  EXPECT_TRUE(fs::exists(dir.path() + "/pogi.db"));
}

TEST(StorageTest, CreatesAMissingFolder) {
  TempDir dir;
  std::string sub = dir.path() + "/data";
  auto s = OpenDir(sub);
  ASSERT_TRUE(s);
  EXPECT_TRUE(fs::is_directory(sub));
}

TEST(StorageTest, GarbageFileIsNotAPogiDatabase) {
  TempDir dir;
  {
    std::ofstream f(dir.path() + "/pogi.db", std::ios::binary);
    f << std::string(8192, 'x');
  }
  std::string m = OpenError(Options{.data_dir = dir.path()});
  EXPECT_NE(m.find(dir.path() + "/pogi.db is damaged or not a pogi database (file is not a database)"),
            std::string::npos)
      << m;
}

TEST(StorageTest, NewerFormatIsRefused) {
  TempDir dir;
  { ASSERT_TRUE(OpenDir(dir.path())); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir.path() + "/pogi.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value=99 WHERE key='format'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  std::string m = OpenError(Options{.data_dir = dir.path()});
  EXPECT_NE(m.find("database format 99 is not the format this pogi reads (7)"), std::string::npos) << m;
}

TEST(StorageTest, FolderThatCannotBeCreatedFails) {
  TempDir dir;
  std::string file = dir.path() + "/plain_file";
  std::ofstream(file) << "x";
  std::string bad = file + "/data";  // a folder inside a regular file
  std::string m = OpenError(Options{.data_dir = bad});
  EXPECT_NE(m.find("cannot create data folder " + bad), std::string::npos) << m;
}

TEST(StorageTest, DataDirThatIsAFileFails) {
  TempDir dir;
  std::string file = dir.path() + "/plain_file";
  std::ofstream(file) << "x";
  std::string m = OpenError(Options{.data_dir = file});
  EXPECT_NE(m.find(file), std::string::npos) << m;
}

TEST(StorageTest, UnwritableFolderFails) {
  if (geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
  TempDir dir;
  std::string ro = dir.path() + "/ro";
  ASSERT_EQ(mkdir(ro.c_str(), 0555), 0);
  std::string m = OpenError(Options{.data_dir = ro});
  EXPECT_NE(m.find("data folder " + ro + " is not writable"), std::string::npos) << m;
}

// ---------------------------------------------------------------- catalog and items

TEST_P(StorageBackendTest, CreateTableAndListTablesInNameOrder) {
  auto s = OpenFresh();
  int64_t b = CreateTable(*s, "beta", "B");
  int64_t a = CreateTable(*s, "alpha", "A");
  EXPECT_NE(a, b);
  auto tables = s->ListTables();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 2u);
  EXPECT_EQ((*tables)[0].name, "alpha");
  EXPECT_EQ((*tables)[0].id, a);
  EXPECT_EQ((*tables)[0].description, "A");
  EXPECT_EQ((*tables)[1].name, "beta");
  EXPECT_EQ((*tables)[1].item_count, 0);
  EXPECT_EQ((*tables)[1].size_bytes, 0);
}

TEST_P(StorageBackendTest, DuplicateTableNameFails) {
  auto s = OpenFresh();
  CreateTable(*s, "t");
  Status st = s->Write([&](WriteTxn& txn) -> Status {
    return txn.CreateTable({0, "t", "d"}).ok() ? Status::Ok() : Error::Internal("dup");
  });
  EXPECT_FALSE(st.ok());
}

TEST_P(StorageBackendTest, UpdateTableDescription) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t", "v1");
  ASSERT_TRUE(s->Write([&](WriteTxn& txn) { return txn.UpdateTableDescription(t, "v2"); }).ok());
  EXPECT_EQ(GetTable(*s, t)->description, "v2");
}

TEST_P(StorageBackendTest, PutGetDeleteItems) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  EncodedKey k1{"p1", ""}, k2{"p1", "s2"}, k3{"p2", "s2"};
  EXPECT_EQ(Get(*s, t, k1), "(none)");
  Put(*s, t, k1, "one");
  Put(*s, t, k2, "two");
  Put(*s, t, k3, std::string("th\0ree", 6));  // binary-safe
  EXPECT_EQ(Get(*s, t, k1), "one");
  EXPECT_EQ(Get(*s, t, k2), "two");
  EXPECT_EQ(Get(*s, t, k3), std::string("th\0ree", 6));

  Put(*s, t, k1, "uno");  // replaces
  EXPECT_EQ(Get(*s, t, k1), "uno");

  ASSERT_TRUE(s->Write([&](WriteTxn& txn) { return txn.DeleteItem(t, k2); }).ok());
  EXPECT_EQ(Get(*s, t, k2), "(none)");
  EXPECT_EQ(Get(*s, t, k1), "uno");
  // Deleting what is not there is not an error.
  EXPECT_TRUE(s->Write([&](WriteTxn& txn) { return txn.DeleteItem(t, k2); }).ok());
}

TEST_P(StorageBackendTest, KeysWithEmbeddedZeroBytesAreDistinct) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  EncodedKey a{std::string("a\0b", 3), ""}, b{std::string("a\0c", 3), ""}, c{"a", ""};
  Put(*s, t, a, "A");
  Put(*s, t, b, "B");
  EXPECT_EQ(Get(*s, t, a), "A");
  EXPECT_EQ(Get(*s, t, b), "B");
  EXPECT_EQ(Get(*s, t, c), "(none)");
}

TEST_P(StorageBackendTest, ItemsAreScopedToTheirTable) {
  auto s = OpenFresh();
  int64_t t1 = CreateTable(*s, "t1"), t2 = CreateTable(*s, "t2");
  Put(*s, t1, {"k", ""}, "in t1");
  EXPECT_EQ(Get(*s, t2, {"k", ""}), "(none)");
}

TEST_P(StorageBackendTest, Counters) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  ASSERT_TRUE(s->Write([&](WriteTxn& txn) { return txn.AdjustCounters(t, 3, 300); }).ok());
  ASSERT_TRUE(s->Write([&](WriteTxn& txn) { return txn.AdjustCounters(t, -1, -50); }).ok());
  auto rec = GetTable(*s, t);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->item_count, 2);
  EXPECT_EQ(rec->size_bytes, 250);
  EXPECT_EQ(rec->name, "t");
  auto list = s->ListTables();
  ASSERT_TRUE(list.ok());
  EXPECT_EQ((*list)[0].item_count, 2);
  EXPECT_EQ((*list)[0].size_bytes, 250);
  EXPECT_FALSE(GetTable(*s, t + 1000));
}

TEST_P(StorageBackendTest, DropTableRemovesItsItemsAndRow) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t"), other = CreateTable(*s, "other");
  Put(*s, t, {"a", ""}, "1");
  Put(*s, t, {"b", "x"}, "2");
  Put(*s, other, {"a", ""}, "kept");
  ASSERT_TRUE(s->Write([&](WriteTxn& txn) { return txn.DropTable(t); }).ok());
  EXPECT_FALSE(GetTable(*s, t));
  EXPECT_EQ(Get(*s, t, {"a", ""}), "(none)");
  EXPECT_EQ(Get(*s, t, {"b", "x"}), "(none)");
  EXPECT_EQ(Get(*s, other, {"a", ""}), "kept");
  auto list = s->ListTables();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].name, "other");

  // A table created again under the same name starts empty, even if its id is reused.
  int64_t again = CreateTable(*s, "t");
  EXPECT_EQ(Get(*s, again, {"a", ""}), "(none)");
  EXPECT_EQ(GetTable(*s, again)->item_count, 0);
}

TEST_P(StorageBackendTest, WriteRollsBackWhenFnFails) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  Put(*s, t, {"keep", ""}, "old");
  Status st = s->Write([&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"new", ""}, "x", 10));
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"keep", ""}, "overwritten", 10));
    POGI_RETURN_IF_ERROR(txn.AdjustCounters(t, 1, 10));
    POGI_RETURN_IF_ERROR(txn.CreateTable({0, "phantom", "d"}).ok() ? Status::Ok() : Error::Internal("x"));
    return Error::ConditionalCheckFailed();
  });
  // The fn's own error comes back unchanged.
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code(), ErrorCode::kConditionalCheckFailed);
  EXPECT_EQ(st.error().message(), "The conditional request failed");
  EXPECT_EQ(Get(*s, t, {"new", ""}), "(none)");
  EXPECT_EQ(Get(*s, t, {"keep", ""}), "old");
  EXPECT_EQ(GetTable(*s, t)->item_count, 0);
  EXPECT_EQ(s->ListTables()->size(), 1u);
  // The storage is usable afterwards.
  Put(*s, t, {"new", ""}, "y");
  EXPECT_EQ(Get(*s, t, {"new", ""}), "y");
}

TEST(StorageTest, WriteRollsBackOnDiskToo) {
  TempDir dir;
  auto s = OpenDir(dir.path());
  int64_t t = CreateTable(*s, "t");
  Status st = s->Write([&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"k", ""}, "x", 10));
    return Error::Validation("no");
  });
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(Get(*s, t, {"k", ""}), "(none)");
}

TEST_P(StorageBackendTest, WriteSeesItsOwnWrites) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  Status st = s->Write([&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {"k", ""}, "v", 10));
    POGI_RETURN_IF_ERROR(txn.AdjustCounters(t, 1, 1));
    POGI_ASSIGN_OR_RETURN(auto got, txn.GetItem(t, {"k", ""}));
    EXPECT_EQ(got.value_or("(none)"), "v");
    POGI_ASSIGN_OR_RETURN(auto rec, txn.GetTable(t));
    EXPECT_EQ(rec->item_count, 1);
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok());
}

TEST(StorageTest, DataPersistsAcrossReopen) {
  TempDir dir;
  int64_t t;
  {
    auto s = OpenDir(dir.path());
    t = CreateTable(*s, "t", "description bytes");
    Put(*s, t, {"pk", "sk"}, "value");
    ASSERT_TRUE(s->Write([&](WriteTxn& txn) { return txn.AdjustCounters(t, 1, 5); }).ok());
  }
  auto s = OpenDir(dir.path());
  auto list = s->ListTables();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].id, t);
  EXPECT_EQ((*list)[0].description, "description bytes");
  EXPECT_EQ((*list)[0].item_count, 1);
  EXPECT_EQ((*list)[0].size_bytes, 5);
  EXPECT_EQ(Get(*s, t, {"pk", "sk"}), "value");
}

TEST(StorageTest, DataPersistsWithFsyncEachCommit) {
  TempDir dir;
  {
    auto s = OpenOrDie(Options{.data_dir = dir.path(), .fsync_each_commit = true});
    Put(*s, CreateTable(*s, "t"), {"k", ""}, "v");
  }
  auto s = OpenDir(dir.path());
  EXPECT_EQ(Get(*s, (*s->ListTables())[0].id, {"k", ""}), "v");
}

TEST_P(StorageBackendTest, FreshStoragesAreIndependent) {
  auto a = OpenFresh(), b = OpenFresh();
  CreateTable(*a, "t");
  EXPECT_TRUE(b->ListTables()->empty());
}

// ---------------------------------------------------------------- concurrency

// Every write sets both keys to the same value in one transaction; reads
// running meanwhile must never see one key updated without the other.
TEST_P(StorageBackendTest, ReadsBesideWritesSeeWholeTransactions) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  Put(*s, t, {"a", ""}, "0");
  Put(*s, t, {"b", ""}, "0");

  std::atomic<bool> stop{false};
  std::atomic<int> reads{0}, torn{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!stop) {
        Status st = s->Read([&](ReadTxn& txn) -> Status {
          POGI_ASSIGN_OR_RETURN(auto a, txn.GetItem(t, {"a", ""}));
          std::this_thread::yield();  // give a writer the chance to get in between
          POGI_ASSIGN_OR_RETURN(auto b, txn.GetItem(t, {"b", ""}));
          if (a != b) ++torn;
          return Status::Ok();
        });
        EXPECT_TRUE(st.ok());
        ++reads;
      }
    });
  }
  for (int i = 1; i <= 300; ++i) {
    Status st = s->Write([&](WriteTxn& txn) -> Status {
      POGI_RETURN_IF_ERROR(txn.PutItem(t, {"a", ""}, std::to_string(i), 10));
      std::this_thread::yield();
      return txn.PutItem(t, {"b", ""}, std::to_string(i), 10);
    });
    ASSERT_TRUE(st.ok()) << st.error().message();
  }
  stop = true;
  for (auto& r : readers) r.join();
  EXPECT_EQ(torn, 0);
  EXPECT_GT(reads, 0);
  EXPECT_EQ(Get(*s, t, {"a", ""}), "300");
}

// pogi holds its database exclusively: a second opener fails at once with a
// message that says why, and the first keeps working.
TEST(StorageTest, ASecondOpenOfTheSameFolderFailsAtOnce) {
  TempDir dir;
  auto first = OpenDir(dir.path());
  int64_t t = CreateTable(*first, "t");
  auto second = Storage::Open(Options{.data_dir = dir.path()});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message().find("in use by another process"), std::string::npos)
      << second.error().message();
  Put(*first, t, {"k", ""}, "v");
  EXPECT_EQ(Get(*first, t, {"k", ""}), "v");
}

// Counters live in memory while storage is open: a clean close writes them
// to the catalog, and after a crash (no close) they are counted again from
// the items' stored sizes.
Status PutCounted(Storage& s, int64_t t, const std::string& key, int64_t size) {
  return s.Write([&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutItem(t, {key, ""}, "v", size));
    return txn.AdjustCounters(t, 1, size);
  });
}

TEST(StorageTest, CountersSurviveACleanClose) {
  TempDir dir;
  int64_t t;
  {
    auto s = OpenDir(dir.path());
    t = CreateTable(*s, "t");
    ASSERT_TRUE(PutCounted(*s, t, "a", 7).ok());
    ASSERT_TRUE(PutCounted(*s, t, "b", 5).ok());
  }
  auto s = OpenDir(dir.path());
  EXPECT_EQ(GetTable(*s, t)->item_count, 2);
  EXPECT_EQ(GetTable(*s, t)->size_bytes, 12);
}

TEST(StorageTest, CountersAreCountedAgainAfterACrash) {
  TempDir dir;
  // A child process writes and dies without closing storage, so the
  // catalog's counters are stale (zero) and marked so. (A process, not a
  // leaked object: the dead one's exclusive lock must go with it.)
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto crashed = OpenDir(dir.path());
    int64_t t = CreateTable(*crashed, "t");
    bool ok = PutCounted(*crashed, t, "a", 7).ok() && PutCounted(*crashed, t, "b", 5).ok() &&
              PutCounted(*crashed, t, "c", 1).ok();
    _exit(ok && t == 1 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto s = OpenDir(dir.path());
  int64_t t = 1;
  EXPECT_EQ(GetTable(*s, t)->item_count, 3);
  EXPECT_EQ(GetTable(*s, t)->size_bytes, 13);
}

TEST_P(StorageBackendTest, ConcurrentWritersKeepCountersExact) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i) ASSERT_TRUE(PutCounted(*s, t, std::to_string(w * 100 + i), 2).ok());
    });
  }
  for (auto& th : writers) th.join();
  EXPECT_EQ(GetTable(*s, t)->item_count, 200);
  EXPECT_EQ(GetTable(*s, t)->size_bytes, 400);
}

TEST_P(StorageBackendTest, ConcurrentWritersAreSerialized) {
  auto s = OpenFresh();
  int64_t t = CreateTable(*s, "t");
  constexpr int kThreads = 4, kEach = 100;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < kEach; ++j) {
        // Read-modify-write of one counter item: lost updates would show.
        Status st = s->Write([&](WriteTxn& txn) -> Status {
          POGI_ASSIGN_OR_RETURN(auto cur, txn.GetItem(t, {"counter", ""}));
          int n = cur ? std::stoi(*cur) : 0;
          return txn.PutItem(t, {"counter", ""}, std::to_string(n + 1), 10);
        });
        EXPECT_TRUE(st.ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(Get(*s, t, {"counter", ""}), std::to_string(kThreads * kEach));
}

}  // namespace
}  // namespace pogi::storage
