// Tests of what two storages on one database see of each other (two pogi
// processes sharing a PostgreSQL schema): catalog changes made through the
// other, leases, and read-modify-writes racing through both. On SQLite one
// process holds the file: no foreign changes, every lease held.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "storage/storage.h"
#include "tests/unit/storage/backend_fixture.h"

namespace pogi::storage {
namespace {

class SharedStorageTest : public BackendTest {
 protected:
  // Two storages on this test's schema (PostgreSQL only).
  void OpenTwo() {
    for (auto* s : {&a_, &b_}) {
      auto r = Storage::Open(BackendOptions("shared"));
      ASSERT_TRUE(r.ok()) << r.error().message();
      *s = std::move(r).value();
    }
  }
  std::unique_ptr<Storage> a_, b_;
};
POGI_ON_EVERY_BACKEND(SharedStorageTest);

int64_t Foreign(Storage& s) {
  auto n = s.ForeignCatalogChanges();
  EXPECT_TRUE(n.ok()) << n.error().message();
  return n.ok() ? *n : -1;
}

TEST_P(SharedStorageTest, OneProcessSeesNoForeignChangesAndHoldsEveryLease) {
  if (IsPostgres()) GTEST_SKIP() << "SQLite's case";
  auto s = OpenFresh();
  NewTable(*s, "t");
  EXPECT_EQ(Foreign(*s), 0);
  EXPECT_TRUE(*s->HoldLease("maintenance", 3));
}

TEST_P(SharedStorageTest, CatalogChangesOfTheOtherAreNoticedNotOwnOnes) {
  if (!IsPostgres()) GTEST_SKIP() << "one process per SQLite file";
  OpenTwo();
  int64_t a0 = Foreign(*a_), b0 = Foreign(*b_);
  int64_t t = NewTable(*a_, "t");
  EXPECT_EQ(Foreign(*a_), a0) << "its own change";
  EXPECT_EQ(Foreign(*b_), b0 + 1);
  EXPECT_EQ(Foreign(*b_), b0 + 1) << "counted once";
  MustWrite(*b_, [&](WriteTxn& txn) { return txn.UpdateTableDescription(t, "v2"); });
  EXPECT_EQ(Foreign(*a_), a0 + 1);
  // Item writes are not catalog changes.
  MustWrite(*b_, [&](WriteTxn& txn) { return txn.PutItem(t, {"k", ""}, "v", 1); });
  EXPECT_EQ(Foreign(*a_), a0 + 1);
  // A shared value is not one either, unless its writer says so (the clock).
  MustWrite(*b_, [&](WriteTxn& txn) { return txn.PutSharedValue("token/x", "v", 0); });
  EXPECT_EQ(Foreign(*a_), a0 + 1);
  MustWrite(*b_, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutSharedValue("clock", "v", 0));
    return txn.NoteCatalogChange();
  });
  EXPECT_EQ(Foreign(*a_), a0 + 2);
  // A table name taken through the other: DynamoDB's ResourceInUse.
  Status dup = a_->Write([&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(int64_t id, txn.CreateTable({0, "t", "d"}));
    (void)id;
    return Status::Ok();
  });
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code(), ErrorCode::kResourceInUse);
}

TEST_P(SharedStorageTest, ALeaseHasOneHolderUntilReleasedOrLapsed) {
  if (!IsPostgres()) GTEST_SKIP() << "one process per SQLite file";
  OpenTwo();
  EXPECT_TRUE(*a_->HoldLease("work", 60));
  EXPECT_FALSE(*b_->HoldLease("work", 60));
  EXPECT_TRUE(*a_->HoldLease("work", 60)) << "renewed by its holder";
  EXPECT_TRUE(*b_->HoldLease("other", 60)) << "leases are by name";
  a_.reset();  // a clean close gives it back
  EXPECT_TRUE(*b_->HoldLease("work", 60));
  auto c = Storage::Open(BackendOptions("shared"));
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(*(*c)->HoldLease("work", 0.2));
  // A holder that stops renewing (a crashed process) lets it lapse.
  EXPECT_TRUE(*b_->HoldLease("work", 0.2));
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_TRUE(*(*c)->HoldLease("work", 60));
}

// Read-modify-writes of one item through both storages at once: the
// database refuses one of two that overlap, and Write runs it again, so no
// increment is lost and none fails.
TEST_P(SharedStorageTest, RacingReadModifyWritesThroughBothLoseNothing) {
  if (!IsPostgres()) GTEST_SKIP() << "one process per SQLite file";
  OpenTwo();
  int64_t t = NewTable(*a_, "t");
  constexpr int kEach = 150;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (Storage* s : {a_.get(), b_.get()}) {
    threads.emplace_back([&, s] {
      for (int i = 0; i < kEach; i++) {
        Status st = s->Write([&](WriteTxn& txn) -> Status {
          POGI_ASSIGN_OR_RETURN(auto cur, txn.GetItem(t, {"counter", ""}));
          int n = cur ? std::stoi(*cur) : 0;
          POGI_RETURN_IF_ERROR(txn.AdjustCounters(t, cur ? 0 : 1, 1));
          return txn.PutItem(t, {"counter", ""}, std::to_string(n + 1), 1);
        });
        if (!st.ok()) {
          EXPECT_EQ(st.error().code(), ErrorCode::kTransactionConflict) << st.error().message();
          failures++;
          i--;  // not applied: again, as a client would
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::optional<std::string> got;
  ASSERT_TRUE(a_->Read([&](ReadTxn& txn) -> Status {
                  POGI_ASSIGN_OR_RETURN(got, txn.GetItem(t, {"counter", ""}));
                  return Status::Ok();
                }).ok());
  EXPECT_EQ(got.value_or("0"), std::to_string(2 * kEach));
  auto tables = b_->ListTables();
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ((*tables)[0].item_count, 1);
  std::printf("  %d writes gave up after every retry met a conflict\n", failures.load());
}

}  // namespace
}  // namespace pogi::storage
