// ExportTable (server-streaming: each table's definition, then its items in
// storage key order, one page in memory at a time, each record with a
// position to resume after) and ImportTable (client-streaming: creates
// tables when asked, writes items in batches of 25, reports per-item errors
// and goes on).
#include <algorithm>
#include <cstring>
#include <deque>

#include "service/rpc/admin_service.h"
#include "service/rpc/grpc_server.h"
#include "service/value/item.h"

namespace pogi::rpc {
namespace {

constexpr int kPageRows = 256;   // items read per storage read while exporting
constexpr int kBatchItems = 25;  // BatchWriteItem's limit
constexpr int kMaxReportedErrors = 100;

grpc::Status ToStatus(const Error& e) {
  GrpcError g = ToGrpcError(e);
  return grpc::Status(static_cast<grpc::StatusCode>(g.code), g.message, g.details);
}

// A position: 'T' + table name (after its definition) or 'I' + table name
// + the item's encoded key (after that item). Lengths are 4-byte prefixes.
void AppendPart(std::string* out, std::string_view part) {
  uint32_t n = static_cast<uint32_t>(part.size());
  out->append(reinterpret_cast<const char*>(&n), 4).append(part);
}
bool ReadPart(std::string_view* in, std::string* part) {
  if (in->size() < 4) return false;
  uint32_t n;
  std::memcpy(&n, in->data(), 4);
  if (in->size() - 4 < n) return false;
  *part = std::string(in->substr(4, n));
  in->remove_prefix(4 + n);
  return true;
}

class ExportReactor final : public grpc::ServerWriteReactor<v1::ExportRecord> {
 public:
  ExportReactor(service::Engine& engine, const v1::ExportTableRequest& req) : engine_(engine) {
    if (!req.table_name().empty()) {
      if (!engine_.FindTableOrNull(req.table_name())) {
        Finish(ToStatus(Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() +
                                                " not found")));
        return;
      }
      tables_.push_back(req.table_name());
    } else {
      auto stats = engine_.Stats();
      if (!stats.ok()) {
        Finish(ToStatus(stats.error()));
        return;
      }
      for (const auto& t : *stats) tables_.push_back(t.name);
    }
    if (!req.resume_after().empty() && !Resume(req.resume_after())) {
      Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "resume_after is not a position of an export"));
      return;
    }
    Next();
  }

  void OnWriteDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status(grpc::StatusCode::CANCELLED, "export cancelled"));
      return;
    }
    Next();
  }
  void OnDone() override { delete this; }

 private:
  bool Resume(std::string_view token) {
    if (token.empty() || (token[0] != 'T' && token[0] != 'I')) return false;
    char kind = token[0];
    token.remove_prefix(1);
    std::string name;
    if (!ReadPart(&token, &name)) return false;
    storage::RowPosition after;
    if (kind == 'I' && !(ReadPart(&token, &after.partition) && ReadPart(&token, &after.sort))) return false;
    while (next_table_ < tables_.size() && tables_[next_table_] < name) ++next_table_;
    if (next_table_ < tables_.size() && tables_[next_table_] == name) {
      sent_definition_ = true;
      if (kind == 'I') after_ = std::move(after);
    }
    return true;
  }

  void Next() {
    while (pending_.empty() && next_table_ < tables_.size()) {
      if (Status s = Fill(); !s.ok()) {
        Finish(ToStatus(s.error()));
        return;
      }
    }
    if (pending_.empty()) {
      Finish(grpc::Status::OK);
      return;
    }
    current_ = std::move(pending_.front());
    pending_.pop_front();
    StartWrite(&current_);
  }

  // Queues the next table definition or page of items.
  Status Fill() {
    const std::string& name = tables_[next_table_];
    auto state = engine_.LockState();
    auto table = engine_.FindTableOrNull(name);
    if (!table) return NextTable();  // dropped meanwhile
    if (!sent_definition_) {
      v1::DescribeTableRequest dreq;
      dreq.set_table_name(name);
      POGI_ASSIGN_OR_RETURN(auto d, engine_.DescribeTable(dreq));
      v1::ExportRecord r;
      *r.mutable_table() = std::move(*d.mutable_table());
      r.set_table_name(name);
      r.set_position("T");
      AppendPart(r.mutable_position(), name);
      pending_.push_back(std::move(r));
      sent_definition_ = true;
      return Status::Ok();
    }
    storage::RangeRead read;
    read.id = table->id;
    read.start_after = after_;
    int rows = 0;
    Status decode = Status::Ok();
    POGI_RETURN_IF_ERROR(engine_.ReadStorage([&](storage::ReadTxn& txn) {
      return txn.ReadRange(read, [&](const storage::Row& row) {
        auto item = value::DecodeItem(row.item);
        if (!item.ok()) {
          decode = item.error();
          return false;
        }
        v1::ExportRecord r;
        *r.mutable_item() = std::move(*item);
        r.set_table_name(name);
        r.set_position("I");
        AppendPart(r.mutable_position(), name);
        AppendPart(r.mutable_position(), row.partition);
        AppendPart(r.mutable_position(), row.sort);
        pending_.push_back(std::move(r));
        after_ = storage::RowPosition{std::string(row.partition), std::string(row.sort), "", ""};
        return ++rows < kPageRows;
      });
    }));
    POGI_RETURN_IF_ERROR(decode);
    if (rows < kPageRows) return NextTable();
    return Status::Ok();
  }

  Status NextTable() {
    ++next_table_;
    sent_definition_ = false;
    after_.reset();
    return Status::Ok();
  }

  service::Engine& engine_;
  std::vector<std::string> tables_;
  size_t next_table_ = 0;
  bool sent_definition_ = false;
  std::optional<storage::RowPosition> after_;
  std::deque<v1::ExportRecord> pending_;
  v1::ExportRecord current_;
};

