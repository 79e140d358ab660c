// Index definition rules, with DynamoDB's messages.
#include "service/index_schema.h"

namespace pogi::service {
namespace {

std::string Join(const std::set<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

void CheckIndexMembers(Constraints& c, const std::string* name,
                       const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema,
                       const v1::Projection* projection, const v1::ProvisionedThroughput* throughput,
                       const std::string& path) {
  c.Required(name != nullptr, path + ".indexName");
  c.NamePattern(name, path + ".indexName");
  c.Length(name, 3, 255, path + ".indexName");
  if (key_schema.empty() || key_schema.size() > 2) {
    c.Count(key_schema.size(), 1, 2, "[...]", path + ".keySchema");
  }
  for (int i = 0; i < key_schema.size(); ++i) {
    const auto& k = key_schema[i];
    std::string at = path + ".keySchema." + std::to_string(i + 1) + ".member.";
    c.Required(k.has_attribute_name(), at + "attributeName");
    c.Length(k.has_attribute_name() ? &k.attribute_name() : nullptr, 1, 255, at + "attributeName");
    c.Required(k.has_key_type(), at + "keyType");
    c.OneOf(k.has_key_type() ? &k.key_type() : nullptr, {"HASH", "RANGE"}, at + "keyType");
  }
  c.Required(projection != nullptr, path + ".projection");
  if (projection) {
    c.OneOf(projection->has_projection_type() ? &projection->projection_type() : nullptr,
            {"ALL", "KEYS_ONLY", "INCLUDE"}, path + ".projection.projectionType");
  }
  if (throughput) {
    c.AtLeast(throughput->has_read_capacity_units() ? std::optional(throughput->read_capacity_units())
                                                    : std::nullopt,
              1, path + ".provisionedThroughput.readCapacityUnits");
    c.AtLeast(throughput->has_write_capacity_units() ? std::optional(throughput->write_capacity_units())
                                                     : std::nullopt,
              1, path + ".provisionedThroughput.writeCapacityUnits");
  }
}

Status CheckIndexSchema(const std::string& name,
                        const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& ks,
                        const v1::Projection& projection, bool local,
                        const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& table_ks,
                        const google::protobuf::RepeatedPtrField<v1::AttributeDefinition>& definitions) {
  if (ks[0].key_type() != "HASH") {
    return Error::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (ks.size() == 2) {
    if (ks[1].key_type() != "RANGE") {
      return Error::Validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    }
    if (ks[0].attribute_name() == ks[1].attribute_name()) {
      return Error::Validation(
          "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    }
  }
  std::set<std::string> defined, missing;
  for (const auto& d : definitions) defined.insert(d.attribute_name());
  for (const auto& k : ks) {
    if (!defined.count(k.attribute_name())) missing.insert(k.attribute_name());
  }
  if (!missing.empty()) {
    return Error::InvalidParameter(
        "Some index key attributes are not defined in AttributeDefinitions. Keys: [" + Join(missing) +
        "], AttributeDefinitions: [" + Join(defined) + "]");
  }
  if (local) {
    if (table_ks.size() < 2) {
      return Error::InvalidParameter(
          "Table KeySchema does not have a range key, which is required when specifying a "
          "LocalSecondaryIndex");
    }
    if (ks[0].attribute_name() != table_ks[0].attribute_name()) {
      return Error::InvalidParameter(
          "Index KeySchema does not have the same leading hash key as table KeySchema "
          "for index: " +
          name + ". index hash key: " + ks[0].attribute_name() +
          ", table hash key: " + table_ks[0].attribute_name());
    }
    if (ks.size() < 2) {
      return Error::InvalidParameter("Index KeySchema does not have a range key for index: " + name);
    }
  }
  const std::string& type = projection.projection_type();
  if (type != "INCLUDE" && projection.non_key_attributes_size() > 0) {
    return Error::InvalidParameter("ProjectionType is " + type + ", but NonKeyAttributes is specified");
  }
  if (type == "INCLUDE" && projection.non_key_attributes_size() == 0) {
    return Error::InvalidParameter("NonKeyAttributes must be specified when ProjectionType is INCLUDE");
  }
  return Status::Ok();
}

Status CheckIndexThroughput(const std::string& name, bool has_throughput, bool on_demand) {
  if (on_demand && has_throughput) {
    return Error::InvalidParameter("ProvisionedThroughput should not be specified for index: " + name +
                                   " when BillingMode is PAY_PER_REQUEST");
  }
  if (!on_demand && !has_throughput) {
    return Error::InvalidParameter("ProvisionedThroughput must be specified for index: " + name);
  }
  return Status::Ok();
}

}  // namespace pogi::service
