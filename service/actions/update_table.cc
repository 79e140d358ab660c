// UpdateTable: billing mode and throughput, deletion protection, and global
// secondary and vector indexes created (with a backfill of the existing
// items) or deleted.
#include <map>
#include <set>

#include "service/engine/engine.h"
#include "service/streams/stream_settings.h"
#include "service/validate/control_plane.h"
#include "service/validate/index_schema.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/request_expressions.h"
#include "service/validate/vector_index.h"
#include "service/write/index_entries.h"
#include "service/write/item_write.h"
#include "service/write/vector_entries.h"

namespace pogi::service {
namespace {

Status CheckMembers(const v1::UpdateTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  for (int i = 0; i < req.attribute_definitions_size(); ++i) {
    const auto& a = req.attribute_definitions(i);
    std::string at = "attributeDefinitions." + std::to_string(i + 1) + ".member.";
    c.Required(a.has_attribute_name(), at + "attributeName");
    c.Length(IfPresent(a.has_attribute_name(), a.attribute_name()), 1, 255, at + "attributeName");
    c.Required(a.has_attribute_type(), at + "attributeType");
    c.OneOf(IfPresent(a.has_attribute_type(), a.attribute_type()), {"B", "N", "S"}, at + "attributeType");
  }
  c.OneOf(IfPresent(req.has_billing_mode(), req.billing_mode()), {"PROVISIONED", "PAY_PER_REQUEST"},
          "billingMode");
  if (req.has_sse_specification()) {
    const auto& sse = req.sse_specification();
    c.OneOf(IfPresent(sse.has_sse_type(), sse.sse_type()), {"AES256", "KMS"}, "sSESpecification.sSEType");
  }
  if (req.has_provisioned_throughput())
    CheckThroughput(c, req.provisioned_throughput(), "provisionedThroughput");
  c.OneOf(IfPresent(req.has_table_class(), req.table_class()), {"STANDARD", "STANDARD_INFREQUENT_ACCESS"},
          "tableClass");
  if (req.has_stream_specification())
    CheckStreamMembers(c, req.stream_specification(), "streamSpecification");
  for (int i = 0; i < req.global_secondary_index_updates_size(); ++i) {
    const auto& u = req.global_secondary_index_updates(i);
    std::string at = "globalSecondaryIndexUpdates." + std::to_string(i + 1) + ".member";
    if (u.has_create()) {
      const auto& g = u.create();
      CheckIndexMembers(c, g.has_index_name() ? &g.index_name() : nullptr, g.key_schema(), KeySchemaSent(g),
                        g.has_projection() ? &g.projection() : nullptr,
                        g.has_provisioned_throughput() ? &g.provisioned_throughput() : nullptr,
                        at + ".create", /*global=*/true);
    }
    if (u.has_delete_()) {
      const auto& d = u.delete_();
      CheckTableName(c, d.has_index_name() ? &d.index_name() : nullptr, at + ".delete.indexName");
    }
    if (u.has_update()) {
      const auto& d = u.update();
      CheckTableName(c, d.has_index_name() ? &d.index_name() : nullptr, at + ".update.indexName");
    }
  }
  CheckVectorIndexUpdateMembers(c, req.vector_index_updates());
  return c.Finish();
}

// Writes an entry into `index` for every item of the table that has its key,
// streaming: the items are never all in memory.
Status Backfill(storage::WriteTxn& txn, const Table& table, const Index& index) {
  storage::RangeRead all;
  all.id = table.id;
  std::optional<Error> failure;
  POGI_RETURN_IF_ERROR(txn.ReadRange(all, [&](const storage::Row& row) {
    auto item = value::DecodeItem(row.item);
    if (!item.ok()) {
      failure = item.error();
      return false;
    }
    // Items whose index key has another type, or a value no key may hold
    // (empty, or over the size limits), stay out of the index, as DynamoDB's
    // backfill leaves them (it reports them as violations). Items written
    // since the index exists were refused such values.
    auto index_key = IndexKeyOf(index, item->attributes());
    if (!index_key || !CheckIndexKeyValues(index, item->attributes()).ok()) return true;
    value::AttributeMap projected = ProjectForIndex(table, index, item->attributes());
    storage::EncodedKey key{std::string(row.partition), std::string(row.sort)};
    Status put = txn.PutIndexEntry(index.id, *index_key, key, value::EncodeItem(projected),
                                   value::ItemSize(projected));
    if (!put.ok()) failure = put.error();
    return put.ok();
  }));
  if (failure) return *failure;
  return Status::Ok();
}

// The KeyType `attribute` has in the table's or an index's key schema
// (`fallback` when it is in none).
std::string KeyTypeOf(const v1::TableDescription& d, const std::string& attribute,
                      const std::string& fallback) {
  auto find = [&](const auto& ks) -> const std::string* {
    for (const auto& k : ks) {
      if (k.attribute_name() == attribute) return &k.key_type();
    }
    return nullptr;
  };
  if (auto* t = find(d.key_schema())) return *t;
  for (const auto& g : d.global_secondary_indexes()) {
    if (auto* t = find(g.key_schema())) return *t;
  }
  for (const auto& l : d.local_secondary_indexes()) {
    if (auto* t = find(l.key_schema())) return *t;
  }
  return fallback;
}

constexpr std::string_view kInUse = "Attempt to change a resource which is still in use: ";

// What DynamoDB refuses while the table or one of its indexes is in a
// transient state (core/transitions.h), with its messages, in its order:
// the table being created or deleted; an action on an index in transition;
// a second online index change; the table's capacity while an index is
// being deleted; anything but deletion protection while the table is
// UPDATING.
Status CheckAdmitted(const v1::UpdateTableRequest& req, const v1::TableDescription& d) {
  POGI_RETURN_IF_ERROR(CheckTableChangeable(d, /*updating_too=*/false));
  if (d.pogi_transitions().empty()) return Status::Ok();
  const std::string& table = d.table_name();
  std::string deleting_backfill;  // an index whose Delete ends its backfill
  for (const auto& u : req.global_secondary_index_updates()) {
    if (u.has_create()) continue;
    const std::string& name = u.has_delete_() ? u.delete_().index_name() : u.update().index_name();
    const v1::PogiTransition* phase = CurrentPhase(d, name);
    if (!phase) continue;
    const std::string where = " Table: " + table + " Index: " + name;
    if (phase->phase() == kIndexDeleting) {
      return Error::ResourceInUse(std::string(kInUse) + "Index is being deleted." + where);
    }
    if (u.has_delete_() && phase->phase() == kIndexCreating) {
      return Error::ResourceInUse(std::string(kInUse) +
                                  "Index creation is in resource allocation phase. Retry deletion during "
                                  "backfilling phase or when the index is active." +
                                  where);
    }
    if (u.has_delete_() && phase->phase() == kIndexBackfilling) {
      deleting_backfill = name;  // DynamoDB accepts it
      continue;
    }
    if (phase->phase() == kIndexUpdating) {
      return Error::ResourceInUse(std::string(kInUse) + "Index is being updated." + where);
    }
    return Error::ResourceInUse(std::string(kInUse) + "Index is being created." + where);
  }
  for (const auto& u : req.vector_index_updates()) {
    const std::string& name = u.has_create() ? u.create().index_name() : u.delete_().index_name();
    const v1::PogiTransition* phase = CurrentPhase(d, name);
    if (!phase) continue;
    const std::string where = " Table: " + table + " Index: " + name;
    if (phase->phase() == kIndexDeleting) {
      return Error::ResourceInUse(std::string(kInUse) + "Index is being deleted." + where);
    }
    if (u.has_delete_() && phase->phase() == kIndexCreating) {
      return Error::ResourceInUse(std::string(kInUse) +
                                  "Index creation is in resource allocation phase. Retry deletion during "
                                  "backfilling phase or when the index is active." +
                                  where);
    }
    if (u.has_delete_() && phase->phase() == kIndexBackfilling) {
      deleting_backfill = name;  // DynamoDB accepts it
      continue;
    }
    // Two spaces after the full stop: DynamoDB's text for a vector index.
    return Error::ResourceInUse(std::string(kInUse) + "Index is being created. " + where);
  }
  bool online_change = false;
  for (const auto& u : req.global_secondary_index_updates())
    online_change |= u.has_create() || u.has_delete_();
  online_change |= req.vector_index_updates_size() > 0;
  std::vector<std::string> being_deleted;
  for (const auto& t : d.pogi_transitions()) {
    bool online =
        t.phase() == kIndexCreating || t.phase() == kIndexBackfilling || t.phase() == kIndexDeleting;
    if (online_change && online && t.subject() != deleting_backfill) {
      return Error::LimitExceeded(
          "Subscriber limit exceeded: Only 1 online index can be created or deleted "
          "simultaneously per table");
    }
    if (t.phase() == kIndexDeleting) being_deleted.push_back(t.subject());
  }
  if (!being_deleted.empty() && (req.has_billing_mode() || req.has_provisioned_throughput())) {
    std::string list;
    for (const auto& n : being_deleted) list += (list.empty() ? "" : ", ") + n;
    return Error::ResourceInUse(std::string(kInUse) +
                                "Can't change table IOPS when an index is being deleted. Table: " + table +
                                " Indexes: [" + list + "]");
  }
  bool only_protection =
      req.has_deletion_protection_enabled() && !req.has_billing_mode() && !req.has_provisioned_throughput() &&
      req.global_secondary_index_updates_size() == 0 && req.vector_index_updates_size() == 0 &&
      !req.has_stream_specification() && !req.has_sse_specification() && !req.has_table_class() &&
      !req.has_on_demand_throughput() && !req.has_warm_throughput();
  if (!only_protection && deleting_backfill.empty()) return CheckTableChangeable(d, /*updating_too=*/true);
  return Status::Ok();
}

}  // namespace

Result<v1::UpdateTableResponse> Engine::UpdateTable(const v1::UpdateTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckMembers(req));
  // Global tables' replicas (actions/table_replicas.cc).
  if (req.replica_updates_size() > 0 || req.global_table_witness_updates_size() > 0 ||
      req.has_multi_region_consistency())
    return UpdateReplicas(req);
  bool changes_something = req.has_billing_mode() || req.has_provisioned_throughput() ||
                           req.global_secondary_index_updates_size() > 0 || req.has_stream_specification() ||
                           req.has_sse_specification() || req.has_deletion_protection_enabled() ||
                           req.has_table_class() || req.has_on_demand_throughput() ||
                           req.has_warm_throughput() || req.vector_index_updates_size() > 0;
  if (!changes_something) {
    return Error::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates or "
        "SSESpecification or ReplicaUpdates or DeletionProtectionEnabled is required");
  }
  // Before the table is looked up, whatever the table's mode (2020 record).
  if (req.billing_mode() == "PROVISIONED" && !req.has_provisioned_throughput()) {
    return Error::InvalidParameter("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
  }
  if (req.has_stream_specification()) {
    POGI_RETURN_IF_ERROR(CheckStreamSpecification(req.stream_specification(), false));
  }
  int online_changes = 0;
  std::set<std::string> updated_indexes;
  for (const auto& u : req.global_secondary_index_updates()) {
    online_changes += u.has_create() + u.has_delete_();
    int actions = u.has_create() + u.has_delete_() + u.has_update();
    if (actions == 0) {
      return Error::InvalidParameter(
          "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
          "GlobalSecondaryIndexUpdate.Delete must not be null");
    }
    if (actions > 1) {
      return Error::InvalidParameter(
          "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object");
    }
    // Checked before the one-online-change limit: [Delete g, Create g] is
    // this ValidationException, not the LimitExceededException.
    const std::string& name = u.has_create()    ? u.create().index_name()
                              : u.has_delete_() ? u.delete_().index_name()
                                                : u.update().index_name();
    if (!updated_indexes.insert(name).second) {
      return Error::InvalidParameter(
          "Only one global secondary index update per index is allowed simultaneously. Index: " + name);
    }
  }
  POGI_RETURN_IF_ERROR(CheckVectorIndexUpdates(req.vector_index_updates(), &online_changes));
  if (online_changes > 0 && req.has_stream_specification()) {
    return Error::InvalidParameter("You cannot create or delete index while changing stream status");
  }
  if (online_changes > 1) {
    return Error::LimitExceeded(
        "Subscriber limit exceeded: Only 1 online index can be created or deleted "
        "simultaneously per table");
  }

  // Out-of-bounds capacity is refused before the table is looked up.
  if (req.has_provisioned_throughput())
    POGI_RETURN_IF_ERROR(CheckCapacityBounds(req.provisioned_throughput()));
  auto seen = FindTableInAnyState(req.table_name());
  if (!seen.ok()) {
    if (seen.error().code() != ErrorCode::kResourceNotFound) return std::move(seen).error();
    // UpdateTable names the table (2020 record); the item operations do not.
    return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() + " not found");
  }
  v1::UpdateTableResponse resp;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();  // a write run again starts from nothing
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, **seen));
    POGI_RETURN_IF_ERROR(CheckAdmitted(req, table->description));
    const double now = clock_->Now();
    v1::TableDescription d = table->description;
    std::map<std::string, int64_t> index_ids = table->IndexIds();
    bool on_demand = req.has_billing_mode() ? req.billing_mode() == "PAY_PER_REQUEST"
                                            : d.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST";
    if (req.has_billing_mode()) {
      if (on_demand && req.has_provisioned_throughput()) {
        return Error::InvalidParameter(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is "
            "PAY_PER_REQUEST");
      }
      if (!on_demand && !req.has_provisioned_throughput() &&
          d.provisioned_throughput().read_capacity_units() == 0) {
        return Error::InvalidParameter(
            "ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
      }
      if (on_demand) {
        d.mutable_billing_mode_summary()->set_billing_mode("PAY_PER_REQUEST");
        d.mutable_billing_mode_summary()->set_last_update_to_pay_per_request_date_time(clock_->Now());
        d.mutable_provisioned_throughput()->set_read_capacity_units(0);
        d.mutable_provisioned_throughput()->set_write_capacity_units(0);
      } else {
        d.clear_billing_mode_summary();
      }
    } else if (on_demand && req.has_provisioned_throughput()) {
      return Error::Validation(
          "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can "
          "be "
          "specified when BillingMode is PAY_PER_REQUEST");
    }
    if (req.has_provisioned_throughput()) {
      // PROVISIONED staying PROVISIONED at the very same capacity: today's
      // DynamoDB refuses it; the text is the 2020 record's (today's is not on
      // record).
      const auto& now_pt = table->description.provisioned_throughput();
      const auto& want = req.provisioned_throughput();
      bool was_provisioned = table->description.billing_mode_summary().billing_mode() != "PAY_PER_REQUEST";
      if (was_provisioned && !on_demand && want.read_capacity_units() == now_pt.read_capacity_units() &&
          want.write_capacity_units() == now_pt.write_capacity_units()) {
        std::string r = std::to_string(want.read_capacity_units());
        std::string w = std::to_string(want.write_capacity_units());
        return Error::Validation(
            "The provisioned throughput for the table will not change. The requested value equals the "
            "current "
            "value. Current ReadCapacityUnits provisioned for the table: " +
            r + ". Requested ReadCapacityUnits: " + r +
            ". Current WriteCapacityUnits provisioned for the table: " + w +
            ". Requested WriteCapacityUnits: " + w +
            ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher "
            "limits.");
      }
      d.mutable_provisioned_throughput()->set_read_capacity_units(
          req.provisioned_throughput().read_capacity_units());
      d.mutable_provisioned_throughput()->set_write_capacity_units(
          req.provisioned_throughput().write_capacity_units());
      d.mutable_provisioned_throughput()->set_last_increase_date_time(clock_->Now());
    }
    // A table with vector indexes stays on demand.
    if (!on_demand && (d.vector_indexes_size() > 0 || req.vector_index_updates_size() > 0)) {
      return VectorIndexNeedsOnDemand();
    }
    if (req.has_deletion_protection_enabled())
      d.set_deletion_protection_enabled(req.deletion_protection_enabled());
    if (req.has_table_class()) d.mutable_table_class_summary()->set_table_class(req.table_class());
    if (req.has_stream_specification()) {
      // A global table replicates through its stream: it stays.
      if (!req.stream_specification().stream_enabled() && d.replicas_size() > 0) {
        return Error::InvalidParameter("Disabling Stream is not allowed for a Global Table replica.");
      }
      POGI_RETURN_IF_ERROR(
          ApplyStreamSpecification(streams_, txn, table->id, req.stream_specification(), &d));
    }
    // Accepted, stored and described; pogi throttles nothing.
    if (req.has_on_demand_throughput()) *d.mutable_on_demand_throughput() = req.on_demand_throughput();
    if (req.has_warm_throughput()) {
      auto* w = d.mutable_warm_throughput();
      w->set_read_units_per_second(req.warm_throughput().read_units_per_second());
      w->set_write_units_per_second(req.warm_throughput().write_units_per_second());
      w->set_status("ACTIVE");
    }

    // AttributeDefinitions serve only a new index's keys: DynamoDB ignores
    // the rest of the list (extra, stale or retyped entries) silently.
    auto add_definitions = [&](const v1::CreateGlobalSecondaryIndexAction& g) -> Status {
      for (const auto& k : g.key_schema()) {
        for (const auto& def : req.attribute_definitions()) {
          if (def.attribute_name() != k.attribute_name()) continue;
          bool known = false;
          for (const auto& existing : d.attribute_definitions()) {
            if (existing.attribute_name() != def.attribute_name()) continue;
            known = true;
            // A key attribute keeps its type; DynamoDB's text (recorded
            // line-wrapped, so its exact spacing is unverified).
            if (existing.attribute_type() != def.attribute_type()) {
              auto element = [&](const std::string& type, const std::string& key_type) {
                return "Schema:[SchemaElement: key{" + def.attribute_name() + ":" + type + ":" + key_type +
                       "}]";
              };
              return Error::InvalidParameter(
                  "Attributes cannot be redefined. Please check that your attribute has the same type as "
                  "previously defined. Existing schema: " +
                  element(existing.attribute_type(), KeyTypeOf(d, def.attribute_name(), k.key_type())) +
                  " New schema: " + element(def.attribute_type(), k.key_type()));
            }
          }
          if (!known) *d.add_attribute_definitions() = def;
        }
      }
      return Status::Ok();
    };

    std::vector<std::string> created, deleted, updated_throughput;
    for (const auto& u : req.global_secondary_index_updates()) {
      if (u.has_create()) {
        const auto& g = u.create();
        if (table->FindIndex(g.index_name())) {
          return Error::Validation("One or more parameter values were invalid: Index with name: " +
                                   g.index_name() + " already exists");
        }
        if (d.global_secondary_indexes_size() >= kMaxGlobalIndexes) {
          return Error::LimitExceeded(
              "Subscriber limit exceeded: The number of global secondary indexes per table "
              "cannot exceed " +
              std::to_string(kMaxGlobalIndexes));
        }
        // The new index's key attributes must be defined in this request,
        // even when the table already knows them.
        if (req.attribute_definitions().empty()) {
          return Error::InvalidParameter("AttributeDefinitions is not specified for index: " +
                                         g.index_name());
        }
        POGI_RETURN_IF_ERROR(CheckIndexSchema(g.index_name(), g.key_schema(), g.projection(), false,
                                              d.key_schema(), req.attribute_definitions()));
        POGI_RETURN_IF_ERROR(add_definitions(g));
        POGI_RETURN_IF_ERROR(CheckIndexThroughput(g.index_name(), g.has_provisioned_throughput(), on_demand));
        auto* gd = d.add_global_secondary_indexes();
        gd->set_index_name(g.index_name());
        *gd->mutable_key_schema() = g.key_schema();
        *gd->mutable_projection() = g.projection();
        gd->set_index_status("ACTIVE");
        gd->set_index_arn(IndexArn(d.table_arn(), g.index_name()));
        gd->mutable_provisioned_throughput()->set_number_of_decreases_today(0);
        gd->mutable_provisioned_throughput()->set_read_capacity_units(
            g.provisioned_throughput().read_capacity_units());
        gd->mutable_provisioned_throughput()->set_write_capacity_units(
            g.provisioned_throughput().write_capacity_units());
        POGI_ASSIGN_OR_RETURN(index_ids[g.index_name()], txn.CreateIndex(table->id, g.index_name()));
        created.push_back(g.index_name());
      } else if (u.has_delete_()) {
        const std::string& name = u.delete_().index_name();
        const Index* index = table->FindIndex(name);
        if (!index || !index->global) {
          return Error::ResourceNotFound("Requested resource not found: Index: " + name + " not found");
        }
        POGI_RETURN_IF_ERROR(txn.DropIndex(index->id));
        index_ids.erase(name);
        deleted.push_back(name);
        if (delays_.index_deleting > 0) {
          // Its entry stays, DELETING, until the delay has passed (its
          // entries are gone now: nothing reads or maintains it); a
          // backfill under way ends here.
          auto* pending = d.mutable_pogi_transitions();
          for (int i = pending->size() - 1; i >= 0; --i) {
            if ((*pending)[i].subject() == name) pending->DeleteSubrange(i, 1);
          }
          BeginTransition(d, kIndexDeleting, name, now + delays_.index_deleting);
          continue;
        }
        auto* gsis = d.mutable_global_secondary_indexes();
        for (int i = 0; i < gsis->size(); ++i) {
          if ((*gsis)[i].index_name() == name) {
            resp.mutable_table_description()->add_global_secondary_indexes()->CopyFrom((*gsis)[i]);
            gsis->DeleteSubrange(i, 1);
            break;
          }
        }
      } else {
        const auto& up = u.update();
        bool found = false;
        for (auto& g : *d.mutable_global_secondary_indexes()) {
          if (g.index_name() != up.index_name()) continue;
          found = true;
          // An index's capacity out of bounds: DynamoDB's 2020 answer.
          if (up.has_provisioned_throughput() && !CheckCapacityBounds(up.provisioned_throughput()).ok()) {
            return Error::Validation(
                "This operation cannot be performed with given input values. Please contact DynamoDB "
                "service team for more info: Action Blocked: IndexUpdate");
          }
          updated_throughput.push_back(g.index_name());
          if (up.has_provisioned_throughput()) {
            g.mutable_provisioned_throughput()->set_read_capacity_units(
                up.provisioned_throughput().read_capacity_units());
            g.mutable_provisioned_throughput()->set_write_capacity_units(
                up.provisioned_throughput().write_capacity_units());
          }
        }
        if (!found) {
          return Error::ResourceNotFound("Requested resource not found: Index: " + up.index_name() +
                                         " not found");
        }
      }
    }
    std::vector<std::string> created_vectors;
    std::vector<v1::VectorIndexDescription> deleting_vectors;
    for (const auto& u : req.vector_index_updates()) {
      if (u.has_create()) {
        const auto& v = u.create();
        if (table->FindIndex(v.index_name()) || table->FindVectorIndex(v.index_name())) {
          return Error::Validation("Attempting to create an index which already exists");
        }
        if (d.vector_indexes_size() >= kMaxVectorIndexes) {
          return Error::LimitExceeded(
              "Subscriber limit exceeded: Number of vector secondary indexes exceeds per-table limit of " +
              std::to_string(kMaxVectorIndexes));
        }
        POGI_RETURN_IF_ERROR(CheckVectorIndexCreate(v, d, req.attribute_definitions(), on_demand));
        for (const auto& e : v.search_schema()) {
          bool known = false;
          for (const auto& existing : d.attribute_definitions())
            known |= existing.attribute_name() == e.attribute_name();
          if (known) continue;
          for (const auto& def : req.attribute_definitions()) {
            if (def.attribute_name() == e.attribute_name()) *d.add_attribute_definitions() = def;
          }
        }
        *d.add_vector_indexes() = DescribeNewVectorIndex(v, d.table_arn());
        POGI_ASSIGN_OR_RETURN(index_ids[v.index_name()], txn.CreateIndex(table->id, v.index_name()));
        created_vectors.push_back(v.index_name());
      } else {
        const std::string& name = u.delete_().index_name();
        const VectorIndex* index = table->FindVectorIndex(name);
        if (!index) {
          return Error::ResourceNotFound("Requested resource not found: Index: " + name + " not found");
        }
        POGI_RETURN_IF_ERROR(txn.DropIndex(index->id));
        vector_cache_.Forget(index->id);  // its id may be given again
        index_ids.erase(name);
        if (delays_.index_deleting > 0) {
          // As a GSI's: its entry stays, DELETING, for the delay.
          auto* pending = d.mutable_pogi_transitions();
          for (int i = pending->size() - 1; i >= 0; --i) {
            if ((*pending)[i].subject() == name) pending->DeleteSubrange(i, 1);
          }
          BeginTransition(d, kIndexDeleting, name, now + delays_.index_deleting);
          continue;
        }
        auto* vectors = d.mutable_vector_indexes();
        for (int i = 0; i < vectors->size(); ++i) {
          if ((*vectors)[i].index_name() == name) {
            deleting_vectors.push_back((*vectors)[i]);
            vectors->DeleteSubrange(i, 1);
            break;
          }
        }
      }
    }
    // Definitions no key schema uses any more go, as DynamoDB drops them
    // (those of an index being deleted when its DELETING ends).
    PruneAttributeDefinitions(d);

    // The transient states this change begins, when they last at all
    // (core/transitions.h).
    created.insert(created.end(), created_vectors.begin(), created_vectors.end());
    for (const auto& name : created) {
      double at = now;
      if (delays_.index_creating > 0) BeginTransition(d, kIndexCreating, name, at += delays_.index_creating);
      if (delays_.index_backfilling > 0)
        BeginTransition(d, kIndexBackfilling, name, at += delays_.index_backfilling);
    }
    if (delays_.index_updating > 0) {
      for (const auto& name : updated_throughput)
        BeginTransition(d, kIndexUpdating, name, now + delays_.index_updating);
    }
    const bool table_change = req.has_billing_mode() || req.has_provisioned_throughput() ||
                              req.has_stream_specification() || req.has_table_class() ||
                              req.has_sse_specification();
    if (table_change && delays_.table_updating > 0) {
      BeginTransition(d, kTableUpdating, "", now + delays_.table_updating);
    }
    const bool transient = !d.pogi_transitions().empty();
    if (transient) ApplyTransitionStatuses(d);

    auto updated = catalog_.Make(table->id, d, index_ids);
    for (const auto& name : created) {
      if (const Index* index = updated->FindIndex(name))
        POGI_RETURN_IF_ERROR(Backfill(txn, *updated, *index));
      if (const VectorIndex* index = updated->FindVectorIndex(name))
        POGI_RETURN_IF_ERROR(BackfillVectorIndex(txn, *updated, *index));
    }
    POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(table->id, d.SerializeAsString()));
    catalog_.Put(updated);  // inside the write: later writes maintain the new index

    // A global table's secondary indexes, billing and capacity are every
    // replica's: DynamoDB applies such a change to each (streams, deletion
    // protection and table class stay each replica's own).
    for (const auto& r : d.replicas()) {
      if (r.region_name() == table->region) continue;
      auto other = catalog_.FindIn(d.table_name(), r.region_name());
      if (!other) continue;
      v1::TableDescription od = other->description;
      std::map<std::string, int64_t> other_ids = other->IndexIds();
      *od.mutable_attribute_definitions() = d.attribute_definitions();
      *od.mutable_provisioned_throughput() = d.provisioned_throughput();
      if (d.has_billing_mode_summary()) {
        *od.mutable_billing_mode_summary() = d.billing_mode_summary();
      } else {
        od.clear_billing_mode_summary();
      }
      *od.mutable_global_secondary_indexes() = d.global_secondary_indexes();
      for (auto& g : *od.mutable_global_secondary_indexes())
        g.set_index_arn(IndexArn(od.table_arn(), g.index_name()));
      // The indexes' transitions are the table's: the same ones, ending at
      // the same times.
      auto is_gsi = [&](const std::string& subject) {
        for (const auto& g : d.global_secondary_indexes()) {
          if (g.index_name() == subject) return true;
        }
        return false;
      };
      auto* pending = od.mutable_pogi_transitions();
      for (int i = pending->size() - 1; i >= 0; --i) {
        if (is_gsi((*pending)[i].subject())) pending->DeleteSubrange(i, 1);
      }
      for (const auto& t : d.pogi_transitions()) {
        if (is_gsi(t.subject())) *od.add_pogi_transitions() = t;
      }
      for (const auto& name : deleted) {
        auto it = other_ids.find(name);
        if (it == other_ids.end()) continue;
        POGI_RETURN_IF_ERROR(txn.DropIndex(it->second));
        other_ids.erase(it);
      }
      std::vector<std::string> made;
      for (const auto& name : created) {
        if (!updated->FindIndex(name)) continue;  // a vector index: the replica's own
        POGI_ASSIGN_OR_RETURN(other_ids[name], txn.CreateIndex(other->id, name));
        made.push_back(name);
      }
      if (!od.pogi_transitions().empty()) ApplyTransitionStatuses(od);
      auto other_updated = catalog_.Make(other->id, od, other_ids);
      for (const auto& name : made) {
        if (const Index* index = other_updated->FindIndex(name))
          POGI_RETURN_IF_ERROR(Backfill(txn, *other_updated, *index));
      }
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(other->id, od.SerializeAsString()));
      catalog_.Put(other_updated);
    }

    if (transient) {
      // The answer is the stored state: the transitions under way show it.
      *resp.mutable_table_description() = d;
      resp.mutable_table_description()->clear_pogi_transitions();
      return Status::Ok();
    }
    // The answer shows the change in progress, as DynamoDB's does (an
    // added index CREATING, not yet backfilling), although it is done.
    auto deleting = std::move(*resp.mutable_table_description()->mutable_global_secondary_indexes());
    *resp.mutable_table_description() = d;
    resp.mutable_table_description()->set_table_status("UPDATING");
    for (auto& g : *resp.mutable_table_description()->mutable_global_secondary_indexes()) {
      if (std::find(created.begin(), created.end(), g.index_name()) != created.end()) {
        g.set_index_status("CREATING");
        g.set_backfilling(false);
      }
    }
    for (auto& g : deleting) {
      g.set_index_status("DELETING");
      *resp.mutable_table_description()->add_global_secondary_indexes() = std::move(g);
    }
    for (auto& v : *resp.mutable_table_description()->mutable_vector_indexes()) {
      if (std::find(created.begin(), created.end(), v.index_name()) != created.end()) {
        v.set_index_status("CREATING");
        v.set_backfilling(false);
      }
    }
    for (auto& v : deleting_vectors) {
      v.set_index_status("DELETING");
      *resp.mutable_table_description()->add_vector_indexes() = std::move(v);
    }
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace pogi::service
