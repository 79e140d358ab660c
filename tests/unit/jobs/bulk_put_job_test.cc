// A bulk put run against an in-memory engine and object store: records put
// through PutItem with their conditions, the counters, the report objects,
// and a run stopped midway then taken up again with every record counted
// once.
#include "jobs/bulk_put_job.h"

#include <gtest/gtest.h>

#include "tests/unit/value_builders.h"

namespace pogi::jobs {
namespace {

class BulkPutJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto e = service::Engine::Open(options, std::make_shared<service::SystemClock>());
    ASSERT_TRUE(e.ok()) << e.error().message();
    engine_ = std::move(e).value();
    auto s = outbound::OpenObjectStore({});
    ASSERT_TRUE(s.ok()) << s.error().message();
    store_ = std::move(s).value();
    ASSERT_TRUE(store_->Put("out", "made", "").ok());  // a memory bucket exists once written
    v1::CreateTableRequest req;
    req.set_table_name("tab");
    req.set_billing_mode("PAY_PER_REQUEST");
    auto* d = req.add_attribute_definitions();
    d->set_attribute_name("pk");
    d->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    ASSERT_TRUE(engine_->CreateTable(req).ok());
  }

  std::string Start(const std::string& prefix) {
    v1::StartBulkPutItemsRequest req;
    req.set_table_name("tab");
    req.mutable_input_s3_configuration()->set_s3_bucket("in");
    req.mutable_input_s3_configuration()->set_s3_key_prefix(prefix);
    req.mutable_input_s3_configuration()->set_input_format("DYNAMODB_JSON");
    req.mutable_output_s3_configuration()->set_s3_bucket("out");
    req.mutable_output_s3_configuration()->add_output_type("ERROR");
    req.mutable_output_s3_configuration()->add_output_type("CONDITION_CHECK_FAILURE");
    auto r = engine_->StartBulkPutItems(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->bulk_operation_description().bulk_operation_arn() : "";
  }

  v1::StoredJob Stored(const std::string& arn) {
    auto job = engine_->GetJob(arn);
    EXPECT_TRUE(job.ok() && job->has_value());
    return job.ok() && *job ? **job : v1::StoredJob();
  }

  void Run(const std::string& arn, KeepGoing keep_going = [] { return true; }) {
    Status s = RunBulkPut(*engine_, *store_, arn, Stored(arn), keep_going);
    ASSERT_TRUE(s.ok()) << s.error().message();
  }

  int64_t Count() {
    v1::ScanRequest scan;
    scan.set_table_name("tab");
    auto r = engine_->Scan(scan);
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->count() : -1;
  }

  std::unique_ptr<service::Engine> engine_;
  std::shared_ptr<outbound::ObjectStore> store_;
};

TEST_F(BulkPutJobTest, PutsConditionsErrorsAndTheReport) {
  v1::PutItemRequest held;
  held.set_table_name("tab");
  (*held.mutable_item()->mutable_attributes())["pk"] = test::S("held");
  ASSERT_TRUE(engine_->PutItem(held).ok());
  ASSERT_TRUE(store_
                  ->Put("in", "p/a.json",
                        "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n"
                        "{\"Item\":{\"pk\":{\"S\":\"held\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}\n"
                        "{\"Item\":{\"other\":{\"S\":\"x\"}}}\n"
                        "{\"Item\":{\"pk\":{\"S\":\"b\"}},\"ConditionExpression\":\"attribute_not_exists(#k)\","
                        "\"ExpressionAttributeNames\":{\"#k\":\"pk\"}}\n")
                  .ok());
  std::string arn = Start("p/");
  Run(arn);
  v1::StoredJob job = Stored(arn);
  const auto& d = job.bulk();
  EXPECT_EQ(d.bulk_operation_status(), "COMPLETED_WITH_ERRORS");
  EXPECT_EQ(d.processed_item_count(), 4);
  EXPECT_EQ(d.failed_item_count(), 1);
  EXPECT_EQ(job.condition_check_failures(), 1);
  EXPECT_EQ(d.total_input_bytes(), d.processed_input_bytes());
  EXPECT_TRUE(d.has_end_time());
  ASSERT_EQ(d.bulk_operation_usage_size(), 1);
  EXPECT_GT(d.bulk_operation_usage(0).table().bulk_put_bytes(), 0);
  EXPECT_EQ(Count(), 3);  // held, a, b
  ASSERT_EQ(job.report_files_size(), 2);
  auto errors = store_->Get("out", job.report_files(0).key(), 1 << 20);
  ASSERT_TRUE(errors.ok());
  EXPECT_NE(errors->find("\"itemIndex\":2"), std::string::npos) << *errors;
  auto failures = store_->Get("out", job.report_files(1).key(), 1 << 20);
  ASSERT_TRUE(failures.ok());
  EXPECT_NE(failures->find("\"ExistingItem\":{\"pk\":{\"S\":\"held\"}}"), std::string::npos) << *failures;
  std::string id = arn.substr(arn.rfind('/') + 1);
  auto manifest = store_->Get("out", "AWSDynamoDB/BulkOperations/" + id + "/manifest.json", 1 << 20);
  ASSERT_TRUE(manifest.ok());
  EXPECT_NE(manifest->find("\"bulkOperationStatus\":\"COMPLETED_WITH_ERRORS\""), std::string::npos) << *manifest;
}

TEST_F(BulkPutJobTest, AStoppedRunIsTakenUpWithEveryRecordCountedOnce) {
  for (const char* key : {"r/1.json", "r/2.json"}) {
    std::string lines;
    for (int i = 0; i < 50; ++i) {
      lines += "{\"Item\":{\"pk\":{\"S\":\"" + std::string(key) + std::to_string(i) + "\"}}}\n";
    }
    ASSERT_TRUE(store_->Put("in", key, lines).ok());
  }
  std::string arn = Start("r/");
  int calls = 0;
  Run(arn, [&] { return ++calls < 2; });  // stops at the second object
  EXPECT_EQ(Stored(arn).bulk().bulk_operation_status(), "IN_PROGRESS");
  Run(arn);
  const auto d = Stored(arn).bulk();
  EXPECT_EQ(d.bulk_operation_status(), "COMPLETED");
  EXPECT_EQ(d.processed_item_count(), 100);
  EXPECT_EQ(d.failed_item_count(), 0);
  EXPECT_EQ(Count(), 100);
}

TEST_F(BulkPutJobTest, ACancelEndsItCancelledAndAGoneTableFailsIt) {
  ASSERT_TRUE(store_->Put("in", "c/a.json", "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n").ok());
  std::string arn = Start("c/");
  ASSERT_TRUE(engine_->RequestJobCancel(arn).ok());
  Run(arn);
  EXPECT_EQ(Stored(arn).bulk().bulk_operation_status(), "CANCELLED");
  std::string second = Start("c/");
  v1::DeleteTableRequest del;
  del.set_table_name("tab");
  ASSERT_TRUE(engine_->DeleteTable(del).ok());
  Run(second);
  const auto d = Stored(second).bulk();
  EXPECT_EQ(d.bulk_operation_status(), "FAILED");
  EXPECT_EQ(d.failure_code(), "ResourceNotFoundException");
}

TEST(BulkOperationArnTest, NamesItsTable) {
  EXPECT_EQ(TableArnOfBulkOperation("arn:aws:dynamodb:us-east-1:000000000000:table/tab/bulk-operation/123-ab"),
            "arn:aws:dynamodb:us-east-1:000000000000:table/tab");
}

}  // namespace
}  // namespace pogi::jobs
