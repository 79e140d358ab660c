// The operation table.
#include "service/engine/operations.h"

#include <google/protobuf/descriptor.h>

#include <array>

#include "service/engine/engine.h"
#include "service/engine/throttled_call.h"

namespace pogi::service {
namespace {

using google::protobuf::Message;

// Runs an operation once, under a catalog check (storage::CatalogCheck):
// `confirmed` tells whether one of its transactions confirmed the catalog.
template <typename Req, typename Resp, Result<Resp> (Engine::*Method)(const Req&)>
Result<Resp> RunChecked(Engine& engine, const Req& req, bool* confirmed) {
  storage::CatalogCheck check;
  Result<Resp> r = [&]() -> Result<Resp> {
    auto state = engine.LockState();  // a snapshot restore waits for us
    POGI_RETURN_IF_ERROR(engine.SettleTransitions());
    return engine.throttle().active()
               ? throttled::Call<Req, Resp>(engine, req, [&](const Req& r) { return (engine.*Method)(r); })
               : (engine.*Method)(req);
  }();
  *confirmed = check.confirmed();
  return r;
}

// Catalog changes other processes sharing the database made are followed
// without a round trip of their own: the operation's first transaction
// confirms the catalog it ran on, or fails when it moved (kCatalogMoved).
// An operation none of whose transactions confirmed it (one that failed
// before reaching storage, one that reads only the catalog, every one on
// SQLite) looks afterwards, and runs again if the catalog had moved: so a
// table made or deleted through another process is seen at the next request.
template <typename Req, typename Resp, Result<Resp> (Engine::*Method)(const Req&)>
Result<std::unique_ptr<Message>> Invoke(Engine& engine, const Message& request) {
  const Req& req = static_cast<const Req&>(request);
  POGI_RETURN_IF_ERROR(engine.Follow(/*look=*/false));
  for (int run = 1;; run++) {
    bool confirmed = false;
    const int64_t followed = engine.followed_catalog_changes();
    Result<Resp> r = RunChecked<Req, Resp, Method>(engine, req, &confirmed);
    if (!confirmed && run < 3) {
      POGI_RETURN_IF_ERROR(engine.Follow(/*look=*/true));
      // Reloaded since the run began (here, or by another thread).
      if (engine.followed_catalog_changes() != followed) continue;
      if (!r.ok() && r.error().code() == ErrorCode::kCatalogMoved) continue;
    }
    if (!r.ok()) return std::move(r).error();
    return std::unique_ptr<Message>(new Resp(std::move(r).value()));
  }
}

#define POGI_OP(Name)                                                                       \
  Operation {                                                                               \
#Name, &v1::Name##Request::default_instance(), &v1::Name##Response::default_instance(), \
        &Invoke < v1::Name##Request, v1::Name##Response, &Engine::Name>                     \
  }

#define POGI_STREAMS_OP(Name)                                                               \
  Operation {                                                                               \
#Name, &v1::Name##Request::default_instance(), &v1::Name##Response::default_instance(), \
        &Invoke < v1::Name##Request, v1::Name##Response, &Engine::Name>, Api::kStreams      \
  }

const std::array kOperations = {
    POGI_OP(CreateTable),
    POGI_OP(DeleteTable),
    POGI_OP(DescribeTable),
    POGI_OP(GetItem),
    POGI_OP(ListTables),
    POGI_OP(PutItem),
    POGI_OP(DeleteItem),
    POGI_OP(UpdateItem),
    POGI_OP(Query),
    POGI_OP(Scan),
    POGI_OP(UpdateTable),
    POGI_OP(BatchGetItem),
    POGI_OP(BatchWriteItem),
    POGI_OP(TransactWriteItems),
    POGI_OP(TransactGetItems),
    POGI_OP(UpdateTimeToLive),
    POGI_OP(DescribeTimeToLive),
    POGI_STREAMS_OP(ListStreams),
    POGI_STREAMS_OP(DescribeStream),
    POGI_STREAMS_OP(GetShardIterator),
    POGI_STREAMS_OP(GetRecords),
    // The control plane.
    POGI_OP(TagResource),
    POGI_OP(UntagResource),
    POGI_OP(ListTagsOfResource),
    POGI_OP(DescribeLimits),
    POGI_OP(DescribeEndpoints),
    POGI_OP(PutResourcePolicy),
    POGI_OP(GetResourcePolicy),
    POGI_OP(DeleteResourcePolicy),
    POGI_OP(DescribeContributorInsights),
    POGI_OP(UpdateContributorInsights),
    POGI_OP(ListContributorInsights),
    POGI_OP(CreateBackup),
    POGI_OP(DescribeBackup),
    POGI_OP(ListBackups),
    POGI_OP(DeleteBackup),
    POGI_OP(RestoreTableFromBackup),
    POGI_OP(UpdateContinuousBackups),
    POGI_OP(DescribeContinuousBackups),
    POGI_OP(RestoreTableToPointInTime),
    POGI_OP(ExportTableToPointInTime),
    POGI_OP(DescribeExport),
    POGI_OP(ListExports),
    POGI_OP(ImportTable),
    POGI_OP(DescribeImport),
    POGI_OP(ListImports),
    POGI_OP(StartBulkPutItems),
    POGI_OP(DescribeBulkOperation),
    POGI_OP(ListBulkOperations),
    POGI_OP(CancelBulkOperation),
    POGI_OP(ExecuteStatement),
    POGI_OP(BatchExecuteStatement),
    POGI_OP(ExecuteTransaction),
    POGI_OP(SearchVectors),
    POGI_OP(EnableKinesisStreamingDestination),
    POGI_OP(DisableKinesisStreamingDestination),
    POGI_OP(DescribeKinesisStreamingDestination),
    POGI_OP(UpdateKinesisStreamingDestination),
    POGI_OP(CreateGlobalTable),
    POGI_OP(UpdateGlobalTable),
    POGI_OP(DescribeGlobalTable),
    POGI_OP(ListGlobalTables),
    POGI_OP(DescribeGlobalTableSettings),
    POGI_OP(UpdateGlobalTableSettings),
    POGI_OP(DescribeTableReplicaAutoScaling),
    POGI_OP(UpdateTableReplicaAutoScaling),
};

// The table name of `request` when it is a `Req` (its type `type`).
template <typename Req>
bool TableNameIf(const google::protobuf::Descriptor* type, const Message& request, std::string* name) {
  if (type != Req::descriptor()) return false;
  *name = static_cast<const Req&>(request).table_name();
  return true;
}

}  // namespace

std::string TableNameOf(const Message& request) {
  // Metrics ask this of every request: the item operations read their
  // member directly (reflection costs ~400 instructions a call), the others
  // through the field of the message type asked last on this thread (a
  // descriptor look-up by name costs ~700 more).
  const google::protobuf::Descriptor* type = request.GetDescriptor();
  std::string name;
  if (TableNameIf<v1::GetItemRequest>(type, request, &name) ||
      TableNameIf<v1::PutItemRequest>(type, request, &name) ||
      TableNameIf<v1::UpdateItemRequest>(type, request, &name) ||
      TableNameIf<v1::DeleteItemRequest>(type, request, &name) ||
      TableNameIf<v1::QueryRequest>(type, request, &name) ||
      TableNameIf<v1::ScanRequest>(type, request, &name)) {
    return name;
  }
  thread_local const google::protobuf::Descriptor* last_type = nullptr;
  thread_local const google::protobuf::FieldDescriptor* last_field = nullptr;
  if (type != last_type) {
    last_type = type;
    last_field = last_type->FindFieldByName("table_name");
    if (last_field &&
        (last_field->type() != google::protobuf::FieldDescriptor::TYPE_STRING || last_field->is_repeated())) {
      last_field = nullptr;
    }
  }
  return last_field ? request.GetReflection()->GetString(request, last_field) : std::string();
}

const Operation* FindOperation(std::string_view name) { return FindOperation(Api::kDynamoDB, name); }

const Operation* FindOperation(Api api, std::string_view name) {
  for (const auto& op : kOperations) {
    if (op.api == api && op.name == name) return &op;
  }
  return nullptr;
}

}  // namespace pogi::service
