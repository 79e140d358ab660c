// The storage tests that hold for every backend run once per backend
// through these fixtures: SQLite (in memory) always, PostgreSQL when
// POGI_TEST_PG names a server (tests/pg_server.py starts one; the CTest
// test unit_pg.storage runs them so), each test in a fresh schema.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "storage/storage.h"

namespace pogi::storage {

class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (IsPostgres() && !std::getenv("POGI_TEST_PG")) {
      GTEST_SKIP() << "POGI_TEST_PG is not set (tests/pg_server.py run -- ... sets it)";
    }
    static std::atomic<int> next{0};
    schema_ = "unit_" + std::to_string(getpid()) + "_" + std::to_string(next++);
  }

  bool IsPostgres() const { return GetParam() == "postgresql"; }

  // The options of this test's storage: SQLite in memory, or this test's
  // own schema (the same each call: open it again to see the same data).
  Options BackendOptions(const std::string& schema_suffix = "") const {
    Options o;
    if (IsPostgres()) {
      o.postgres = std::getenv("POGI_TEST_PG");
      o.pg_schema = schema_ + schema_suffix;
    } else {
      o.in_memory = true;
    }
    return o;
  }

  // A new, empty storage; a second call gives another one, independent of
  // the first.
  std::unique_ptr<Storage> OpenFresh() {
    auto r = Storage::Open(BackendOptions(std::to_string(opened_++)));
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? std::move(r).value() : nullptr;
  }

 private:
  std::string schema_;
  int opened_ = 0;
};

// Runs `fn` as one write, failing the test when it fails.
inline void MustWrite(Storage& s, const std::function<Status(WriteTxn&)>& fn) {
  Status st = s.Write(fn);
  ASSERT_TRUE(st.ok()) << st.error().message();
}

// A new table's id.
inline int64_t NewTable(Storage& s, const std::string& name) {
  int64_t id = 0;
  MustWrite(s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(id, txn.CreateTable({0, name, "desc"}));
    return Status::Ok();
  });
  return id;
}

inline std::string BackendName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

#define POGI_ON_EVERY_BACKEND(fixture) \
  INSTANTIATE_TEST_SUITE_P(Backends, fixture, ::testing::Values("sqlite", "postgresql"), BackendName)

}  // namespace pogi::storage
