// Engine: DynamoDB's operations over storage. It validates each request,
// runs it atomically, and returns a proto response or a pogi::Error. It knows
// nothing of HTTP, JSON or gRPC; both front doors call it. Thread-safe.
//
// Each operation lives in its own file under service/actions/.
#pragma once

#include <memory>
#include <shared_mutex>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/catalog.h"
#include "service/clock.h"
#include "service/faults.h"
#include "service/metrics.h"
#include "service/request_observers.h"
#include "service/transaction_tokens.h"
#include "storage/storage.h"

namespace pogi::service {

struct TableStats {
  std::string name;
  std::string status;
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

class Engine {
 public:
  // Opens storage and loads the catalog.
  // `item_collection_limit` is DynamoDB's 10 GB unless a test lowers it.
  static Result<std::unique_ptr<Engine>> Open(const storage::Options& options,
                                              std::shared_ptr<const Clock> clock,
                                              int64_t item_collection_limit = kMaxItemCollectionBytes);

  Result<v1::CreateTableResponse> CreateTable(const v1::CreateTableRequest& req);
  Result<v1::DescribeTableResponse> DescribeTable(const v1::DescribeTableRequest& req);
  Result<v1::DeleteTableResponse> DeleteTable(const v1::DeleteTableRequest& req);
  Result<v1::ListTablesResponse> ListTables(const v1::ListTablesRequest& req);
  Result<v1::PutItemResponse> PutItem(const v1::PutItemRequest& req);
  Result<v1::GetItemResponse> GetItem(const v1::GetItemRequest& req);
  Result<v1::DeleteItemResponse> DeleteItem(const v1::DeleteItemRequest& req);
  Result<v1::UpdateItemResponse> UpdateItem(const v1::UpdateItemRequest& req);
  Result<v1::QueryResponse> Query(const v1::QueryRequest& req);
  Result<v1::ScanResponse> Scan(const v1::ScanRequest& req);
  Result<v1::UpdateTableResponse> UpdateTable(const v1::UpdateTableRequest& req);
  Result<v1::BatchGetItemResponse> BatchGetItem(const v1::BatchGetItemRequest& req);
  Result<v1::BatchWriteItemResponse> BatchWriteItem(const v1::BatchWriteItemRequest& req);
  Result<v1::TransactWriteItemsResponse> TransactWriteItems(const v1::TransactWriteItemsRequest& req);
  Result<v1::TransactGetItemsResponse> TransactGetItems(const v1::TransactGetItemsRequest& req);

  // For the admin service: every table with its live counters.
  Result<std::vector<TableStats>> Stats();

  const Clock& clock() const { return *clock_; }

  // Admin (engine_admin.cc). Reset drops every table (`names` empty) or the
  // named ones at once; returns the names dropped.
  Result<std::vector<std::string>> Reset(const std::vector<std::string>& names);
  // Snapshots of the whole database; a restore reloads the catalog.
  Status CreateSnapshot(const std::string& name);
  Status RestoreSnapshot(const std::string& name);
  Result<std::vector<storage::SnapshotRecord>> ListSnapshots();
  Status DeleteSnapshot(const std::string& name);
  // Every operation of the operation table runs holding this shared; a
  // restore holds it exclusively, so a request sees the old state or the
  // new one, never a mix.
  std::shared_lock<std::shared_mutex> LockState() { return std::shared_lock(state_mu_); }
  // Reads for export: `fn` runs in one storage read transaction.
  Status ReadStorage(const std::function<Status(storage::ReadTxn&)>& fn) { return storage_->Read(fn); }
  // The table named `name`, or null.
  std::shared_ptr<const Table> FindTableOrNull(const std::string& name) const { return catalog_.Find(name); }

  // Both front doors publish each answered request here (request log,
  // metrics, the admin request tail).
  RequestObservers& request_observers() { return request_observers_; }

  // Fault rules; both doors check them before running an operation.
  Faults& faults() { return faults_; }
  // Per-operation metrics, collected from the first time someone asks.
  Metrics& metrics() {
    metrics_.Start(request_observers_, clock_->Now());
    return metrics_;
  }

 private:
  Engine(std::unique_ptr<storage::Storage> storage, std::shared_ptr<const Clock> clock,
         int64_t item_collection_limit)
      : storage_(std::move(storage)), clock_(std::move(clock)), catalog_(item_collection_limit) {}

  // Loads the catalog from storage, replacing what it held.
  Status LoadCatalog();
  // The table named `name`, or DynamoDB's ResourceNotFoundException.
  Result<std::shared_ptr<const Table>> FindTable(const std::string& name) const;
  // The full description of `table`, live counters included.
  Result<v1::TableDescription> Describe(const Table& table);

  std::unique_ptr<storage::Storage> storage_;
  std::shared_ptr<const Clock> clock_;
  Catalog catalog_;
  TransactionTokens tokens_;  // TransactWriteItems ClientRequestToken idempotency
  RequestObservers request_observers_;
  std::shared_mutex state_mu_;
  Faults faults_;
  Metrics metrics_;  // after request_observers_: removes its observer first
};

}  // namespace pogi::service
