// BatchExecuteStatement: up to 25 PartiQL statements, all reads (each a
// SELECT of one item by its full key) or all writes, each run on its own:
// one Responses entry per statement, in order, with an Error for those that
// failed while the others succeeded.
#include "service/engine/engine.h"
#include "service/expr/evaluator.h"
#include "service/expr/path_tree.h"
#include "service/expr/projection.h"
#include "service/partiql/parser.h"
#include "service/partiql/runner.h"
#include "service/partiql/statement_list.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/request_expressions.h"
#include "service/write/multi_item.h"

namespace pogi::service {
namespace {

constexpr int kMaxBatchStatements = 25;

void SetError(const Error& e, v1::BatchStatementResponse* r) {
  v1::BatchStatementError* err = r->mutable_error();
  err->set_code(StatementErrorCode(e));
  err->set_message(e.message());
  if (e.detail() && e.detail()->has_item()) {
    // The item keeps the order it was carried in (WithStoredItem).
    auto carried = value::CarriedAttributeMap(e.detail()->item(), v1::Item::kAttributesFieldNumber);
    if (carried) {
      value::CarryAttributeMap(err, v1::BatchStatementError::kItemFieldNumber, *carried);
    } else {
      *err->mutable_item() = e.detail()->item().attributes();
    }
  }
}

bool HasFunction(const partiql::Expr& e) {
  if (e.kind == partiql::Expr::Kind::kFunction) return true;
  for (const auto& a : e.args) {
    if (HasFunction(a)) return true;
  }
  return false;
}

}  // namespace

Result<v1::BatchExecuteStatementResponse> Engine::BatchExecuteStatement(
    const v1::BatchExecuteStatementRequest& req) {
  Constraints c;
  int n = req.statements_size();
  CheckStatementList(c, req.statements(), kMaxBatchStatements, "statements");
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());

  // Each statement parsed on its own: a bad one is its own ValidationError.
  std::vector<Result<partiql::Statement>> parsed;
  bool reads = false, writes = false;
  for (const auto& s : req.statements()) {
    partiql::Parameters params = s.parameters().values();
    Status checked = partiql::CheckParameters(&params);
    if (!checked.ok()) {
      parsed.push_back(std::move(checked).error());
      continue;
    }
    parsed.push_back(partiql::Parse(s.statement(), params));
    if (!parsed.back().ok()) continue;
    (parsed.back()->kind == partiql::Statement::Kind::kSelect ? reads : writes) = true;
  }
  if (reads && writes) {
    // pogi's words: DynamoDB requires a batch to be all reads or all writes.
    return Error::Validation("A batch must contain either only read statements or only write statements");
  }

  PartiqlRunner runner(*this);
  v1::BatchExecuteStatementResponse resp;
  CapacityTally capacity;
  for (int i = 0; i < n; ++i) {
    const auto& s = req.statements(i);
    v1::BatchStatementResponse* out = resp.add_responses();
    if (!parsed[i].ok()) {
      SetError(parsed[i].error(), out);
      continue;
    }
    const partiql::Statement& st = *parsed[i];
    if (st.kind == partiql::Statement::Kind::kSelect) {
      auto point = runner.ToPointRead(st, s.statement());
      if (!point.ok() && point.error().code() == ErrorCode::kValidation) {
        point = Error::Validation(
            "Select statements within BatchExecuteStatement must specify the primary key in the where "
            "clause.");
      }
      if (point.ok() && (st.index || (st.where && HasFunction(*st.where)))) {
        point = Error::Validation(
            "Select statements within BatchExecuteStatement must specify the primary key in the where "
            "clause.");
      }
      if (!point.ok()) {
        SetError(point.error(), out);
        continue;
      }
      v1::GetItemRequest get;
      get.set_table_name(st.table);
      *get.mutable_key()->mutable_attributes() = point->key;
      get.set_consistent_read(s.consistent_read());
      get.set_return_consumed_capacity("TOTAL");
      auto got = GetItem(get);
      if (!got.ok()) {
        SetError(got.error(), out);
        continue;
      }
      out->set_table_name(st.table);
      capacity.Add(st.table, got->consumed_capacity().capacity_units());
      // GetItem carries the item as stored (value::CarryItem).
      auto carried = value::CarriedItems(*got, v1::GetItemResponse::kItemFieldNumber);
      if (carried.empty()) continue;
      std::string stored(carried.front());
      v1::Item decoded;
      if (!decoded.ParseFromString(stored)) return Error::Internal("GetItem answered a malformed item");
      const auto& item = decoded.attributes();
      if (point->condition) {
        POGI_ASSIGN_OR_RETURN(bool keep, expr::Evaluate(*point->condition, item));
        if (!keep) continue;
      }
      if (point->projection) {
        value::PathTree paths = expr::PathTreeOf(point->projection->paths, value::PathTree::End::kCopied);
        stored = value::ItemProto(expr::ProjectSelectList(*point->projection, item),
                                  value::EntryOrigin::Along(stored, &paths));
      }
      value::CarryAttributeMap(out, v1::BatchStatementResponse::kItemFieldNumber, stored);
      continue;
    }
    PartiqlRunner::Options o;
    o.capacity_mode = "TOTAL";
    o.return_on_failure = s.return_values_on_condition_check_failure();
    auto r = runner.Run(st, s.statement(), o);
    if (!r.ok()) {
      SetError(r.error(), out);
      continue;
    }
    out->set_table_name(st.table);
    capacity.Add(st.table, r->consumed_capacity().capacity_units());
  }
  capacity.Fill(req.return_consumed_capacity(), 0, resp.mutable_consumed_capacity());
  return resp;
}

}  // namespace pogi::service
