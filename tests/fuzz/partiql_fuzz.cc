// libFuzzer target: the PartiQL lexer, parser and planner (service/partiql/)
// with random Parameters, on a table with a sort key and a global index;
// what plans is then evaluated or applied on a random item, as the runner
// would.
//
// Input: the statement, then (from the end) eight bytes seeding the
// Parameters and the item.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "fuzz_values.h"
#include "service/expr/evaluator.h"
#include "service/expr/update.h"
#include "service/partiql/parser.h"
#include "service/partiql/plan.h"

namespace pogi {
namespace {

const service::Table& FuzzTable() {
  static const service::Table* table = [] {
    auto* t = new service::Table;
    t->hash = {"pk", "S"};
    t->range = service::KeyAttribute{"sk", "N"};
    service::Index index;
    index.name = "i";
    index.keys.hash = {{"a", "S"}};
    index.keys.range = {{"b", "N"}};
    index.projection_type = "ALL";
    t->indexes.push_back(index);
    return t;
  }();
  return *table;
}

void Run(std::string_view text, uint64_t seed) {
  fuzz::Rng rng(seed);
  partiql::Parameters params;
  for (size_t i = 0, n = rng.Below(4); i < n; ++i) fuzz::RandomValue(rng, 0, params.Add());
  if (!partiql::CheckParameters(&params).ok()) params.Clear();
  expr::AttributeMap item = fuzz::RandomItem(rng, 6);

  auto st = partiql::Parse(text, params);
  if (!st.ok()) return;
  const service::Table& table = FuzzTable();
  switch (st.value().kind) {
    case partiql::Statement::Kind::kSelect: {
      auto plan = partiql::PlanSelect(st.value(), table, seed & 1, text);
      if (plan.ok() && plan.value().filter) (void)expr::Evaluate(*plan.value().filter, item);
      if (plan.ok() && plan.value().sort_range) (void)expr::Evaluate(*plan.value().sort_range, item);
      [[fallthrough]];
    }
    case partiql::Statement::Kind::kExists:
    case partiql::Statement::Kind::kDelete: {
      auto target = partiql::ToKeyedTarget(st.value(), table, text);
      if (target.ok() && target.value().condition) (void)expr::Evaluate(*target.value().condition, item);
      break;
    }
    case partiql::Statement::Kind::kUpdate: {
      auto target = partiql::ToKeyedTarget(st.value(), table, text);
      auto update = partiql::ToUpdate(st.value(), text);
      if (update.ok()) {
        std::vector<expr::Path> paths;
        (void)expr::Apply(update.value(), &item, &paths);
      }
      break;
    }
    case partiql::Statement::Kind::kInsert:
      break;
  }
  if (st.value().where) (void)partiql::ToCondition(*st.value().where, text);
}

}  // namespace
}  // namespace pogi

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  uint64_t seed = in.ConsumeIntegral<uint64_t>();
  std::string text = in.ConsumeRemainingBytesAsString();
  pogi::Run(text, seed);
  return 0;
}