// The CreateTable request that makes a table like `d`.
v1::CreateTableRequest CreateRequestFor(const v1::TableDescription& d, const std::string& name) {
  v1::CreateTableRequest c;
  c.set_table_name(name);
  *c.mutable_attribute_definitions() = d.attribute_definitions();
  *c.mutable_key_schema() = d.key_schema();
  std::string billing = d.billing_mode_summary().billing_mode();
  bool provisioned = billing != "PAY_PER_REQUEST";
  c.set_billing_mode(provisioned ? "PROVISIONED" : "PAY_PER_REQUEST");
  auto throughput = [](const v1::ProvisionedThroughputDescription& p, v1::ProvisionedThroughput* out) {
    out->set_read_capacity_units(std::max<int64_t>(1, p.read_capacity_units()));
    out->set_write_capacity_units(std::max<int64_t>(1, p.write_capacity_units()));
  };
  if (provisioned) throughput(d.provisioned_throughput(), c.mutable_provisioned_throughput());
  for (const auto& g : d.global_secondary_indexes()) {
    auto* out = c.add_global_secondary_indexes();
    out->set_index_name(g.index_name());
    *out->mutable_key_schema() = g.key_schema();
    *out->mutable_projection() = g.projection();
    if (provisioned) throughput(g.provisioned_throughput(), out->mutable_provisioned_throughput());
  }
  for (const auto& l : d.local_secondary_indexes()) {
    auto* out = c.add_local_secondary_indexes();
    out->set_index_name(l.index_name());
    *out->mutable_key_schema() = l.key_schema();
    *out->mutable_projection() = l.projection();
  }
  if (d.stream_specification().stream_enabled()) *c.mutable_stream_specification() = d.stream_specification();
  return c;
}

