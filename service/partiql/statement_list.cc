// CheckStatementList: one body for both statement messages, which share the
// members it checks.
#include "service/partiql/statement_list.h"

#include "service/validate/item_request.h"
#include "service/validate/request_expressions.h"
#include "service/write/multi_item.h"

namespace pogi::service {
namespace {

template <typename Statement>
void Check(Constraints& c, const google::protobuf::RepeatedPtrField<Statement>& statements, int max,
           const std::string& member) {
  int n = statements.size();
  if (n < 1 || n > max) {
    std::string rendered = "[";
    for (int i = 0; i < n; ++i) rendered += (i ? ", " : "") + RenderJava(statements.Get(i));
    c.Count(n, 1, max, rendered + "]", member);
  }
  for (int i = 0; i < n; ++i) {
    const Statement& s = statements.Get(i);
    std::string at = member + "." + std::to_string(i + 1) + ".member.";
    c.Required(s.has_statement(), at + "statement");
    c.Length(IfPresent(s.has_statement(), s.statement()), 1, 8192, at + "statement");
    c.Parameters(s.has_parameters() ? &s.parameters() : nullptr, at + "parameters");
    CheckReturnOnFailure(c,
                         IfPresent(s.has_return_values_on_condition_check_failure(),
                                   s.return_values_on_condition_check_failure()),
                         at);
  }
}

}  // namespace

void CheckStatementList(Constraints& c,
                        const google::protobuf::RepeatedPtrField<v1::BatchStatementRequest>& statements,
                        int max, const std::string& member) {
  Check(c, statements, max, member);
}

void CheckStatementList(Constraints& c,
                        const google::protobuf::RepeatedPtrField<v1::ParameterizedStatement>& statements,
                        int max, const std::string& member) {
  Check(c, statements, max, member);
}

}  // namespace pogi::service
