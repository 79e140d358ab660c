// ExecuteStatement: one PartiQL statement. A SELECT reads one page (a Query
// when its WHERE fixes the partition key, else a Scan; NextToken for the
// next); INSERT, UPDATE and DELETE write one item through the one write path.
#include "service/engine/engine.h"
#include "service/partiql/parser.h"
#include "service/partiql/runner.h"
#include "service/validate/item_request.h"
#include "service/validate/request_expressions.h"

namespace pogi::service {
namespace {

constexpr size_t kMaxStatementLength = 8192;
constexpr size_t kMaxNextTokenLength = 32768;

}  // namespace

Result<v1::ExecuteStatementResponse> Engine::ExecuteStatement(const v1::ExecuteStatementRequest& req) {
  Constraints c;
  c.Required(req.has_statement(), "statement");
  c.Length(IfPresent(req.has_statement(), req.statement()), 1, kMaxStatementLength, "statement");
  c.Parameters(req.has_parameters() ? &req.parameters() : nullptr, "parameters");
  c.Length(IfPresent(req.has_next_token(), req.next_token()), 1, kMaxNextTokenLength, "nextToken");
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  c.AtLeast(req.has_limit() ? std::optional(req.limit()) : std::nullopt, 1, "limit");
  CheckReturnOnFailure(c, IfPresent(req.has_return_values_on_condition_check_failure(),
                                    req.return_values_on_condition_check_failure()));
  POGI_RETURN_IF_ERROR(c.Finish());

  partiql::Parameters params = req.parameters().values();
  POGI_RETURN_IF_ERROR(partiql::CheckParameters(&params));
  POGI_ASSIGN_OR_RETURN(partiql::Statement st, partiql::Parse(req.statement(), params));

  PartiqlRunner::Options o;
  o.consistent_read = req.consistent_read();
  if (req.has_limit()) o.limit = req.limit();
  o.next_token = IfPresent(req.has_next_token(), req.next_token());
  o.capacity_mode = req.return_consumed_capacity();
  o.return_on_failure = req.return_values_on_condition_check_failure();
  // A NextToken resumes only the statement (and parameters) it was issued for.
  o.statement = req.statement();
  o.parameters = &params;
  return PartiqlRunner(*this).Run(st, req.statement(), o);
}

}  // namespace pogi::service
