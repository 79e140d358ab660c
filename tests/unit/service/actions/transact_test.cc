// Tests for TransactWriteItems and TransactGetItems over in-memory storage:
// all-or-nothing, cancellation reasons in request order (with the old item
// when asked), DynamoDB's validation order and messages, ClientRequestToken
// idempotency (TransactionTokens) with a controllable clock.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "service/engine/engine.h"
#include "service/write/multi_item.h"
#include "service/write/transaction_tokens.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

using test::Decode;
using test::N;
using test::S;

class FakeClock final : public Clock {
 public:
  double Now() const override { return now.load(); }
  std::atomic<double> now{1000};
};

class TransactTest : public ::testing::Test {
 protected:
  void SetUp() override {
    clock_ = std::make_shared<FakeClock>();
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    v1::CreateTableRequest req;
    req.set_table_name("acct");
    req.set_billing_mode("PAY_PER_REQUEST");
    auto* d = req.add_attribute_definitions();
    d->set_attribute_name("pk");
    d->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    ASSERT_TRUE(engine_->CreateTable(req).ok());
    Put("a", "100");
    Put("b", "0");
  }

  void Put(const std::string& pk, const std::string& balance) {
    v1::PutItemRequest req;
    req.set_table_name("acct");
    (*req.mutable_item()->mutable_attributes())["pk"] = S(pk);
    (*req.mutable_item()->mutable_attributes())["balance"] = N(balance);
    ASSERT_TRUE(engine_->PutItem(req).ok());
  }

  std::string Balance(const std::string& pk) {
    v1::GetItemRequest req;
    req.set_table_name("acct");
    (*req.mutable_key()->mutable_attributes())["pk"] = S(pk);
    auto r = Decode(engine_->GetItem(req));
    if (!r.ok() || !r->has_item()) return "(none)";
    return r->item().attributes().at("balance").n();
  }

  // An Update moving `delta` into `pk`, with an optional condition "balance >= :min".
  static v1::TransactWriteItem Move(const std::string& pk, const std::string& delta,
                                    const std::string& min = "") {
    v1::TransactWriteItem item;
    auto* u = item.mutable_update();
    u->set_table_name("acct");
    (*u->mutable_key())["pk"] = S(pk);
    u->set_update_expression("SET balance = balance + :d");
    (*u->mutable_expression_attribute_values()->mutable_attributes())[":d"] = N(delta);
    if (!min.empty()) {
      u->set_condition_expression("balance >= :min");
      (*u->mutable_expression_attribute_values()->mutable_attributes())[":min"] = N(min);
      u->set_return_values_on_condition_check_failure("ALL_OLD");
    }
    return item;
  }

  static v1::TransactWriteItemsRequest Transfer(const std::string& amount) {
    v1::TransactWriteItemsRequest req;
    *req.add_transact_items() = Move("a", "-" + amount, amount);
    *req.add_transact_items() = Move("b", amount);
    return req;
  }

  template <typename R>
  static std::string ErrorOf(const R& r) {
    return r.ok() ? "(ok)" : std::string(r.error().info().short_name) + ": " + r.error().message();
  }

  static std::vector<std::string> Codes(const Error& e) {
    std::vector<std::string> out;
    if (e.detail()) {
      for (const auto& r : e.detail()->cancellation_reasons()) out.push_back(r.code());
    }
    return out;
  }

