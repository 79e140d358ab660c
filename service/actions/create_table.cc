// CreateTable: validate the key schema, attribute definitions and billing
// exactly as DynamoDB does, then record the table in the catalog.
//
// Which error wins, in DynamoDB's order (behaviours.md O8, O9, V1; the code
// below follows it):
//  1. no TableName: "The parameter 'TableName' is required ...";
//  2. the member constraints, together (CheckCreateTableMembers): an absent
//     list is null, an empty one too short (AttributeDefinitions has no
//     bound); key attribute names 1 to 255 characters; an index's key types
//     are not held to the enumeration;
//  3. billing: PAY_PER_REQUEST with throughput, otherwise no throughput,
//     then the capacity bounds (Read, then Write);
//  4. the table's key schema: more keys than definitions, a key not defined,
//     the same name twice, the first not HASH, the second not RANGE, a
//     definition given twice, and without indexes a count that differs from
//     the definitions';
//  5. local indexes: an empty list, a table without a range key, then each
//     index's rules (CheckIndexSchema) and its name unique, then their number;
//  6. global indexes: an empty list, then each index's rules, its throughput
//     for the billing mode and its name unique, then their number;
//  7. vector indexes, definitions no key uses, the stream specification.
#include <map>
#include <set>

#include "common/uuid.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/streams/stream_settings.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/validate/index_schema.h"
#include "service/validate/member_presence.h"
#include "service/validate/vector_index.h"

