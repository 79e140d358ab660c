// Tests for the aws:rep:* attributes of legacy global tables' items.
#include "service/write/legacy_attributes.h"

#include <gtest/gtest.h>

namespace pogi::service {
namespace {

TEST(LegacyAttributesTest, AddsTheThreeAttributes) {
  value::AttributeMap item;
  item["pk"].set_s("a");
  auto out = WithLegacyAttributes(item, "eu-west-1", 1554766902.780001);
  EXPECT_EQ(out.at("pk").s(), "a");
  EXPECT_EQ(out.at("aws:rep:updateregion").s(), "eu-west-1");
  EXPECT_EQ(out.at("aws:rep:updatetime").n(), "1554766902.780001");
  EXPECT_TRUE(out.at("aws:rep:deleting").has_bool_value());
  EXPECT_FALSE(out.at("aws:rep:deleting").bool_value());
  EXPECT_EQ(item.size(), 1u);  // the input is left as it was
}

TEST(LegacyAttributesTest, TimeInCanonicalNumberForm) {
  value::AttributeMap item;
  EXPECT_EQ(WithLegacyAttributes(item, "us-east-1", 1700000000.5).at("aws:rep:updatetime").n(),
            "1700000000.5");
  EXPECT_EQ(WithLegacyAttributes(item, "us-east-1", 1700000000.0).at("aws:rep:updatetime").n(), "1700000000");
}

TEST(LegacyAttributesTest, OnlyLegacyMembers) {
  v1::TableDescription d;
  EXPECT_FALSE(IsLegacyGlobalMember(d));
  d.set_global_table_version("2019.11.21");
  EXPECT_FALSE(IsLegacyGlobalMember(d));
  d.set_global_table_version("2017.11.29");
  EXPECT_TRUE(IsLegacyGlobalMember(d));
}

}  // namespace
}  // namespace pogi::service
