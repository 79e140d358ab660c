// Tests for service/core/catalog: tables of one name in several regions,
// and which one a request's region sees in the default (one namespace) and
// strict modes.
#include "service/core/catalog.h"

#include <gtest/gtest.h>

#include "service/core/region.h"

namespace pogi::service {
namespace {

std::shared_ptr<const Table> MakeTable(const Catalog& catalog, int64_t id, const std::string& name,
                                       const std::string& region) {
  v1::TableDescription d;
  d.set_table_name(name);
  d.set_table_arn("arn:aws:dynamodb:" + region + ":000000000000:table/" + name);
  auto* k = d.add_key_schema();
  k->set_attribute_name("pk");
  k->set_key_type("HASH");
  auto* a = d.add_attribute_definitions();
  a->set_attribute_name("pk");
  a->set_attribute_type("S");
  return catalog.Make(id, d);
}

class CatalogRegionsTest : public ::testing::Test {
 protected:
  void TearDown() override { SetStrictRegions(false); }
  Catalog catalog_;
};

TEST_F(CatalogRegionsTest, ATableLivesInItsArnsRegion) {
  auto t = MakeTable(catalog_, 1, "orders", "eu-west-3");
  EXPECT_EQ(t->region, "eu-west-3");
  v1::TableDescription bare;
  bare.set_table_name("old");
  EXPECT_EQ(catalog_.Make(2, bare)->region, Region());  // a description without an ARN
}

TEST_F(CatalogRegionsTest, OneNamespaceByDefault) {
  catalog_.Put(MakeTable(catalog_, 1, "orders", "us-east-1"));
  for (const char* region : {"us-east-1", "us-west-2", "eu-west-1"}) {
    RequestRegionScope scope(region);
    auto t = catalog_.Find("orders");
    ASSERT_TRUE(t) << region;
    EXPECT_EQ(t->id, 1) << region;
    EXPECT_EQ(catalog_.Visible().size(), 1u) << region;
  }
}

TEST_F(CatalogRegionsTest, AReplicaAnswersItsRegionInEitherMode) {
  catalog_.Put(MakeTable(catalog_, 1, "orders", "us-east-1"));
  catalog_.Put(MakeTable(catalog_, 2, "orders", "us-west-2"));
  for (bool strict : {false, true}) {
    SetStrictRegions(strict);
    {
      RequestRegionScope scope("us-west-2");
      EXPECT_EQ(catalog_.Find("orders")->id, 2);
    }
    EXPECT_EQ(catalog_.Find("orders")->id, 1);  // the home region
    RequestRegionScope scope("eu-west-1");
    auto t = catalog_.Find("orders");
    if (strict) {
      EXPECT_FALSE(t);
      EXPECT_TRUE(catalog_.Visible().empty());
    } else {
      ASSERT_TRUE(t);
      EXPECT_EQ(t->id, 1);  // the home region's, in one namespace
    }
  }
  EXPECT_EQ(catalog_.All().size(), 2u);
  EXPECT_EQ(catalog_.AllNamed("orders").size(), 2u);
}

TEST_F(CatalogRegionsTest, StrictRegionsKeepSameNamedTablesApart) {
  SetStrictRegions(true);
  catalog_.Put(MakeTable(catalog_, 1, "orders", "us-east-1"));
  catalog_.Put(MakeTable(catalog_, 2, "orders", "ap-south-1"));
  catalog_.Put(MakeTable(catalog_, 3, "users", "ap-south-1"));
  {
    RequestRegionScope scope("ap-south-1");
    EXPECT_EQ(catalog_.Find("orders")->id, 2);
    EXPECT_EQ(catalog_.Visible().size(), 2u);
  }
  EXPECT_FALSE(catalog_.Find("users"));
  EXPECT_EQ(catalog_.Visible().size(), 1u);
  catalog_.Remove("orders", "ap-south-1");
  RequestRegionScope scope("ap-south-1");
  EXPECT_FALSE(catalog_.Find("orders"));
  EXPECT_EQ(catalog_.FindIn("orders", "us-east-1")->id, 1);
}

TEST_F(CatalogRegionsTest, AnArnNamesTheTableOfItsRegion) {
  catalog_.Put(MakeTable(catalog_, 1, "orders", "us-east-1"));
  catalog_.Put(MakeTable(catalog_, 2, "orders", "us-west-2"));
  const std::string west = "arn:aws:dynamodb:us-west-2:000000000000:table/orders";
  const std::string south = "arn:aws:dynamodb:ap-south-1:000000000000:table/orders";
  EXPECT_EQ(catalog_.FindNamed("orders", west)->id, 2);
  EXPECT_FALSE(catalog_.FindNamed("orders", south));
  SetStrictRegions(true);
  EXPECT_FALSE(catalog_.FindNamed("orders", west));  // another region's table, strictly
  RequestRegionScope scope("us-west-2");
  EXPECT_EQ(catalog_.FindNamed("orders", west)->id, 2);
}

TEST_F(CatalogRegionsTest, TheRegionsOfTablesAreServed) {
  EXPECT_TRUE(ServesRegion(Region()));
  EXPECT_FALSE(ServesRegion("sa-east-1"));
  catalog_.Put(MakeTable(catalog_, 1, "orders", "sa-east-1"));
  EXPECT_TRUE(ServesRegion("sa-east-1"));
  catalog_.Remove("orders", "sa-east-1");
  EXPECT_FALSE(ServesRegion("sa-east-1"));
  SetStrictRegions(true);
  EXPECT_TRUE(ServesRegion("sa-east-1"));
}

TEST(RequestRegionTest, ScopesSetAndRestoreTheRequestRegion) {
  EXPECT_EQ(RequestRegion(), Region());
  EXPECT_FALSE(InOtherRegion());
  {
    RequestRegionScope scope("eu-central-1");
    EXPECT_EQ(RequestRegion(), "eu-central-1");
    EXPECT_TRUE(InOtherRegion());
  }
  EXPECT_EQ(RequestRegion(), Region());
  {
    RequestRegionScope home(Region());
    RequestRegionScope none("");
    RequestRegionScope bad("Not A Region");
    EXPECT_FALSE(InOtherRegion());
  }
  EXPECT_EQ(CredentialRegion("AKID/20260101/eu-west-2/dynamodb/aws4_request"), "eu-west-2");
  EXPECT_EQ(CredentialRegion("AKID/20260101"), "");
  EXPECT_EQ(CredentialRegion(""), "");
}

}  // namespace
}  // namespace pogi::service