namespace pogi::service {

// The member constraints, reported together as DynamoDB does (step 2).
void CheckCreateTableMembers(Constraints& c, const v1::CreateTableRequest& req) {
  using R = v1::CreateTableRequest;
  CheckTableName(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(Sent(req, R::kAttributeDefinitionsFieldNumber, req.attribute_definitions_size()),
             "attributeDefinitions");
  const bool key_schema_sent = Sent(req, R::kKeySchemaFieldNumber, req.key_schema_size());
  c.Required(key_schema_sent, "keySchema");
  if (key_schema_sent && (req.key_schema_size() == 0 || req.key_schema_size() > 2)) {
    c.Count(req.key_schema_size(), 1, 2, RenderKeySchema(req.key_schema()), "keySchema");
  }
  for (int i = 0; i < req.key_schema_size(); ++i) {
    const auto& k = req.key_schema(i);
    std::string at = "keySchema." + std::to_string(i + 1) + ".member.";
    c.Required(k.has_attribute_name(), at + "attributeName");
    c.Length(k.has_attribute_name() ? &k.attribute_name() : nullptr, 1, 255, at + "attributeName");
    c.Required(k.has_key_type(), at + "keyType");
    c.OneOf(k.has_key_type() ? &k.key_type() : nullptr, {"HASH", "RANGE"}, at + "keyType");
  }
  for (int i = 0; i < req.attribute_definitions_size(); ++i) {
    const auto& a = req.attribute_definitions(i);
    std::string at = "attributeDefinitions." + std::to_string(i + 1) + ".member.";
    c.Required(a.has_attribute_name(), at + "attributeName");
    c.Length(a.has_attribute_name() ? &a.attribute_name() : nullptr, 1, 255, at + "attributeName");
    c.Required(a.has_attribute_type(), at + "attributeType");
    c.OneOf(a.has_attribute_type() ? &a.attribute_type() : nullptr, {"B", "N", "S"}, at + "attributeType");
  }
  c.OneOf(req.has_billing_mode() ? &req.billing_mode() : nullptr, {"PROVISIONED", "PAY_PER_REQUEST"},
          "billingMode");
  if (req.has_provisioned_throughput())
    CheckThroughput(c, req.provisioned_throughput(), "provisionedThroughput");
  c.OneOf(req.has_table_class() ? &req.table_class() : nullptr, {"STANDARD", "STANDARD_INFREQUENT_ACCESS"},
          "tableClass");
  if (req.has_sse_specification() && req.sse_specification().has_sse_type()) {
    c.OneOf(&req.sse_specification().sse_type(), {"AES256", "KMS"}, "sSESpecification.sSEType");
  }
  // DynamoDB's place for Tags among the others is not on record; the
  // model's is right after SSESpecification.
  CheckTagMembers(c, req.tags(), "tags");
  if (req.has_stream_specification())
    CheckStreamMembers(c, req.stream_specification(), "streamSpecification");
  for (int i = 0; i < req.global_secondary_indexes_size(); ++i) {
    const auto& g = req.global_secondary_indexes(i);
    CheckIndexMembers(c, g.has_index_name() ? &g.index_name() : nullptr, g.key_schema(), KeySchemaSent(g),
                      g.has_projection() ? &g.projection() : nullptr,
                      g.has_provisioned_throughput() ? &g.provisioned_throughput() : nullptr,
                      "globalSecondaryIndexes." + std::to_string(i + 1) + ".member", /*global=*/true);
  }
  for (int i = 0; i < req.local_secondary_indexes_size(); ++i) {
    const auto& l = req.local_secondary_indexes(i);
    CheckIndexMembers(c, l.has_index_name() ? &l.index_name() : nullptr, l.key_schema(), KeySchemaSent(l),
                      l.has_projection() ? &l.projection() : nullptr, nullptr,
                      "localSecondaryIndexes." + std::to_string(i + 1) + ".member", /*global=*/false);
  }
  for (int i = 0; i < req.vector_indexes_size(); ++i) {
    CheckVectorIndexMembers(c, req.vector_indexes(i), "vectorIndexes." + std::to_string(i + 1) + ".member");
  }
}

namespace {

using R = v1::CreateTableRequest;

bool LocalIndexesSent(const R& req) {
  return Sent(req, R::kLocalSecondaryIndexesFieldNumber, req.local_secondary_indexes_size());
}
bool GlobalIndexesSent(const R& req) {
  return Sent(req, R::kGlobalSecondaryIndexesFieldNumber, req.global_secondary_indexes_size());
}

// Step 3.
Status CheckBilling(const R& req) {
  if (req.billing_mode() == "PAY_PER_REQUEST") {
    if (req.has_provisioned_throughput()) {
      return Error::InvalidParameter(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is "
          "PAY_PER_REQUEST");
    }
    return Status::Ok();
  }
  // Without BillingMode too: PROVISIONED is the default (2020 record).
  if (!req.has_provisioned_throughput()) {
    return Error::InvalidParameter(
        "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  }
  return CheckCapacityBounds(req.provisioned_throughput());
}

// Step 4.
Status CheckTableKeySchema(const R& req) {
  const auto& ks = req.key_schema();
  if (ks.size() > req.attribute_definitions_size()) {
    return Error::Validation("Invalid KeySchema: Some index key attribute have no definition");
  }
  POGI_RETURN_IF_ERROR(CheckKeysDefined(ks, req.attribute_definitions()));
  if (ks.size() == 2 && ks[0].attribute_name() == ks[1].attribute_name()) {
    return Error::Validation(
        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  }
  if (ks[0].key_type() != "HASH") {
    return Error::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (ks.size() == 2 && ks[1].key_type() != "RANGE") {
    return Error::Validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
  // DynamoDB's words (behaviours.md 1.2); the place, before the count it
  // would spoil, is pogi's.
  std::set<std::string> defined;
  for (const auto& a : req.attribute_definitions()) {
    if (!defined.insert(a.attribute_name()).second) {
      return Error::Validation("Attribute Name is duplicated: " + a.attribute_name());
    }
  }
  if (!LocalIndexesSent(req) && !GlobalIndexesSent(req) && req.vector_indexes_size() == 0 &&
      ks.size() != req.attribute_definitions_size()) {
    return Error::InvalidParameter(
        "Number of attributes in KeySchema does not exactly match number of attributes defined in "
        "AttributeDefinitions");
  }
  return Status::Ok();
}

// Steps 5 and 6; `names` collects the index names.
Status CheckIndexes(const R& req, std::set<std::string>* names) {
  if (LocalIndexesSent(req)) {
    if (req.local_secondary_indexes().empty()) {
      return Error::InvalidParameter("List of LocalSecondaryIndexes is empty");
    }
    if (req.key_schema_size() < 2) {
      return Error::InvalidParameter(
          "Table KeySchema does not have a range key, which is required when specifying a "
          "LocalSecondaryIndex");
    }
    for (const auto& l : req.local_secondary_indexes()) {
      POGI_RETURN_IF_ERROR(CheckIndexSchema(l.index_name(), l.key_schema(), l.projection(), true,
                                            req.key_schema(), req.attribute_definitions()));
      if (!names->insert(l.index_name()).second)
        return Error::InvalidParameter("Duplicate index name: " + l.index_name());
    }
    if (req.local_secondary_indexes_size() > kMaxLocalIndexes) {
      return Error::InvalidParameter("Number of LocalSecondaryIndexes exceeds per-table limit of " +
                                     std::to_string(kMaxLocalIndexes));
    }
  }
  if (GlobalIndexesSent(req)) {
    if (req.global_secondary_indexes().empty()) {
      return Error::InvalidParameter("List of GlobalSecondaryIndexes is empty");
    }
    const bool on_demand = req.billing_mode() == "PAY_PER_REQUEST";
    for (const auto& g : req.global_secondary_indexes()) {
      POGI_RETURN_IF_ERROR(CheckIndexSchema(g.index_name(), g.key_schema(), g.projection(), false,
                                            req.key_schema(), req.attribute_definitions()));
      POGI_RETURN_IF_ERROR(CheckIndexThroughput(g.index_name(), g.has_provisioned_throughput(), on_demand));
      if (!names->insert(g.index_name()).second)
        return Error::InvalidParameter("Duplicate index name: " + g.index_name());
    }
    if (req.global_secondary_indexes_size() > kMaxGlobalIndexes) {
      return Error::InvalidParameter("GlobalSecondaryIndex count exceeds the per-table limit of " +
                                     std::to_string(kMaxGlobalIndexes));
    }
  }
  return Status::Ok();
}

// Step 7: every definition is some key's. DynamoDB's words, on record since 2015.
Status CheckDefinitionsUsed(const R& req) {
  std::set<std::string> defined, used;
  for (const auto& a : req.attribute_definitions()) defined.insert(a.attribute_name());
  for (const auto& k : req.key_schema()) used.insert(k.attribute_name());
  for (const auto& v : req.vector_indexes()) {
    for (const auto& e : v.search_schema()) used.insert(e.attribute_name());
  }
  for (const auto& g : req.global_secondary_indexes()) {
    for (const auto& k : g.key_schema()) used.insert(k.attribute_name());
  }
  for (const auto& l : req.local_secondary_indexes()) {
    for (const auto& k : l.key_schema()) used.insert(k.attribute_name());
  }
  if (defined.size() == used.size()) return Status::Ok();
  auto join = [](const auto& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
  };
  std::vector<std::string> defs;
  for (const auto& a : req.attribute_definitions()) defs.push_back(a.attribute_name());
  return Error::InvalidParameter("Some AttributeDefinitions are not used. AttributeDefinitions: [" +
                                 join(defs) + "], keys used: [" + join(used) + "]");
}

// Steps 3 to 7, in order.
Status CheckSchema(const R& req) {
  POGI_RETURN_IF_ERROR(CheckBilling(req));
  POGI_RETURN_IF_ERROR(CheckTableKeySchema(req));
  std::set<std::string> index_names;
  POGI_RETURN_IF_ERROR(CheckIndexes(req, &index_names));
  POGI_RETURN_IF_ERROR(CheckVectorIndexes(req, index_names));
  POGI_RETURN_IF_ERROR(CheckDefinitionsUsed(req));
  if (req.has_stream_specification()) {
    POGI_RETURN_IF_ERROR(CheckStreamSpecification(req.stream_specification(), true));
  }
  return Status::Ok();
}

v1::TableDescription BuildDescription(const v1::CreateTableRequest& req, double now) {
  v1::TableDescription d;
  d.set_table_name(req.table_name());
  *d.mutable_attribute_definitions() = req.attribute_definitions();
  *d.mutable_key_schema() = req.key_schema();
  d.set_table_status("ACTIVE");
  d.set_creation_date_time(now);
  d.set_table_arn(TableArnOf(req.table_name()));
  d.set_table_id(RandomUuid());
  auto* pt = d.mutable_provisioned_throughput();
  pt->set_number_of_decreases_today(0);
  if (req.billing_mode() == "PAY_PER_REQUEST") {
    pt->set_read_capacity_units(0);
    pt->set_write_capacity_units(0);
    d.mutable_billing_mode_summary()->set_billing_mode("PAY_PER_REQUEST");
    d.mutable_billing_mode_summary()->set_last_update_to_pay_per_request_date_time(now);
  } else {
    pt->set_read_capacity_units(req.provisioned_throughput().read_capacity_units());
    pt->set_write_capacity_units(req.provisioned_throughput().write_capacity_units());
  }
  if (req.has_table_class()) {
    d.mutable_table_class_summary()->set_table_class(req.table_class());
  }
  if (req.has_sse_specification() && req.sse_specification().enabled()) {
    auto* sse = d.mutable_sse_description();
    sse->set_status("ENABLED");
    sse->set_sse_type("KMS");
    sse->set_kms_master_key_arn("arn:aws:kms:" + NewTableRegion() + ":" + AccountId() + ":key/" +
                                RandomUuid());
  }
  for (const auto& g : req.global_secondary_indexes()) {
    auto* gd = d.add_global_secondary_indexes();
    gd->set_index_name(g.index_name());
    *gd->mutable_key_schema() = g.key_schema();
    *gd->mutable_projection() = g.projection();
    gd->set_index_status("ACTIVE");
    gd->set_index_arn(IndexArn(d.table_arn(), g.index_name()));
    auto* gpt = gd->mutable_provisioned_throughput();
    gpt->set_number_of_decreases_today(0);
    gpt->set_read_capacity_units(g.provisioned_throughput().read_capacity_units());
    gpt->set_write_capacity_units(g.provisioned_throughput().write_capacity_units());
  }
  for (const auto& l : req.local_secondary_indexes()) {
    auto* ld = d.add_local_secondary_indexes();
    ld->set_index_name(l.index_name());
    *ld->mutable_key_schema() = l.key_schema();
    *ld->mutable_projection() = l.projection();
    ld->set_index_arn(IndexArn(d.table_arn(), l.index_name()));
  }
  // Created with the table, a vector index is ACTIVE as soon as the table
  // is (as DynamoDB's reaches ACTIVE in the same DescribeTable as its table).
  for (const auto& v : req.vector_indexes())
    *d.add_vector_indexes() = DescribeNewVectorIndex(v, d.table_arn());
  d.set_deletion_protection_enabled(req.deletion_protection_enabled());
  // Accepted, stored and described; pogi throttles nothing.
  if (req.has_on_demand_throughput()) *d.mutable_on_demand_throughput() = req.on_demand_throughput();
  if (req.has_warm_throughput()) {
    auto* w = d.mutable_warm_throughput();
    w->set_read_units_per_second(req.warm_throughput().read_units_per_second());
    w->set_write_units_per_second(req.warm_throughput().write_units_per_second());
    w->set_status("ACTIVE");
  }
  for (int i = 0; i < req.global_secondary_indexes_size(); ++i) {
    const auto& g = req.global_secondary_indexes(i);
    auto* gd = d.mutable_global_secondary_indexes(i);
    if (g.has_on_demand_throughput()) *gd->mutable_on_demand_throughput() = g.on_demand_throughput();
    if (g.has_warm_throughput()) {
      gd->mutable_warm_throughput()->set_read_units_per_second(g.warm_throughput().read_units_per_second());
      gd->mutable_warm_throughput()->set_write_units_per_second(g.warm_throughput().write_units_per_second());
      gd->mutable_warm_throughput()->set_status("ACTIVE");
    }
  }
  return d;
}

}  // namespace

Result<v1::TableDescription> NewTableDescriptionOfChecked(const v1::CreateTableRequest& req, double now) {
  POGI_RETURN_IF_ERROR(CheckSchema(req));
  return BuildDescription(req, now);
}

Result<v1::TableDescription> NewTableDescription(const v1::CreateTableRequest& req, double now) {
  Constraints c;
  CheckCreateTableMembers(c, req);
  POGI_RETURN_IF_ERROR(c.Finish());
  return NewTableDescriptionOfChecked(req, now);
}

Result<v1::CreateTableResponse> Engine::CreateTable(const v1::CreateTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  if (req.table_name().starts_with("arn:")) {
    // DynamoDB's model takes the new table's ARN here too. An ARN of
    // another account or region stays as it is, and fails the name rules.
    POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
    if (name != req.table_name()) {
      v1::CreateTableRequest named = req;
      named.set_table_name(name);
      return CreateTable(named);
    }
  }
  double now = clock_->Now();
  POGI_ASSIGN_OR_RETURN(v1::TableDescription d, NewTableDescription(req, now));
  if (delays_.table_creating > 0) {
    // CREATING, its indexes too, until the clock passes the delay
    // (core/transitions.h); its items are refused meanwhile.
    BeginTransition(d, kTableCreating, "", now + delays_.table_creating);
    ApplyTransitionStatuses(d);
  }
  v1::TableSettings settings;
  POGI_RETURN_IF_ERROR(TagsForNewTable(req, now, &settings));
  std::shared_ptr<const Table> table;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    // Checked under the write lock, so two concurrent creates cannot both win.
    if (auto existing = catalog_.Find(req.table_name())) {
      // While the first is still being created DynamoDB says so; in every
      // other state (DELETING too) that it exists.
      if (HasPhase(existing->description, kTableCreating)) {
        return CheckTableChangeable(existing->description, /*updating_too=*/false);
      }
      return Error::ResourceInUse("Table already exists: " + req.table_name());
    }
    POGI_ASSIGN_OR_RETURN(table, CreateTableInTxn(txn, d, settings));
    if (req.stream_specification().stream_enabled()) {
      POGI_RETURN_IF_ERROR(
          ApplyStreamSpecification(streams_, txn, table->id, req.stream_specification(), &d));
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(table->id, d.SerializeAsString()));
      table = catalog_.Make(table->id, d, table->IndexIds());  // keeps the settings of the entry just made
      catalog_.Put(table);
    }
    return Status::Ok();
  });
  if (!s.ok() && table) catalog_.Remove(table->description.table_name(), table->region);
  POGI_RETURN_IF_ERROR(s);
  v1::CreateTableResponse resp;
  *resp.mutable_table_description() = d;
  // DynamoDB answers CREATING; without a table_creating delay the table
  // is usable at once here, and every later DescribeTable says ACTIVE.
  resp.mutable_table_description()->set_table_status("CREATING");
  resp.mutable_table_description()->set_item_count(0);
  resp.mutable_table_description()->set_table_size_bytes(0);
  for (auto& g : *resp.mutable_table_description()->mutable_global_secondary_indexes()) {
    g.set_index_status("CREATING");
    g.set_item_count(0);
    g.set_index_size_bytes(0);
  }
  for (auto& l : *resp.mutable_table_description()->mutable_local_secondary_indexes()) {
    l.set_item_count(0);
    l.set_index_size_bytes(0);
  }
  for (auto& v : *resp.mutable_table_description()->mutable_vector_indexes()) {
    v.set_index_status("CREATING");
    v.set_item_count(0);
    v.set_index_size_bytes(0);
  }
  return resp;
}

}  // namespace pogi::service
