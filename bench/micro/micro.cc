// Microbenchmarks of the hot pieces of a request: the JSON codec, number key
// encoding, expression parse and evaluation, and one PutItem through the
// engine without HTTP. Run: build/pogi_micro.
#include <benchmark/benchmark.h>

#include "gateway/json_codec.h"
#include "service/engine/engine.h"
#include "service/expr/evaluator.h"
#include "service/expr/parser.h"
#include "service/expr/substitutions.h"
#include "service/value/decimal.h"

namespace {

using namespace pogi;

constexpr const char* kPutBody =
    R"({"TableName":"bench","Item":{"pk":{"S":"user#12345"},"n":{"N":"1.50"},"s":{"S":"hello world"},)"
    R"("tags":{"SS":["a","b","c"]},"m":{"M":{"x":{"N":"1"},"y":{"L":[{"S":"p"},{"BOOL":true}]}}}}})";

void BM_JsonDecodePutItem(benchmark::State& state) {
  v1::PutItemRequest req;
  for (auto _ : state) {
    auto s = gateway::JsonToMessage(kPutBody, &req);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_JsonDecodePutItem);

void BM_JsonEncodeItem(benchmark::State& state) {
  v1::PutItemRequest req;
  (void)gateway::JsonToMessage(kPutBody, &req);
  v1::GetItemResponse resp;
  *resp.mutable_item() = req.item();
  for (auto _ : state) {
    std::string out;
    gateway::MessageToJson(resp, &out);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_JsonEncodeItem);

void BM_NumberKeyEncoding(benchmark::State& state) {
  for (auto _ : state) {
    auto d = value::Decimal::Parse("-12345.678901234567890e-20");
    std::string key;
    d->AppendKeyEncoding(&key);
    benchmark::DoNotOptimize(key);
  }
}
BENCHMARK(BM_NumberKeyEncoding);

void BM_ConditionParseAndEvaluate(benchmark::State& state) {
  v1::PutItemRequest req;
  (void)gateway::JsonToMessage(kPutBody, &req);
  expr::AttributeMap values;
  values[":lo"].set_n("1");
  values[":t"].set_s("b");
  for (auto _ : state) {
    expr::Substitutions subs(nullptr, &values);
    auto c =
        expr::ParseCondition("attribute_exists(pk) AND n >= :lo AND contains(tags, :t) AND size(m.y) = :lo",
                             expr::ExpressionKind::kCondition, subs);
    auto r = expr::Evaluate(*c, req.item().attributes());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_ConditionParseAndEvaluate);

// Argument 1: the table has a stream (NEW_AND_OLD_IMAGES), so each put also
// writes a stream record (issue 11's bar: at most 1.3x the plain put).
void BM_EnginePutItem(benchmark::State& state) {
  storage::Options options;
  options.in_memory = true;
  auto engine = service::Engine::Open(options, std::make_shared<service::SystemClock>());
  v1::CreateTableRequest create;
  (void)gateway::JsonToMessage(
      R"({"TableName":"bench","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"})",
      &create);
  if (state.range(0) == 1) {
    create.mutable_stream_specification()->set_stream_enabled(true);
    create.mutable_stream_specification()->set_stream_view_type("NEW_AND_OLD_IMAGES");
  }
  (void)(*engine)->CreateTable(create);
  v1::PutItemRequest req;
  (void)gateway::JsonToMessage(kPutBody, &req);
  int64_t i = 0;
  for (auto _ : state) {
    (*req.mutable_item()->mutable_attributes())["pk"].set_s("user#" + std::to_string(i % 10000));
    // Every put changes its item (an unchanged item writes no stream record).
    (*req.mutable_item()->mutable_attributes())["seq"].set_n(std::to_string(i++));
    auto r = (*engine)->PutItem(req);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_EnginePutItem)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
