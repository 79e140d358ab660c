// libFuzzer target: DynamoDB's expression languages (condition, filter,
// key-condition, update, projection) parsed with random
// ExpressionAttributeNames/Values, then evaluated, applied or projected on a
// random item, and key conditions compiled to a range read.
//
// Input: the expression text, then (from the end) one byte choosing the
// expression's kind and eight bytes seeding the names, values and item.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "fuzz_values.h"
#include "service/expr/evaluator.h"
#include "service/expr/parser.h"
#include "service/expr/projection.h"
#include "service/expr/update.h"
#include "service/read/key_condition.h"
#include "service/validate/request_expressions.h"

namespace pogi {
namespace {

void Run(std::string_view text, uint8_t kind, uint64_t seed) {
  fuzz::Rng rng(seed);
  expr::NameMap names = fuzz::RandomNames(rng);
  expr::AttributeMap values = fuzz::RandomValues(rng);
  expr::AttributeMap item = fuzz::RandomItem(rng, 6);
  const expr::NameMap* names_param = kind & 0x10 ? nullptr : &names;
  const expr::AttributeMap* values_param = kind & 0x20 ? nullptr : &values;

  // The engine's path: the substitution maps' own rules, the parse, and the
  // "unused" check across every expression of the request.
  std::string owned(text);
  service::ExpressionParams params;
  v1::NameMap name_map;  // the request's member, as the engine gets it
  *name_map.mutable_names() = names;
  params.names = names_param ? &name_map : nullptr;
  params.values = values_param;
  switch (kind % 5) {
    case 0:
      params.condition = &owned;
      break;
    case 1:
      params.filter = &owned;
      break;
    case 2:
      params.key_condition = &owned;
      break;
    case 3:
      params.update = &owned;
      break;
    default:
      params.projection = &owned;
  }
  (void)service::ParseExpressions(params);

  // The parsers alone (no "unused" check), so that what parses is always
  // evaluated, whatever the maps held.
  expr::Substitutions subs(names_param, values_param);
  switch (kind % 5) {
    case 0:
    case 1: {
      auto c = expr::ParseCondition(
          text, kind % 5 ? expr::ExpressionKind::kFilter : expr::ExpressionKind::kCondition, subs);
      if (c.ok()) {
        (void)expr::Evaluate(c.value(), item);
        (void)expr::Evaluate(c.value(), expr::AttributeMap());
      }
      break;
    }
    case 2: {
      auto c = expr::ParseCondition(text, expr::ExpressionKind::kKeyCondition, subs);
      if (c.ok()) {
        // A table's key, or a multi-attribute GSI key (two of each part).
        service::KeySchema keys;
        keys.hash.push_back({"pk", kind & 0x40 ? "N" : "S"});
        if (kind & 0x80) keys.range.push_back({"sk", kind & 0x40 ? "B" : "N"});
        if (kind & 0x20) {
          keys.hash.push_back({"pk2", "S"});
          keys.range.push_back({"sk2", "N"});
        }
        (void)service::CompileKeyCondition(c.value(), keys);
        (void)expr::Evaluate(c.value(), item);
      }
      break;
    }
    case 3: {
      auto u = expr::ParseUpdate(text, subs);
      if (u.ok()) {
        std::vector<expr::Path> paths;
        expr::AttributeMap updated = item;
        if (expr::Apply(u.value(), &updated, &paths).ok()) {
          (void)expr::ExtractPaths(paths, item);
          (void)expr::ExtractPaths(paths, updated);
        }
      }
      break;
    }
    default: {
      auto p = expr::ParseProjection(text, subs);
      if (p.ok()) (void)expr::Project(p.value(), item);
    }
  }
}

}  // namespace
}  // namespace pogi

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  uint8_t kind = in.ConsumeIntegral<uint8_t>();
  uint64_t seed = in.ConsumeIntegral<uint64_t>();
  std::string text = in.ConsumeRemainingBytesAsString();
  pogi::Run(text, kind, seed);
  return 0;
}
