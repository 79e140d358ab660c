// Vector index definition rules. The messages are DynamoDB's answers as
// recorded, except where a comment says pogi wrote them (DynamoDB's are not
// on record there).
#include "service/validate/vector_index.h"

#include <map>

#include "service/validate/index_schema.h"

namespace pogi::service {
namespace {

using Definitions = google::protobuf::RepeatedPtrField<v1::AttributeDefinition>;

constexpr int64_t kMaxDimensions = 4096;

const v1::AttributeDefinition* FindDefinition(const Definitions& defs, const std::string& name) {
  for (const auto& d : defs) {
    if (d.attribute_name() == name) return &d;
  }
  return nullptr;
}

std::string ConflictingDefinition(const std::string& attribute, const std::string& why) {
  return "Conflicting attribute definition for '" + attribute + "'. " + why;
}

// The rules of one definition that need nothing but itself and the
// AttributeDefinitions its SearchSchema may use.
Status CheckDefinition(const v1::VectorIndex& v, const Definitions& defs) {
  if (v.dimensions() < 1 || v.dimensions() > kMaxDimensions) {
    return Error::InvalidParameter("Number of dimensions must be between 1 and " +
                                   std::to_string(kMaxDimensions) + " inclusive.");
  }
  const std::string& attribute = v.vector_attribute().attribute_name();
  // The vector attribute is a list, which no AttributeDefinition can type.
  if (FindDefinition(defs, attribute)) {
    return Error::InvalidParameter(ConflictingDefinition(
        attribute, "An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute."));
  }
  int hashes = 0, filters = 0;
  std::set<std::string> names;
  for (const auto& e : v.search_schema()) {
    if (!FindDefinition(defs, e.attribute_name())) {
      return Error::InvalidParameter("One element in SearchSchema is not defined in attribute definitions");
    }
    // pogi's words for the three rules below.
    if (!names.insert(e.attribute_name()).second) {
      return Error::InvalidParameter("Duplicate attribute in SearchSchema: " + e.attribute_name());
    }
    (e.search_schema_element_type() == "HASH" ? hashes : filters)++;
  }
  if (hashes > 1) {
    return Error::InvalidParameter("SearchSchema can have at most one element of type HASH for index: " +
                                   v.index_name());
  }
  if (filters > kMaxVectorInlineFilters) {
    return Error::InvalidParameter("SearchSchema can have at most " +
                                   std::to_string(kMaxVectorInlineFilters) +
                                   " elements of type INLINE_FILTER for index: " + v.index_name());
  }
  const auto& projection = v.projection();
  const std::string& type = projection.projection_type();
  if (type != "INCLUDE" && projection.non_key_attributes_size() > 0) {
    return Error::InvalidParameter("ProjectionType is " + type + ", but NonKeyAttributes is specified");
  }
  if (type == "INCLUDE" && projection.non_key_attributes_size() == 0) {
    return Error::InvalidParameter("NonKeyAttributes must be specified when ProjectionType is INCLUDE");
  }
  return Status::Ok();
}

// Indexes of one vector attribute share its dimensions.
Status CheckSameDimensions(std::map<std::string, int64_t>& dimensions, const v1::VectorIndex& v) {
  const std::string& attribute = v.vector_attribute().attribute_name();
  auto [it, added] = dimensions.emplace(attribute, v.dimensions());
  if (!added && it->second != v.dimensions()) {
    return Error::InvalidParameter(ConflictingDefinition(
        attribute, "All VectorIndexes on the same vector attribute must use the same dimensions."));
  }
  return Status::Ok();
}

}  // namespace

Error VectorIndexNeedsOnDemand() {
  return Error::InvalidParameter("Vector indexes are only supported for PAY_PER_REQUEST tables");
}

void CheckVectorIndexMembers(Constraints& c, const v1::VectorIndex& v, const std::string& path) {
  c.Required(v.has_index_name(), path + ".indexName");
  c.NamePattern(v.has_index_name() ? &v.index_name() : nullptr, path + ".indexName");
  c.Length(v.has_index_name() ? &v.index_name() : nullptr, 3, 255, path + ".indexName");
  c.Required(v.has_vector_attribute(), path + ".vectorAttribute");
  if (v.has_vector_attribute()) {
    const auto& a = v.vector_attribute();
    c.Required(a.has_attribute_name(), path + ".vectorAttribute.attributeName");
    c.Length(a.has_attribute_name() ? &a.attribute_name() : nullptr, 1, 255,
             path + ".vectorAttribute.attributeName");
  }
  for (int i = 0; i < v.search_schema_size(); ++i) {
    const auto& e = v.search_schema(i);
    std::string at = path + ".searchSchema." + std::to_string(i + 1) + ".member.";
    c.Required(e.has_attribute_name(), at + "attributeName");
    c.Length(e.has_attribute_name() ? &e.attribute_name() : nullptr, 1, 255, at + "attributeName");
    c.Required(e.has_search_schema_element_type(), at + "searchSchemaElementType");
    c.OneOf(e.has_search_schema_element_type() ? &e.search_schema_element_type() : nullptr,
            {"HASH", "INLINE_FILTER"}, at + "searchSchemaElementType");
  }
  c.Required(v.has_projection(), path + ".projection");
  if (v.has_projection()) {
    const auto& p = v.projection();
    CheckProjectionType(c, p.has_projection_type() ? &p.projection_type() : nullptr,
                        path + ".projection.projectionType");
  }
  c.Required(v.has_dimensions(), path + ".dimensions");
  c.AtLeast(v.has_dimensions() ? std::optional(v.dimensions()) : std::nullopt, 1, path + ".dimensions");
  c.Required(v.has_distance_function(), path + ".distanceFunction");
  // DynamoDB lists the enumeration in this order.
  c.OneOf(v.has_distance_function() ? &v.distance_function() : nullptr,
          {"DOT_PRODUCT", "COSINE", "EUCLIDEAN"}, path + ".distanceFunction");
}

void CheckVectorIndexUpdateMembers(Constraints& c,
                                   const google::protobuf::RepeatedPtrField<v1::VectorIndexUpdate>& updates) {
  for (int i = 0; i < updates.size(); ++i) {
    const auto& u = updates[i];
    std::string at = "vectorIndexUpdates." + std::to_string(i + 1) + ".member";
    if (u.has_create()) CheckVectorIndexMembers(c, u.create(), at + ".create");
    if (u.has_delete_()) {
      const auto& d = u.delete_();
      CheckTableName(c, d.has_index_name() ? &d.index_name() : nullptr, at + ".delete.indexName");
    }
  }
}

Status CheckVectorIndexes(const v1::CreateTableRequest& req, const std::set<std::string>& index_names) {
  if (req.vector_indexes().empty()) return Status::Ok();
  if (req.billing_mode() != "PAY_PER_REQUEST") return VectorIndexNeedsOnDemand();
  if (req.vector_indexes_size() > kMaxVectorIndexes) {
    return Error::InvalidParameter("VectorIndex count exceeds the per-table limit of " +
                                   std::to_string(kMaxVectorIndexes));
  }
  std::set<std::string> names = index_names;
  std::map<std::string, int64_t> dimensions;
  for (const auto& v : req.vector_indexes()) {
    if (!names.insert(v.index_name()).second) {
      return Error::InvalidParameter("Duplicate index name: " + v.index_name());
    }
    POGI_RETURN_IF_ERROR(CheckDefinition(v, req.attribute_definitions()));
    POGI_RETURN_IF_ERROR(CheckSameDimensions(dimensions, v));
  }
  return Status::Ok();
}

Status CheckVectorIndexUpdates(const google::protobuf::RepeatedPtrField<v1::VectorIndexUpdate>& updates,
                               int* online_changes) {
  std::set<std::string> names;
  for (const auto& u : updates) {
    int actions = u.has_create() + u.has_delete_();
    // pogi's words, in the form of GlobalSecondaryIndexUpdate's.
    if (actions == 0) {
      return Error::InvalidParameter(
          "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null");
    }
    if (actions > 1) {
      return Error::InvalidParameter("Only one vector index action is allowed per VectorIndexUpdate object");
    }
    const std::string& name = u.has_create() ? u.create().index_name() : u.delete_().index_name();
    if (!names.insert(name).second) {
      return Error::InvalidParameter(
          "Only one vector index update per index is allowed simultaneously. Index: " + name);
    }
    ++*online_changes;
  }
  return Status::Ok();
}

Status CheckVectorIndexCreate(const v1::VectorIndex& v, const v1::TableDescription& table,
                              const Definitions& definitions, bool on_demand) {
  if (!on_demand) return VectorIndexNeedsOnDemand();
  POGI_RETURN_IF_ERROR(CheckDefinition(v, definitions));
  // A key attribute of the table or of a secondary index is typed; the
  // vector attribute is a list.
  const std::string& attribute = v.vector_attribute().attribute_name();
  auto redefined = [&](const auto& key_schema) -> std::optional<Error> {
    for (const auto& k : key_schema) {
      if (k.attribute_name() != attribute) continue;
      const v1::AttributeDefinition* def = FindDefinition(table.attribute_definitions(), attribute);
      return Error::InvalidParameter(
          "Attributes cannot be redefined. Please check that your attribute has the same type as previously "
          "defined. Existing schema: Schema:[SchemaElement: key{" +
          attribute + ":" + (def ? def->attribute_type() : std::string("S")) + ":" + k.key_type() +
          "}] New schema: VectorIndexSchema:[VectorAttribute: key{" + attribute +
          ":L:" + std::to_string(v.dimensions()) + "}]");
    }
    return std::nullopt;
  };
  if (auto e = redefined(table.key_schema())) return *e;
  for (const auto& g : table.global_secondary_indexes()) {
    if (auto e = redefined(g.key_schema())) return *e;
  }
  for (const auto& l : table.local_secondary_indexes()) {
    if (auto e = redefined(l.key_schema())) return *e;
  }
  // Its search schema attributes may not change a type the table has.
  for (const auto& e : v.search_schema()) {
    const v1::AttributeDefinition* mine = FindDefinition(definitions, e.attribute_name());
    const v1::AttributeDefinition* theirs = FindDefinition(table.attribute_definitions(), e.attribute_name());
    if (mine && theirs && mine->attribute_type() != theirs->attribute_type()) {
      // The same words as for a GSI key attribute (DynamoDB's are not on record).
      return Error::InvalidParameter("Cannot change the type of attribute " + e.attribute_name() +
                                     " while it is used as a key");
    }
  }
  std::map<std::string, int64_t> dimensions;
  for (const auto& existing : table.vector_indexes()) {
    dimensions.emplace(existing.vector_attribute().attribute_name(), existing.dimensions());
  }
  return CheckSameDimensions(dimensions, v);
}

Status CheckVectorIndexOverride(const google::protobuf::RepeatedPtrField<v1::VectorIndex>& overrides,
                                const v1::TableDescription& source) {
  for (const auto& o : overrides) {
    const v1::VectorIndexDescription* found = nullptr;
    for (const auto& v : source.vector_indexes()) {
      if (v.index_name() == o.index_name()) found = &v;
    }
    // pogi's words.
    if (!found) {
      return Error::InvalidParameter("VectorIndexOverride names an index the source table does not have: " +
                                     o.index_name());
    }
    bool same = found->vector_attribute().attribute_name() == o.vector_attribute().attribute_name() &&
                found->dimensions() == o.dimensions() &&
                found->distance_function() == o.distance_function() &&
                found->projection().SerializeAsString() == o.projection().SerializeAsString() &&
                found->search_schema_size() == o.search_schema_size();
    for (int i = 0; same && i < o.search_schema_size(); ++i) {
      same = found->search_schema(i).SerializeAsString() == o.search_schema(i).SerializeAsString();
    }
    if (!same) {
      return Error::InvalidParameter("VectorIndexOverride for index " + o.index_name() +
                                     " does not match the source table's definition of it");
    }
  }
  return Status::Ok();
}

v1::VectorIndexDescription DescribeNewVectorIndex(const v1::VectorIndex& v, const std::string& table_arn) {
  v1::VectorIndexDescription d;
  d.set_index_name(v.index_name());
  *d.mutable_search_schema() = v.search_schema();
  *d.mutable_projection() = v.projection();
  *d.mutable_vector_attribute() = v.vector_attribute();
  d.set_dimensions(v.dimensions());
  d.set_distance_function(v.distance_function());
  d.set_index_status("ACTIVE");
  d.set_index_arn(IndexArn(table_arn, v.index_name()));
  return d;
}

}  // namespace pogi::service
