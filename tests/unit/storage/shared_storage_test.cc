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

// Adds one to the number stored as item "counter" of table `t` (absent: 0).
Status AddOne(WriteTxn& txn, int64_t t) {
  POGI_ASSIGN_OR_RETURN(auto cur, txn.GetItem(t, {"counter", ""}));
  int n = cur ? std::stoi(*cur) : 0;
  POGI_RETURN_IF_ERROR(txn.AdjustCounters(t, cur ? 0 : 1, 1));
  return txn.PutItem(t, {"counter", ""}, std::to_string(n + 1), 1);
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
        Status st = s->Write([&](WriteTxn& txn) { return AddOne(txn, t); });
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

// Keyed writes (WriteItems: PostgreSQL's READ COMMITTED, the item locked)
// of one item from 4 threads on each of two storages, the item absent at
// first (so the first inserts race too): every write succeeds, none lost.
TEST_P(SharedStorageTest, KeyedWritesOfOneItemThroughBothAllSucceedAndLoseNothing) {
  if (!IsPostgres()) GTEST_SKIP() << "one process per SQLite file";
  OpenTwo();
  int64_t t = NewTable(*a_, "t");
  constexpr int kThreads = 4, kEach = 40;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (Storage* s : {a_.get(), b_.get()}) {
    for (int w = 0; w < kThreads; w++) {
      threads.emplace_back([&, s] {
        for (int i = 0; i < kEach; i++) {
          Status st = s->WriteItems([&](WriteTxn& txn) { return AddOne(txn, t); });
          if (!st.ok()) {
            ADD_FAILURE() << st.error().message();
            failures++;
          }
        }
      });
    }
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  std::optional<std::string> got;
  ASSERT_TRUE(a_->Read([&](ReadTxn& txn) -> Status {
                  POGI_ASSIGN_OR_RETURN(got, txn.GetItem(t, {"counter", ""}));
                  return Status::Ok();
                }).ok());
  EXPECT_EQ(got.value_or("0"), std::to_string(2 * kThreads * kEach));
  auto tables = b_->ListTables();
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ((*tables)[0].item_count, 1);
}

// A transaction begun under a CatalogCheck fails with kCatalogMoved once
// the other storage changed the catalog, until the change is followed; it
// confirms the catalog when it passes. Without a check nothing fails.
TEST_P(SharedStorageTest, ACheckedTransactionFailsWhileTheCatalogMovedUnfollowed) {
  if (!IsPostgres()) GTEST_SKIP() << "one process per SQLite file";
  OpenTwo();
  int64_t t = NewTable(*a_, "t");
  auto follow = [&](Storage& s) {
    auto n = s.ForeignCatalogChanges();
    ASSERT_TRUE(n.ok());
    s.CatalogFollowed(*n);
  };
  follow(*b_);
  auto read = [&](Storage& s) {
    return s.Read([&](ReadTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(auto item, txn.GetItem(t, {"k", ""}));
      (void)item;
      return Status::Ok();
    });
  };
  {
    CatalogCheck check;
    ASSERT_TRUE(read(*b_).ok());
    EXPECT_TRUE(check.confirmed());
  }
  MustWrite(*a_, [&](WriteTxn& txn) { return txn.UpdateTableDescription(t, "v2"); });
  int64_t noticed = b_->NoticedCatalogChanges();
  {
    CatalogCheck check;
    Status st = read(*b_);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code(), ErrorCode::kCatalogMoved);
    EXPECT_FALSE(check.confirmed());
    EXPECT_GT(b_->NoticedCatalogChanges(), noticed);
  }
  EXPECT_TRUE(read(*b_).ok()) << "no check, no failure";
  follow(*b_);
  {
    CatalogCheck check;
    EXPECT_TRUE(read(*b_).ok());
    EXPECT_TRUE(check.confirmed());
  }
}

// Each stream's numbers increase by themselves: records of another stream
// in between take none of them (PostgreSQL: a counter row per stream).
TEST_P(SharedStorageTest, StreamSequenceNumbersIncreasePerStream) {
  OpenTwo();
  int64_t s1 = 0, s2 = 0;
  MustWrite(*a_, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(s1, txn.CreateStream("one"));
    POGI_ASSIGN_OR_RETURN(s2, txn.CreateStream("two"));
    return Status::Ok();
  });
  std::vector<int64_t> first, second;
  for (int i = 0; i < 3; i++) {
    MustWrite(*a_, [&](WriteTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(int64_t a, txn.AppendStreamRecord(s1, 1.0, "a"));
      POGI_ASSIGN_OR_RETURN(int64_t b, txn.AppendStreamRecord(s2, 1.0, "b"));
      first.push_back(a);
      second.push_back(b);
      return Status::Ok();
    });
  }
  for (int i = 1; i < 3; i++) {
    EXPECT_GT(first[i], first[i - 1]);
    EXPECT_GT(second[i], second[i - 1]);
  }
  int64_t end = 0, last = 0;
  MustWrite(*a_, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(end, txn.IssueStreamSequence(s1));
    last = txn.LastStreamSequence(s1);
    return Status::Ok();
  });
  EXPECT_GT(end, first.back());
  EXPECT_EQ(last, end);
  if (IsPostgres()) {
    EXPECT_EQ(first[1], first[0] + 1) << "no number of stream one went to stream two";
  }
}

}  // namespace
}  // namespace pogi::storage
