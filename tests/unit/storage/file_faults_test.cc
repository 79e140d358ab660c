// Database files that are cut short or damaged are refused at open with one
// line, and a refused open leaves the file as it was.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "storage/storage.h"

namespace pogi::storage {
namespace {

namespace fs = std::filesystem;

class FileFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "pogi_file_faults_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string db() const { return dir_ + "/pogi.db"; }

  // A database of `items` items of `size` bytes, closed cleanly (no WAL left).
  void Fill(int items, int size = 1000) {
    auto s = Storage::Open(Options{.data_dir = dir_});
    ASSERT_TRUE(s.ok()) << s.error().message();
    int64_t table = 0;
    Status st = (*s)->Write([&](WriteTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(table, txn.CreateTable({0, "t", "d"}));
      for (int i = 0; i < items; ++i) {
        std::string key = "k" + std::to_string(i);
        POGI_RETURN_IF_ERROR(txn.PutItem(table, {key, ""}, std::string(size, 'v'), size));
        POGI_RETURN_IF_ERROR(txn.AdjustCounters(table, 1, size));
      }
      return Status::Ok();
    });
    ASSERT_TRUE(st.ok()) << st.error().message();
  }

  std::string OpenError() {
    auto r = Storage::Open(Options{.data_dir = dir_});
    EXPECT_FALSE(r.ok());
    if (r.ok()) return "(opened)";
    EXPECT_EQ(r.error().code(), ErrorCode::kInternalServerError);
    EXPECT_EQ(r.error().message().find('\n'), std::string::npos) << r.error().message();
    return r.error().message();
  }

  std::string dir_;
};

TEST_F(FileFaultsTest, ACleanCloseLeavesNoLog) {
  Fill(10);
  EXPECT_FALSE(fs::exists(db() + "-wal"));
  EXPECT_TRUE(Storage::Open(Options{.data_dir = dir_}).ok());
}

TEST_F(FileFaultsTest, ATruncatedDatabaseIsRefused) {
  Fill(200);
  auto size = fs::file_size(db());
  ASSERT_GT(size, 100000u);
  fs::resize_file(db(), size / 2);
  std::string m = OpenError();
  EXPECT_NE(m.find(db() + " is damaged: it is " + std::to_string(size / 2) + " bytes long, its header says " +
                   std::to_string(size)),
            std::string::npos)
      << m;
  // Refused without touching it.
  EXPECT_EQ(fs::file_size(db()), size / 2);
}

TEST_F(FileFaultsTest, AFileShorterThanAHeaderIsRefused) {
  std::ofstream(db(), std::ios::binary) << "SQLite format 3";
  std::string m = OpenError();
  EXPECT_NE(m.find(db() + " is damaged or not a pogi database: 15 bytes, shorter than a database header"),
            std::string::npos)
      << m;
}

TEST_F(FileFaultsTest, GarbageAfterAValidHeaderIsRefused) {
  Fill(50);
  // Keep the first page (the header and the schema), damage the rest.
  {
    std::fstream f(db(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096);
    f << std::string(fs::file_size(db()) - 4096, '\x5a');
  }
  // Not noticed by the length check; the counters are trusted after a clean
  // close, so the first read of the damaged pages fails, as an internal error
  // naming the cause.
  auto s = Storage::Open(Options{.data_dir = dir_});
  if (!s.ok()) {
    EXPECT_NE(s.error().message().find("damaged"), std::string::npos) << s.error().message();
    return;
  }
  auto tables = (*s)->ListTables();
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  RangeRead all;
  all.id = (*tables)[0].id;
  Status st = (*s)->Read([&](ReadTxn& txn) { return txn.ReadRange(all, [](const Row&) { return true; }); });
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code(), ErrorCode::kInternalServerError);
  EXPECT_NE(st.error().message().find("Internal server error: the database file is damaged"),
            std::string::npos)
      << st.error().message();
}

// A refused start must not run the close-time work, which writes the counts
// loaded so far and marks them exact ('clean'): a later start would trust
// wrong ItemCounts. (Here SQLite's own refusal to commit on a damaged file
// may also keep 'clean' at 0; the guard is SqliteStorage's counters_loaded_.)
TEST_F(FileFaultsTest, ARecountThatFailsLeavesTheCountsUntrusted) {
  Fill(3000, 100);  // small items: no overflow pages, which a count does not read
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db().c_str(), &raw), SQLITE_OK);
  // As after a crash: the counts must be counted again from the items.
  ASSERT_EQ(sqlite3_exec(raw, "UPDATE meta SET value=0 WHERE key='clean'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  ASSERT_FALSE(fs::exists(db() + "-wal"));
  // The last page is one of the items' (allocated after the schema's):
  // damage it, so that the recount fails.
  auto size = fs::file_size(db());
  {
    std::fstream f(db(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 4096));
    f << std::string(4096, '\x5a');
  }
  std::string m = OpenError();
  EXPECT_NE(m.find("damaged"), std::string::npos) << m;
  ASSERT_EQ(sqlite3_open(db().c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "SELECT value FROM meta WHERE key='clean'", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 0);
  sqlite3_finalize(st);
  sqlite3_close(raw);
}

}  // namespace
}  // namespace pogi::storage
