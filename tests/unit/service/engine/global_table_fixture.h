// What the engine's global table tests share: an engine on an in-memory
// store with a frozen clock and no replication lag, one on-demand table
// "orders" (key pk) in the home region, requests naming it, and a write and
// a strongly consistent read of an item's `v`. TearDown drops the table in
// the region of the test's replica too: tables of other regions are counted
// process-wide (core/region.h).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "service/core/region.h"
#include "service/engine/engine.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {

class GlobalTableFixture : public ::testing::Test {
 protected:
  explicit GlobalTableFixture(std::string replica_region) : replica_region_(std::move(replica_region)) {}

  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    engine_->replication().set_lag_ms(0);
    v1::CreateTableRequest req;
    req.set_table_name("orders");
    auto* a = req.add_attribute_definitions();
    a->set_attribute_name("pk");
    a->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    req.set_billing_mode("PAY_PER_REQUEST");
    ASSERT_TRUE(engine_->CreateTable(req).ok());
  }

  void TearDown() override {
    RequestRegionScope replica(replica_region_);
    (void)engine_->DeleteTable(Named<v1::DeleteTableRequest>());
  }

  template <typename R>
  static R Named() {
    R req;
    req.set_table_name("orders");
    return req;
  }

  // Puts {pk, v} in the region of the request in scope.
  Status Put(const std::string& pk, const std::string& v) {
    auto req = Named<v1::PutItemRequest>();
    (*req.mutable_item()->mutable_attributes())["pk"] = test::S(pk);
    (*req.mutable_item()->mutable_attributes())["v"] = test::S(v);
    auto r = engine_->PutItem(req);
    if (!r.ok()) return std::move(r).error();
    return Status::Ok();
  }

  // The item's `v` read strongly consistent, or "(none)".
  std::string Get(const std::string& pk) {
    auto req = Named<v1::GetItemRequest>();
    (*req.mutable_key()->mutable_attributes())["pk"] = test::S(pk);
    req.set_consistent_read(true);
    auto r = test::Decode(engine_->GetItem(req));
    EXPECT_TRUE(r.ok()) << r.error().message();
    if (!r.ok() || !r->has_item()) return "(none)";
    return r->item().attributes().at("v").s();
  }

  std::shared_ptr<ControllableClock> clock_ = std::make_shared<ControllableClock>(1.0e9, /*frozen=*/true);
  std::unique_ptr<Engine> engine_;
  std::string replica_region_;
};

}  // namespace pogi::service
