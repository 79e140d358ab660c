// PartiqlRunner: runs parsed PartiQL statements on the engine. A SELECT
// reads one page through the Query/Scan machinery (key condition compiled to
// a range read, the rest of the WHERE as the filter, NextToken paging); an
// INSERT, UPDATE or DELETE runs as the PutItem, UpdateItem or DeleteItem it
// amounts to, and a transaction's statements become TransactWriteItems or
// TransactGetItems actions, so every write takes the one write path.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/catalog.h"
#include "service/partiql/ast.h"
#include "service/value/item.h"

namespace pogi::service {

class Engine;

class PartiqlRunner {
 public:
  explicit PartiqlRunner(Engine& engine) : engine_(engine) {}

  struct Options {
    bool consistent_read = false;
    std::optional<int64_t> limit;
    const std::string* next_token = nullptr;
    std::string capacity_mode;      // ReturnConsumedCapacity
    std::string return_on_failure;  // ReturnValuesOnConditionCheckFailure
    // What a NextToken must have been issued for: the statement and its
    // parameters (their digest is computed only when a token is involved).
    std::string_view statement;
    const google::protobuf::RepeatedPtrField<expr::AttributeValue>* parameters = nullptr;
  };

  // One statement of ExecuteStatement (EXISTS is refused: transactions only).
  Result<v1::ExecuteStatementResponse> Run(const partiql::Statement& st, std::string_view text,
                                           const Options& options);

  // A write statement (INSERT, UPDATE, DELETE, EXISTS) as a transaction action.
  Result<v1::TransactWriteItem> ToTransactWrite(const partiql::Statement& st, std::string_view text,
                                                const std::string& return_on_failure);

  // A SELECT naming one item by its full key (batches and transactions):
  // the table, the key, what else the WHERE asks of the item, the projection.
  struct PointRead {
    std::shared_ptr<const Table> table;
    value::AttributeMap key;
    std::optional<expr::Condition> condition;
    std::optional<expr::Projection> projection;
  };
  Result<PointRead> ToPointRead(const partiql::Statement& st, std::string_view text);

 private:
  Result<v1::ExecuteStatementResponse> Select(const partiql::Statement& st, std::string_view text,
                                              const Options& options);
  Result<v1::ExecuteStatementResponse> Write(const partiql::Statement& st, std::string_view text,
                                             const Options& options);

  Engine& engine_;
};

// The code of a BatchStatementError or CancellationReason for an error
// ("ConditionalCheckFailed", "DuplicateItem", "ValidationError", ...).
std::string StatementErrorCode(const Error& e);

}  // namespace pogi::service
