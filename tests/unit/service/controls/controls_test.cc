// Tests for the engine's admin parts without a front door: Metrics fed with
// published RequestRecords (counts, error types, histogram, Prometheus
// text), and fault rules' schedules and matching.
#include <gtest/gtest.h>

#include "service/controls/metrics.h"
#include "service/engine/engine.h"

namespace pogi::service {
namespace {

std::unique_ptr<Engine> OpenEngine() {
  storage::Options options;
  options.in_memory = true;
  auto r = Engine::Open(options, std::make_shared<SystemClock>());
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : nullptr;
}

TEST(Metrics, CountsPublishedRecords) {
  RequestObservers observers;
  EXPECT_FALSE(observers.active());
  {
    Metrics m;
    m.Start(observers, 0);
    m.Start(observers, 0);  // once only
    EXPECT_TRUE(observers.active());
    RequestRecord r;
    r.door = "http";
    r.operation = "PutItem";
    r.table = "t";
    r.status = 200;
    r.latency_us = 300;
    r.bytes_in = 10;
    observers.Publish(r);
    r.error_type = "ValidationException";
    r.status = 400;
    r.latency_us = 5000000;
    observers.Publish(r);
    auto all = m.Snapshot();
    ASSERT_EQ(all.size(), 1u);
    const auto& s = all.at({"PutItem", "t"});
    EXPECT_EQ(s.calls, 2);
    EXPECT_EQ(s.errors.at("ValidationException"), 1);
    EXPECT_EQ(s.latency[2], 1);                          // 300 us: the 500 us bucket
    EXPECT_EQ(s.latency[Metrics::kBoundsUs.size()], 1);  // above the last bound
    EXPECT_EQ(s.bytes_in, 20);
    std::string text = m.PrometheusText();
    EXPECT_NE(text.find("pogi_requests_total{operation=\"PutItem\",table=\"t\"} 2"), std::string::npos);
    EXPECT_NE(text.find("le=\"+Inf\"} 2"), std::string::npos);
    EXPECT_NE(text.find("type=\"ValidationException\"} 1"), std::string::npos);
  }
  EXPECT_FALSE(observers.active());  // removed with the Metrics
}

TEST(Faults, SchedulesAndMatching) {
  auto engine = OpenEngine();
  ASSERT_TRUE(engine);
  Faults& f = engine->faults();
  EXPECT_FALSE(f.active());
  FaultSpec every;
  every.operations = {"GetItem"};
  every.error = "ThrottlingException";
  every.every = 2;
  ASSERT_TRUE(f.Add(every).ok());
  EXPECT_TRUE(f.active());
  v1::GetItemRequest get;
  get.set_table_name("t");
  std::vector<bool> fired;
  for (int i = 0; i < 4; ++i) fired.push_back(engine->CheckFaults("http", "GetItem", get).has_value());
  EXPECT_EQ(fired, (std::vector<bool>{false, true, false, true}));
  EXPECT_FALSE(engine->CheckFaults("http", "PutItem", v1::PutItemRequest()).has_value());
  auto action = engine->CheckFaults("grpc", "GetItem", get);
  EXPECT_FALSE(action.has_value());  // the 5th call
  action = engine->CheckFaults("grpc", "GetItem", get);
  ASSERT_TRUE(action && action->error);
  EXPECT_EQ(action->error->info().short_name, "ThrottlingException");
  EXPECT_EQ(f.List()[0].matched, 6);
  EXPECT_EQ(f.List()[0].fired, 3);
  ASSERT_TRUE(f.Clear("").ok());
  EXPECT_FALSE(f.active());

  FaultSpec bad;
  bad.error = "NoSuchError";
  EXPECT_FALSE(f.Add(bad).ok());
  bad.error = "";
  EXPECT_FALSE(f.Add(bad).ok());  // no action
}

TEST(Faults, TransactionConflictShape) {
  v1::TransactWriteItemsRequest tw;
  tw.add_transact_items();
  tw.add_transact_items();
  auto e = FaultError("TransactionConflict", "", "TransactWriteItems", tw);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->info().short_name, "TransactionCanceledException");
  ASSERT_TRUE(e->detail());
  ASSERT_EQ(e->detail()->cancellation_reasons_size(), 2);
  EXPECT_EQ(e->detail()->cancellation_reasons(0).code(), "TransactionConflict");
  EXPECT_EQ(e->detail()->cancellation_reasons(1).code(), "None");
  auto plain = FaultError("TransactionConflict", "", "PutItem", v1::PutItemRequest());
  EXPECT_EQ(plain->info().short_name, "TransactionConflictException");
  EXPECT_EQ(FaultError("ServiceUnavailable", "", "GetItem", v1::GetItemRequest())->info().http_status, 503);
}

}  // namespace
}  // namespace pogi::service