class ImportReactor final : public grpc::ServerReadReactor<v1::ImportRequest> {
 public:
  ImportReactor(service::Engine& engine, v1::ImportResponse* resp) : engine_(engine), resp_(resp) {
    StartRead(&req_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {  // the client has sent everything
      Flush();
      Finish(grpc::Status::OK);
      return;
    }
    ++record_;
    if (req_.has_options()) options_ = req_.options();
    if (req_.has_table()) {
      Define(req_.table());
    } else if (req_.has_item()) {
      std::string table = !options_.table_name().empty() ? options_.table_name()
                          : !req_.table_name().empty()   ? req_.table_name()
                                                         : current_table_;
      if (table.empty()) {
        Fail(table, "an item before any table definition, with no table_name");
      } else {
        if (table != batch_table_) Flush();
        batch_table_ = table;
        batch_.push_back({record_, std::move(*req_.mutable_item())});
        if (batch_.size() == kBatchItems) Flush();
      }
    }
    req_.Clear();
    StartRead(&req_);
  }

  void OnDone() override { delete this; }

 private:
  void Fail(const std::string& table, const std::string& message) {
    resp_->set_items_failed(resp_->items_failed() + 1);
    if (resp_->errors_size() >= kMaxReportedErrors) return;
    auto* e = resp_->add_errors();
    e->set_record(record_);
    e->set_table_name(table);
    e->set_message(message);
  }

  void Define(const v1::TableDescription& d) {
    Flush();
    current_table_ = !options_.table_name().empty() ? options_.table_name() : d.table_name();
    if (engine_.FindTableOrNull(current_table_) || !options_.create_tables()) return;
    auto state = engine_.LockState();
    auto created = engine_.CreateTable(CreateRequestFor(d, current_table_));
    if (!created.ok()) {
      auto* e = resp_->add_errors();
      e->set_record(record_);
      e->set_table_name(current_table_);
      e->set_message("cannot create table: " + std::string(created.error().info().short_name) + ": " +
                     created.error().message());
      return;
    }
    resp_->set_tables_created(resp_->tables_created() + 1);
  }

  // Writes the batch in one BatchWriteItem; when that fails, item by item,
  // so that each bad item is reported and the others written.
  void Flush() {
    if (batch_.empty()) return;
    auto state = engine_.LockState();
    v1::BatchWriteItemRequest bw;
    auto& list = (*bw.mutable_request_items())[batch_table_];
    for (const auto& [n, item] : batch_)
      *list.add_requests()->mutable_put_request()->mutable_item() = item.attributes();
    auto r = engine_.BatchWriteItem(bw);
    if (r.ok() && r->unprocessed_items().empty()) {
      resp_->set_items_written(resp_->items_written() + static_cast<int64_t>(batch_.size()));
    } else {
      int64_t saved = record_;
      for (auto& [n, item] : batch_) {
        v1::PutItemRequest put;
        put.set_table_name(batch_table_);
        *put.mutable_item() = std::move(item);
        auto one = engine_.PutItem(put);
        record_ = n;
        if (one.ok()) {
          resp_->set_items_written(resp_->items_written() + 1);
        } else {
          Fail(batch_table_, std::string(one.error().info().short_name) + ": " + one.error().message());
        }
      }
      record_ = saved;
    }
    batch_.clear();
  }

  service::Engine& engine_;
  v1::ImportResponse* resp_;
  v1::ImportRequest req_;
  v1::ImportOptions options_;
  int64_t record_ = 0;
  std::string current_table_;
  std::string batch_table_;
  std::vector<std::pair<int64_t, v1::Item>> batch_;
};

}  // namespace

grpc::ServerWriteReactor<v1::ExportRecord>* AdminRpcs::ExportTable(grpc::CallbackServerContext*,
                                                                   const v1::ExportTableRequest* req) {
  return new ExportReactor(engine_, *req);
}

grpc::ServerReadReactor<v1::ImportRequest>* AdminRpcs::ImportTable(grpc::CallbackServerContext*,
                                                                   v1::ImportResponse* resp) {
  return new ImportReactor(engine_, resp);
}

}  // namespace pogi::rpc
