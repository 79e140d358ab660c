// ExecuteTransaction: up to 100 PartiQL statements, all or nothing. Writes
// (INSERT, UPDATE, DELETE, EXISTS checks) run as one TransactWriteItems, so
// the same storage transaction, ClientRequestToken idempotency and
// TransactionCanceledException (reasons in statement order) serve both; a
// transaction of SELECTs of single items runs as one TransactGetItems.
#include "service/engine/engine.h"
#include "service/partiql/parser.h"
#include "service/partiql/render.h"
#include "service/partiql/runner.h"
#include "service/partiql/statement_list.h"
#include "service/validate/item_request.h"
#include "service/validate/request_expressions.h"
#include "service/write/multi_item.h"

namespace pogi::service {
namespace {

Error InStatement(size_t i, const Error& e) {
  if (e.code() != ErrorCode::kValidation) return e;
  return Error::Validation("Validation failed in TransactStatements[" + std::to_string(i) +
                           "]: " + e.message());
}

}  // namespace

Result<v1::ExecuteTransactionResponse> Engine::ExecuteTransaction(const v1::ExecuteTransactionRequest& req) {
  Constraints c;
  CheckStatementList(c, req.transact_statements(), kMaxTransactionActions, "transactStatements");
  c.Length(IfPresent(req.has_client_request_token(), req.client_request_token()), 1,
           kMaxClientRequestTokenLength, "clientRequestToken");
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());

  std::vector<partiql::Statement> statements;
  size_t reads = 0;
  for (const auto& s : req.transact_statements()) {
    partiql::Parameters params = s.parameters().values();
    POGI_RETURN_IF_ERROR(partiql::CheckParameters(&params));
    POGI_ASSIGN_OR_RETURN(partiql::Statement st, partiql::Parse(s.statement(), params));
    reads += st.kind == partiql::Statement::Kind::kSelect;
    statements.push_back(std::move(st));
  }
  PartiqlRunner runner(*this);

  if (reads == statements.size()) {
    v1::TransactGetItemsRequest get;
    for (size_t i = 0; i < statements.size(); ++i) {
      const partiql::Statement& st = statements[i];
      const std::string& text = req.transact_statements(static_cast<int>(i)).statement();
      if (st.index)
        return InStatement(i, Error::Validation("Reads on indices are not supported within transactions."));
      auto point = runner.ToPointRead(st, text);
      if (!point.ok() && point.error().code() != ErrorCode::kValidation) return std::move(point).error();
      if (!point.ok() || point->condition) {
        return InStatement(
            i,
            Error::Validation("Select statements within ExecuteTransaction must specify the primary key in "
                              "the where clause."));
      }
      v1::Get* g = get.add_transact_items()->mutable_get();
      g->set_table_name(st.table);
      *g->mutable_key() = point->key;
      if (point->projection) {
        partiql::Renderer r;
        std::string projection;
        for (const auto& p : point->projection->paths)
          projection += (projection.empty() ? "" : ", ") + r.Path(p);
        g->set_projection_expression(projection);
        *g->mutable_expression_attribute_names()->mutable_names() = r.names();
      }
    }
    if (req.has_return_consumed_capacity()) get.set_return_consumed_capacity(req.return_consumed_capacity());
    POGI_ASSIGN_OR_RETURN(auto got, TransactGetItems(get));
    v1::ExecuteTransactionResponse resp;
    *resp.mutable_responses() = std::move(*got.mutable_responses());
    *resp.mutable_consumed_capacity() = std::move(*got.mutable_consumed_capacity());
    return resp;
  }
  if (reads > 0) {
    // pogi's words: DynamoDB runs a transaction of reads or one of writes.
    return Error::Validation("Unsupported operation in transaction.");
  }

  v1::TransactWriteItemsRequest write;
  for (size_t i = 0; i < statements.size(); ++i) {
    const auto& s = req.transact_statements(static_cast<int>(i));
    auto action =
        runner.ToTransactWrite(statements[i], s.statement(), s.return_values_on_condition_check_failure());
    if (!action.ok()) return InStatement(i, action.error());
    *write.add_transact_items() = std::move(action).value();
  }
  if (req.has_client_request_token()) write.set_client_request_token(req.client_request_token());
  if (req.has_return_consumed_capacity()) write.set_return_consumed_capacity(req.return_consumed_capacity());
  auto done = TransactWriteItems(write);
  if (!done.ok()) {
    const Error& e = done.error();
    if (e.code() != ErrorCode::kTransactionCanceled || !e.detail()) return std::move(done).error();
    // An INSERT's failed "not there yet" check is a duplicate item.
    std::vector<v1::CancellationReason> reasons(e.detail()->cancellation_reasons().begin(),
                                                e.detail()->cancellation_reasons().end());
    for (size_t i = 0; i < reasons.size() && i < statements.size(); ++i) {
      if (statements[i].kind == partiql::Statement::Kind::kInsert &&
          reasons[i].code() == "ConditionalCheckFailed") {
        reasons[i] = Reason("DuplicateItem", "Duplicate primary key exists in table");
      }
    }
    return TransactionCanceled(reasons);
  }
  v1::ExecuteTransactionResponse resp;
  *resp.mutable_consumed_capacity() = std::move(*done->mutable_consumed_capacity());
  return resp;
}

}  // namespace pogi::service
