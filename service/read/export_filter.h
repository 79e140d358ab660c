// An export's FilterSpecification (ExportTableToPointInTime): which items
// a full or incremental export writes and which of their attributes. The
// KeyConditionExpression follows Query's rules on the table's keys (one
// partition key value, an optional sort key condition), the
// FilterExpression Scan's (on key attributes too, unless a key condition is
// given), the ProjectionExpression every read's; checked once when the
// export is asked for, with DynamoDB's messages, and applied by the job.
#pragma once

#include <optional>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/expr/ast.h"
#include "service/value/item.h"

namespace pogi::service {

class ExportFilter {
 public:
  // `spec` checked against `table`'s key schema.
  static Result<ExportFilter> Make(const v1::FilterSpecification& spec, const Table& table);

  // Whether the export writes `item` (for an incremental export: the
  // change's new image, or the old one of a deletion, as DynamoDB
  // evaluates it).
  Result<bool> Selects(const value::AttributeMap& item) const;
  // `item` as the export writes it: the projection's attributes, or all.
  value::AttributeMap Project(const value::AttributeMap& item) const;
  bool projects() const { return projection_.has_value(); }

 private:
  std::optional<expr::Condition> key_condition_, filter_;
  std::optional<expr::Projection> projection_;
};

}  // namespace pogi::service
