// PartiQL statements run on the engine: SELECT pages over the Query/Scan
// machinery, writes as the classic item requests they amount to.
#include "service/partiql/runner.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "common/base64.h"
#include "common/entry_order.h"
#include "common/sha256.h"
#include "service/engine/engine.h"
#include "service/partiql/plan.h"
#include "service/partiql/render.h"
#include "service/read/key_condition.h"
#include "service/read/read_page.h"
#include "service/read/read_request.h"
#include "service/validate/capacity.h"
#include "service/write/multi_item.h"

namespace pogi::service {
namespace {

using partiql::Statement;

// NextToken: opaque to clients. Inside: a tag, the fingerprint of the
// request it continues (so a token cannot resume another statement), the
// partition being read (Query over IN values), and the LastEvaluatedKey.
constexpr std::string_view kTokenTag = "pq1";

struct Resume {
  size_t partition = 0;
  std::optional<value::AttributeMap> start_key;
};

std::string EncodeToken(const std::string& fingerprint, const Resume& r) {
  std::string raw(kTokenTag);
  raw += fingerprint.substr(0, 16);
  raw += std::to_string(r.partition);
  raw.push_back(':');
  if (r.start_key) {
    v1::Item key;
    *key.mutable_attributes() = *r.start_key;
    raw += key.SerializeAsString();
  }
  return Base64Encode(raw);
}

Result<Resume> DecodeToken(const std::string& fingerprint, const std::string& token) {
  auto raw = Base64Decode(token);
  std::string fp = fingerprint.substr(0, 16);
  if (!raw || raw->compare(0, kTokenTag.size(), kTokenTag) != 0)
    return Error::Validation("Invalid NextToken");
  if (raw->compare(kTokenTag.size(), fp.size(), fp) != 0) {
    return Error::Validation("NextToken does not match request");
  }
  size_t at = kTokenTag.size() + fp.size();
  size_t colon = raw->find(':', at);
  if (colon == std::string::npos || colon == at || colon - at > 6)
    return Error::Validation("Invalid NextToken");
  Resume r;
  for (size_t i = at; i < colon; ++i) {
    if ((*raw)[i] < '0' || (*raw)[i] > '9') return Error::Validation("Invalid NextToken");
    r.partition = r.partition * 10 + ((*raw)[i] - '0');
  }
  if (colon + 1 < raw->size()) {
    v1::Item key;
    if (!key.ParseFromString(raw->substr(colon + 1))) return Error::Validation("Invalid NextToken");
    r.start_key = std::move(*key.mutable_attributes());
  }
  return r;
}

std::string Fingerprint(const PartiqlRunner::Options& o) {
  std::string basis(o.statement);
  if (o.parameters) {
    // Deterministic, so that equal map parameters give the same digest; the
    // streams append to `basis` and flush when this block ends.
    google::protobuf::io::StringOutputStream stream(&basis);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    for (const auto& p : *o.parameters) p.SerializeToCodedStream(&out);
  }
  auto digest = Sha256(basis);
  return ToHex(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

expr::Condition PartitionEquals(const KeyAttribute& hash, const expr::AttributeValue& v) {
  expr::Condition c;
  c.kind = expr::Condition::Kind::kCompare;
  c.op = expr::Comparator::kEq;
  expr::Operand path;
  path.kind = expr::Operand::Kind::kPath;
  path.path = {{false, hash.name, 0}};
  expr::Operand value;
  value.kind = expr::Operand::Kind::kValue;
  value.value = v;
  c.operands = {std::move(path), std::move(value)};
  return c;
}

// attribute_exists / attribute_not_exists of the partition key: whether the item is there.
expr::Condition ItemExists(const Table& table, bool exists) {
  expr::Condition c;
  c.kind = exists ? expr::Condition::Kind::kAttributeExists : expr::Condition::Kind::kAttributeNotExists;
  expr::Operand path;
  path.kind = expr::Operand::Kind::kPath;
  path.path = {{false, table.hash.name, 0}};
  c.operands.push_back(std::move(path));
  return c;
}

expr::Condition Both(expr::Condition a, std::optional<expr::Condition> b) {
  if (!b) return a;
  expr::Condition c;
  c.kind = expr::Condition::Kind::kAnd;
  c.children.push_back(std::move(a));
  c.children.push_back(std::move(*b));
  return c;
}

const char* ReturnValuesOf(partiql::Returning r) {
  switch (r) {
    case partiql::Returning::kAllOld:
      return "ALL_OLD";
    case partiql::Returning::kModifiedOld:
      return "UPDATED_OLD";
    case partiql::Returning::kAllNew:
      return "ALL_NEW";
    case partiql::Returning::kModifiedNew:
      return "UPDATED_NEW";
    case partiql::Returning::kNone:
      break;
  }
  return "NONE";
}

Error DuplicateItem() { return Error(ErrorCode::kDuplicateItem, "Duplicate primary key exists in table"); }

template <typename M>
void SetSubstitutions(const partiql::Renderer& r, M* m) {
  if (!r.names().empty()) *m->mutable_expression_attribute_names()->mutable_names() = r.names();
  if (!r.values().empty()) *m->mutable_expression_attribute_values()->mutable_attributes() = r.values();
}

}  // namespace

std::string StatementErrorCode(const Error& e) {
  switch (e.code()) {
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItem";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFound";
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflict";
    case ErrorCode::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case ErrorCode::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case ErrorCode::kAccessDenied:
      return "AccessDenied";
    case ErrorCode::kInternalServerError:
      return "InternalServerError";
    default:
      return "ValidationError";
  }
}

Result<v1::ExecuteStatementResponse> PartiqlRunner::Run(const Statement& st, std::string_view text,
                                                        const Options& options) {
  switch (st.kind) {
    case Statement::Kind::kSelect:
      return Select(st, text, options);
    case Statement::Kind::kExists:
      return Error::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
    default:
      return Write(st, text, options);
  }
}

Result<v1::ExecuteStatementResponse> PartiqlRunner::Select(const Statement& st, std::string_view text,
                                                           const Options& options) {
  POGI_ASSIGN_OR_RETURN(auto table, engine_.FindTable(st.table));
  POGI_ASSIGN_OR_RETURN(auto plan, partiql::PlanSelect(st, *table, options.consistent_read, text));
  Resume resume;
  if (options.next_token) {
    POGI_ASSIGN_OR_RETURN(resume, DecodeToken(Fingerprint(options), *options.next_token));
  }
  const Index* index = plan.index;
  std::optional<value::AttributeMap> start_key = resume.start_key;
  std::optional<storage::RowPosition> start;
  if (start_key) {
    POGI_ASSIGN_OR_RETURN(start, StartPosition(*table, index, *start_key));
  }
  POGI_ASSIGN_OR_RETURN(auto page_req, MakePageRequest(*table, index, nullptr, options.limit, plan.filter,
                                                       plan.projection, "ProjectionExpression"));
  page_req.select_list = true;
  const KeySchema keys = table->KeysOf(index);

  // The range reads the page is made of: one per partition for a Query (from
  // the one the token names), one over everything for a Scan.
  std::vector<storage::RangeRead> reads;
  if (plan.key_condition) {
    if (resume.partition != 0) return Error::Validation("Invalid NextToken");
    POGI_ASSIGN_OR_RETURN(storage::RangeRead read, CompileKeyCondition(*plan.key_condition, keys));
    reads.push_back(std::move(read));
  } else if (plan.query) {
    for (size_t i = resume.partition; i < plan.partitions.size(); ++i) {
      expr::Condition key = PartitionEquals(keys.hash[0], plan.partitions[i]);
      if (plan.sort_range) key = Both(std::move(key), plan.sort_range);
      POGI_ASSIGN_OR_RETURN(storage::RangeRead read, CompileKeyCondition(key, keys));
      reads.push_back(std::move(read));
    }
  } else {
    if (resume.partition != 0) return Error::Validation("Invalid NextToken");
    reads.emplace_back();
  }
  for (size_t i = 0; i < reads.size(); ++i) {
    storage::RangeRead& read = reads[i];
    read.id = index ? index->id : table->id;
    read.is_index = index != nullptr;
    read.forward = plan.forward;
    read.with_keys = page_req.fetch_from_table;
    if (i == 0 && start) {
      if (plan.query) {
        if (start->partition != *read.partition) return Error::Validation("NextToken does not match request");
        if (read.forward) {
          if (!read.sort_lo || *read.sort_lo < start->sort)
            read.sort_lo = start->sort, read.exclude_lo.reset();
        } else {
          if (!read.sort_hi || *read.sort_hi > start->sort)
            read.sort_hi = start->sort, read.exclude_hi.reset();
        }
      }
      read.start_after = *start;
    }
  }

  std::string items;
  int64_t bytes = 0, evaluated = 0;
  std::optional<Resume> next;
  // An eventually consistent SELECT (and any of a global index) lags like
  // the other reads.
  bool eventual = !options.consistent_read || (index && index->global);
  Status s = engine_.storage_->Read([&](storage::ReadTxn& txn) -> Status {
    std::optional<LaggedReadTxn> lagged;
    storage::ReadTxn& view = ReadView(txn, engine_.read_lag_, *table, eventual, lagged);
    for (size_t i = 0; i < reads.size(); ++i) {
      PageRequest req = page_req;
      if (options.limit) req.limit = *options.limit - evaluated;
      POGI_ASSIGN_OR_RETURN(Page page, ReadPage(view, reads[i], req));
      items += page.items;
      bytes += page.bytes_read;
      evaluated += page.scanned_count;
      size_t partition = resume.partition + i;
      if (page.last_evaluated_key) {
        next = Resume{partition, std::move(page.last_evaluated_key)};
        return Status::Ok();
      }
      bool more = i + 1 < reads.size();
      if (more && ((options.limit && evaluated >= *options.limit) || bytes >= kMaxPageBytes)) {
        next = Resume{partition + 1, std::nullopt};
        return Status::Ok();
      }
    }
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);

  v1::ExecuteStatementResponse resp;
  resp.mutable_items();
  if (!items.empty())
    value::CarryItemList(&resp, v1::ExecuteStatementResponse::kItemsFieldNumber, std::move(items));
  if (next) {
    resp.set_next_token(EncodeToken(Fingerprint(options), *next));
    if (next->start_key) *resp.mutable_last_evaluated_key() = *next->start_key;
  }
  if (WantsCapacity(options.capacity_mode)) {
    double units = ReadUnits(bytes, options.consistent_read);
    if (index) {
      FillIndexReadConsumed(options.capacity_mode, table->description.table_name(),
                            {index->name, index->global, units}, 0, resp.mutable_consumed_capacity());
    } else {
      FillConsumed(options.capacity_mode, table->description.table_name(), units,
                   resp.mutable_consumed_capacity());
    }
  }
  return resp;
}

Result<v1::ExecuteStatementResponse> PartiqlRunner::Write(const Statement& st, std::string_view text,
                                                          const Options& options) {
  POGI_ASSIGN_OR_RETURN(v1::TransactWriteItem action, ToTransactWrite(st, text, options.return_on_failure));
  v1::ExecuteStatementResponse resp;
  resp.mutable_items();
  // An UpdateItem or DeleteItem answer's Attributes (field 1 of both), in
  // the order they carry.
  auto returned = [&](const auto& answer) {
    std::string proto = value::CarriedAttributeMap(answer, 1).value_or(value::ItemProto(answer.attributes()));
    if (!proto.empty()) {
      value::CarryAttributeMap(resp.mutable_items()->add_items(), v1::Item::kAttributesFieldNumber, proto);
    }
  };
  auto capacity = [&](const v1::ConsumedCapacity& c, bool has) {
    if (has && WantsCapacity(options.capacity_mode)) *resp.mutable_consumed_capacity() = c;
  };
  if (action.has_put()) {
    v1::PutItemRequest req;
    const v1::Put& p = action.put();
    req.set_table_name(p.table_name());
    *req.mutable_item()->mutable_attributes() = p.item();
    req.set_condition_expression(p.condition_expression());
    *req.mutable_expression_attribute_names() = p.expression_attribute_names();
    if (!options.capacity_mode.empty()) req.set_return_consumed_capacity(options.capacity_mode);
    // The item's maps in the order the statement wrote them.
    ListedEntryOrder order(&st.map_orders, CurrentEntryOrder());
    EntryOrderScope scope(&order);
    auto r = engine_.PutItem(req);
    if (!r.ok()) {
      if (r.error().code() == ErrorCode::kConditionalCheckFailed) return DuplicateItem();
      return TransactionValidation(std::move(r).error());
    }
    capacity(r->consumed_capacity(), r->has_consumed_capacity());
    return resp;
  }
  if (action.has_update()) {
    v1::UpdateItemRequest req;
    const v1::Update& u = action.update();
    req.set_table_name(u.table_name());
    *req.mutable_key()->mutable_attributes() = u.key();
    req.set_update_expression(u.update_expression());
    req.set_condition_expression(u.condition_expression());
    if (u.has_expression_attribute_names())
      *req.mutable_expression_attribute_names() = u.expression_attribute_names();
    if (u.has_expression_attribute_values())
      *req.mutable_expression_attribute_values() = u.expression_attribute_values();
    req.set_return_values(ReturnValuesOf(st.returning));
    if (!options.return_on_failure.empty())
      req.set_return_values_on_condition_check_failure(options.return_on_failure);
    if (!options.capacity_mode.empty()) req.set_return_consumed_capacity(options.capacity_mode);
    auto updated = engine_.UpdateItem(req);
    if (!updated.ok()) return TransactionValidation(std::move(updated).error());
    auto& r = *updated;
    returned(r);
    capacity(r.consumed_capacity(), r.has_consumed_capacity());
    return resp;
  }
  v1::DeleteItemRequest req;
  const v1::Delete& d = action.delete_();
  req.set_table_name(d.table_name());
  *req.mutable_key()->mutable_attributes() = d.key();
  if (d.has_condition_expression()) req.set_condition_expression(d.condition_expression());
  if (d.has_expression_attribute_names())
    *req.mutable_expression_attribute_names() = d.expression_attribute_names();
  if (d.has_expression_attribute_values())
    *req.mutable_expression_attribute_values() = d.expression_attribute_values();
  req.set_return_values(ReturnValuesOf(st.returning));
  if (!options.return_on_failure.empty())
    req.set_return_values_on_condition_check_failure(options.return_on_failure);
  if (!options.capacity_mode.empty()) req.set_return_consumed_capacity(options.capacity_mode);
  auto deleted = engine_.DeleteItem(req);
  if (!deleted.ok()) return TransactionValidation(std::move(deleted).error());
  auto& r = *deleted;
  returned(r);
  capacity(r.consumed_capacity(), r.has_consumed_capacity());
  return resp;
}

Result<v1::TransactWriteItem> PartiqlRunner::ToTransactWrite(const Statement& st, std::string_view text,
                                                             const std::string& return_on_failure) {
  POGI_ASSIGN_OR_RETURN(auto table, engine_.FindTable(st.table));
  v1::TransactWriteItem out;
  partiql::Renderer r;
  auto failure = [&](auto* m) {
    if (!return_on_failure.empty()) m->set_return_values_on_condition_check_failure(return_on_failure);
  };
  if (st.kind == Statement::Kind::kInsert) {
    v1::Put* p = out.mutable_put();
    p->set_table_name(st.table);
    *p->mutable_item() = st.item.m().fields();
    p->set_condition_expression(r.Condition(ItemExists(*table, false)));
    SetSubstitutions(r, p);
    return out;
  }
  POGI_ASSIGN_OR_RETURN(auto target, partiql::ToKeyedTarget(st, *table, text));
  switch (st.kind) {
    case Statement::Kind::kUpdate: {
      POGI_ASSIGN_OR_RETURN(expr::Update update, partiql::ToUpdate(st, text));
      v1::Update* u = out.mutable_update();
      u->set_table_name(st.table);
      *u->mutable_key() = target.key;
      // An UPDATE changes an item that is there; it never creates one.
      u->set_condition_expression(r.Condition(Both(ItemExists(*table, true), std::move(target.condition))));
      u->set_update_expression(r.Update(update));
      SetSubstitutions(r, u);
      failure(u);
      return out;
    }
    case Statement::Kind::kDelete: {
      v1::Delete* d = out.mutable_delete_();
      d->set_table_name(st.table);
      *d->mutable_key() = target.key;
      if (target.condition) d->set_condition_expression(r.Condition(*target.condition));
      SetSubstitutions(r, d);
      failure(d);
      return out;
    }
    case Statement::Kind::kExists: {
      if (!target.condition) {
        return Error::Validation("EXISTS() must contain a single item read with additional condition");
      }
      v1::ConditionCheck* c = out.mutable_condition_check();
      c->set_table_name(st.table);
      *c->mutable_key() = target.key;
      c->set_condition_expression(r.Condition(Both(ItemExists(*table, true), std::move(target.condition))));
      SetSubstitutions(r, c);
      failure(c);
      return out;
    }
    default:
      return Error::Validation("Unsupported operation in transaction.");
  }
}

Result<PartiqlRunner::PointRead> PartiqlRunner::ToPointRead(const Statement& st, std::string_view text) {
  PointRead p;
  POGI_ASSIGN_OR_RETURN(p.table, engine_.FindTable(st.table));
  POGI_ASSIGN_OR_RETURN(auto target, partiql::ToKeyedTarget(st, *p.table, text));
  p.key = std::move(target.key);
  p.condition = std::move(target.condition);
  if (!st.projection.empty()) p.projection = expr::Projection{st.projection};
  return p;
}

}  // namespace pogi::service
