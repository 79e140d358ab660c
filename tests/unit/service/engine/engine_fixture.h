// What the engine's table and item tests share: an engine over in-memory
// storage, CreateTable requests to build on, the error of a failed call,
// and a fixture whose calls take an item as name/value pairs.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "service/engine/engine.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {

using V = v1::AttributeValue;

inline constexpr char kOne[] = "1 validation error detected: ";

using test::Decode;
using test::N;
using test::S;

inline std::unique_ptr<Engine> OpenEngine() {
  storage::Options options;
  options.in_memory = true;
  auto r = Engine::Open(options, std::make_shared<SystemClock>());
  EXPECT_TRUE(r.ok()) << r.error().message();
  return r.ok() ? std::move(r).value() : nullptr;
}

// A valid provisioned CreateTable request; `range` adds a numeric sort key.
inline v1::CreateTableRequest TableRequest(const std::string& name, bool range = false) {
  v1::CreateTableRequest req;
  req.set_table_name(name);
  auto* pk = req.add_attribute_definitions();
  pk->set_attribute_name("pk");
  pk->set_attribute_type("S");
  auto* hk = req.add_key_schema();
  hk->set_attribute_name("pk");
  hk->set_key_type("HASH");
  if (range) {
    auto* sk = req.add_attribute_definitions();
    sk->set_attribute_name("sk");
    sk->set_attribute_type("N");
    auto* rk = req.add_key_schema();
    rk->set_attribute_name("sk");
    rk->set_key_type("RANGE");
  }
  req.mutable_provisioned_throughput()->set_read_capacity_units(5);
  req.mutable_provisioned_throughput()->set_write_capacity_units(5);
  return req;
}

inline void AddKey(v1::CreateTableRequest* req, const std::string& name, const std::string& type) {
  auto* k = req->add_key_schema();
  k->set_attribute_name(name);
  k->set_key_type(type);
}
inline void AddDef(v1::CreateTableRequest* req, const std::string& name, const std::string& type) {
  auto* a = req->add_attribute_definitions();
  a->set_attribute_name(name);
  a->set_attribute_type(type);
}

// The error of a failed call; fails the test if it succeeded.
template <typename R>
Error ErrorOf(const Result<R>& r) {
  EXPECT_FALSE(r.ok()) << "succeeded";
  return r.ok() ? Error::Internal("(succeeded)") : r.error();
}

// The ValidationException message of CreateTable(req), or "(ok)".
inline std::string CreateError(Engine& e, const v1::CreateTableRequest& req) {
  auto r = e.CreateTable(req);
  if (r.ok()) return "(ok)";
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation) << r.error().message();
  return r.error().message();
}

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = OpenEngine();
    ASSERT_TRUE(engine_);
  }

  void Create(const std::string& name, bool range = false) {
    auto r = engine_->CreateTable(TableRequest(name, range));
    ASSERT_TRUE(r.ok()) << r.error().message();
  }

  Result<v1::PutItemResponse> Put(const std::string& table, std::vector<std::pair<std::string, V>> item,
                                  const std::string& return_values = "", const std::string& capacity = "") {
    v1::PutItemRequest req;
    req.set_table_name(table);
    for (auto& [k, v] : item) (*req.mutable_item()->mutable_attributes())[k] = v;
    if (!return_values.empty()) req.set_return_values(return_values);
    if (!capacity.empty()) req.set_return_consumed_capacity(capacity);
    return Decode(engine_->PutItem(req));
  }

  Result<v1::GetItemResponse> Get(const std::string& table, std::vector<std::pair<std::string, V>> key,
                                  const std::string& capacity = "", bool consistent = false) {
    v1::GetItemRequest req;
    req.set_table_name(table);
    for (auto& [k, v] : key) (*req.mutable_key()->mutable_attributes())[k] = v;
    if (!capacity.empty()) req.set_return_consumed_capacity(capacity);
    if (consistent) req.set_consistent_read(true);
    return Decode(engine_->GetItem(req));
  }

  Result<v1::DeleteItemResponse> Delete(const std::string& table, std::vector<std::pair<std::string, V>> key,
                                        const std::string& return_values = "",
                                        const std::string& capacity = "") {
    v1::DeleteItemRequest req;
    req.set_table_name(table);
    for (auto& [k, v] : key) (*req.mutable_key()->mutable_attributes())[k] = v;
    if (!return_values.empty()) req.set_return_values(return_values);
    if (!capacity.empty()) req.set_return_consumed_capacity(capacity);
    return Decode(engine_->DeleteItem(req));
  }

  v1::TableDescription Describe(const std::string& name) {
    v1::DescribeTableRequest req;
    req.set_table_name(name);
    auto r = engine_->DescribeTable(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->table() : v1::TableDescription();
  }

  std::vector<std::string> List(std::optional<int64_t> limit = std::nullopt, const std::string& start = "",
                                std::string* last = nullptr) {
    v1::ListTablesRequest req;
    if (limit) req.set_limit(*limit);
    if (!start.empty()) req.set_exclusive_start_table_name(start);
    auto r = engine_->ListTables(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    if (!r.ok()) return {};
    if (last) *last = r->has_last_evaluated_table_name() ? r->last_evaluated_table_name() : "(none)";
    return {r->table_names().begin(), r->table_names().end()};
  }

  std::unique_ptr<Engine> engine_;
};
}  // namespace pogi::service