  std::shared_ptr<FakeClock> clock_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(TransactTest, CommitsAllActions) {
  auto req = Transfer("30");
  req.set_return_consumed_capacity("TOTAL");
  auto r = engine_->TransactWriteItems(req);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(Balance("a"), "70");
  EXPECT_EQ(Balance("b"), "30");
  ASSERT_EQ(r->consumed_capacity_size(), 1);
  EXPECT_EQ(r->consumed_capacity(0).capacity_units(), 4.0);  // two items, 2 units each
  EXPECT_EQ(r->consumed_capacity(0).write_capacity_units(), 4.0);
}

TEST_F(TransactTest, FailedConditionCancelsEverything) {
  auto r = engine_->TransactWriteItems(Transfer("500"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::kTransactionCanceled);
  EXPECT_EQ(r.error().message(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons "
            "[ConditionalCheckFailed, "
            "None]");
  EXPECT_EQ(Codes(r.error()), (std::vector<std::string>{"ConditionalCheckFailed", "None"}));
  // The item comes carried as stored (value/decoded.h).
  const v1::ErrorDetail detail = value::Decoded(*r.error().detail());
  const auto& reason = detail.cancellation_reasons(0);
  EXPECT_EQ(reason.message(), "The conditional request failed");
  EXPECT_EQ(reason.item().attributes().at("balance").n(), "100");  // ALL_OLD
  EXPECT_FALSE(r.error().detail()->cancellation_reasons(1).has_message());
  EXPECT_EQ(Balance("a"), "100");
  EXPECT_EQ(Balance("b"), "0");
}

TEST_F(TransactTest, UpdateErrorsAreValidationErrorReasons) {
  v1::TransactWriteItemsRequest req;
  *req.add_transact_items() = Move("a", "1");
  auto* u = req.add_transact_items()->mutable_update();
  u->set_table_name("acct");
  (*u->mutable_key())["pk"] = S("b");
  u->set_update_expression("SET balance = pk + :one");
  (*u->mutable_expression_attribute_values()->mutable_attributes())[":one"] = N("1");
  auto r = engine_->TransactWriteItems(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(Codes(r.error()), (std::vector<std::string>{"None", "ValidationError"}));
  EXPECT_EQ(r.error().detail()->cancellation_reasons(1).message(),
            "An operand in the update expression has an incorrect data type");
  EXPECT_EQ(Balance("a"), "100");
}

TEST_F(TransactTest, ValidationOrder) {
  v1::TransactWriteItemsRequest empty;
  EXPECT_EQ(
      ErrorOf(engine_->TransactWriteItems(empty)),
      "ValidationException: 1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
      "constraint: Member must have length greater than or equal to 1");
  auto dup = Transfer("1");
  *dup.add_transact_items() = Move("a", "1");
  EXPECT_EQ(ErrorOf(engine_->TransactWriteItems(dup)),
            "ValidationException: Transaction request cannot include multiple operations on one item");
  auto missing = Transfer("1");
  missing.mutable_transact_items(1)->mutable_update()->set_table_name("nosuch");
  EXPECT_EQ(ErrorOf(engine_->TransactWriteItems(missing)),
            "ResourceNotFoundException: Requested resource not found");
  // An expression error on a later action wins over a missing table on an earlier one.
  missing.mutable_transact_items(1)->mutable_update()->set_update_expression("SET");
  EXPECT_EQ(
      ErrorOf(engine_->TransactWriteItems(missing)).rfind("ValidationException: Invalid UpdateExpression", 0),
      0u);
  v1::TransactWriteItemsRequest none;
  none.add_transact_items();
  EXPECT_EQ(ErrorOf(engine_->TransactWriteItems(none)),
            "ValidationException: TransactItems can only contain one of Check, Put, Update or Delete");
  auto token = Transfer("1");
  token.set_client_request_token(std::string(37, 't'));
  token.set_return_item_collection_metrics("BOGUS");
  EXPECT_EQ(
      ErrorOf(engine_->TransactWriteItems(token)),
      "ValidationException: 2 validation errors detected: Value '" + std::string(37, 't') +
          "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or "
          "equal "
          "to 36; Value 'BOGUS' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must "
          "satisfy enum value set: [SIZE, NONE]");
  // A key of the wrong type cancels, reported on the first such action only.
  auto wrong = Transfer("1");
  (*wrong.mutable_transact_items(0)->mutable_update()->mutable_key())["pk"] = N("1");
  (*wrong.mutable_transact_items(1)->mutable_update()->mutable_key())["pk"] = N("2");
  auto r = engine_->TransactWriteItems(wrong);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(Codes(r.error()), (std::vector<std::string>{"ValidationError", "None"}));
  EXPECT_EQ(r.error().detail()->cancellation_reasons(0).message(),
            "The provided key element does not match the schema");
  EXPECT_EQ(Balance("a"), "100");
}

TEST_F(TransactTest, ClientRequestTokenIdempotency) {
  auto req = Transfer("10");
  req.set_client_request_token("tok-1");
  ASSERT_TRUE(engine_->TransactWriteItems(req).ok());
  ASSERT_TRUE(engine_->TransactWriteItems(req).ok());  // replay: no second write
  EXPECT_EQ(Balance("a"), "90");
  auto other = Transfer("20");
  other.set_client_request_token("tok-1");
  auto r = engine_->TransactWriteItems(other);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::kIdempotentParameterMismatch);
  // After 10 minutes the token is new again.
  clock_->now = clock_->now + TransactionTokens::kWindowSeconds + 1;
  ASSERT_TRUE(engine_->TransactWriteItems(other).ok());
  EXPECT_EQ(Balance("a"), "70");
}

TEST_F(TransactTest, GetReadsOneSnapshotWithProjection) {
  v1::TransactGetItemsRequest req;
  for (const char* pk : {"a", "b", "zz"}) {
    auto* g = req.add_transact_items()->mutable_get();
    g->set_table_name("acct");
    (*g->mutable_key())["pk"] = S(pk);
    g->set_projection_expression("balance");
  }
  req.set_return_consumed_capacity("TOTAL");
  auto r = Decode(engine_->TransactGetItems(req));
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->responses_size(), 3);
  EXPECT_EQ(r->responses(0).item().attributes().at("balance").n(), "100");
  EXPECT_EQ(r->responses(0).item().attributes().size(), 1u);
  EXPECT_FALSE(r->responses(2).has_item());
  EXPECT_EQ(r->consumed_capacity(0).capacity_units(), 6.0);
  EXPECT_EQ(r->consumed_capacity(0).read_capacity_units(), 6.0);

  (*req.mutable_transact_items(1)->mutable_get()->mutable_key())["pk"] = N("1");
  auto bad = engine_->TransactGetItems(req);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(Codes(bad.error()), (std::vector<std::string>{"None", "ValidationError", "None"}));
}

TEST(TransactionTokensTest, InFlightInThisProcess) {
  TransactionTokens tokens;
  ASSERT_TRUE(tokens.Enter("t", "fp").ok());
  EXPECT_EQ(tokens.Enter("t", "fp").error().code(), ErrorCode::kTransactionInProgress);
  EXPECT_EQ(tokens.Enter("t", "other").error().code(), ErrorCode::kIdempotentParameterMismatch);
  EXPECT_TRUE(tokens.Enter("u", "fp").ok()) << "tokens are apart";
  tokens.Leave("t");
  EXPECT_TRUE(tokens.Enter("t", "other").ok());

  v1::TransactWriteItemsRequest a, b;
  a.set_client_request_token("1");
  b.set_client_request_token("2");
  b.set_return_consumed_capacity("TOTAL");
  EXPECT_EQ(TransactionTokens::Fingerprint(a), TransactionTokens::Fingerprint(b));
}

TEST(TransactionTokensTest, AnswersAreKeptWithTheDataForTenMinutes) {
  storage::Options options;
  options.in_memory = true;
  auto storage = std::move(storage::Storage::Open(options)).value();
  TransactionTokens tokens;
  auto find = [&](const std::string& fingerprint, double now) {
    Result<std::optional<v1::TransactWriteItemsResponse>> found =
        std::optional<v1::TransactWriteItemsResponse>();
    Status s = storage->Read([&](storage::ReadTxn& txn) -> Status {
      found = TransactionTokens::Find(txn, "t", fingerprint, now);
      return Status::Ok();
    });
    EXPECT_TRUE(s.ok());
    return found;
  };
  EXPECT_FALSE(find("fp", 0)->has_value());
  v1::TransactWriteItemsResponse resp;
  resp.add_consumed_capacity()->set_table_name("x");
  ASSERT_TRUE(
      storage->Write([&](storage::WriteTxn& txn) { return tokens.Keep(txn, "t", "fp", resp, 100); }).ok());
  auto again = find("fp", 101);
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_EQ((*again)->consumed_capacity(0).table_name(), "x");
  EXPECT_EQ(find("other", 101).error().code(), ErrorCode::kIdempotentParameterMismatch);
  EXPECT_FALSE(find("other", 100 + TransactionTokens::kWindowSeconds)->has_value()) << "new again";
}

}  // namespace
}  // namespace pogi::service
