// Tests for service/region: the shape of a region name, and the region in
// the ARNs pogi builds.
#include "service/core/region.h"

#include <gtest/gtest.h>

#include "service/validate/control_plane.h"

namespace pogi::service {
namespace {

TEST(RegionTest, RegionNames) {
  for (const char* good : {"us-east-1", "eu-west-3", "ap-southeast-2", "us-gov-west-1", "cn-north-1",
                           "il-central-1", "us-isob-east-1", "ap-east-12"}) {
    EXPECT_TRUE(IsRegionName(good)) << good;
  }
  for (const char* bad :
       {"", "us", "us-east", "east-1", "-east-1", "us--east-1", "us-east-", "US-EAST-1", "us-east-1a",
        "us_east_1", "us-east-123", "aws-global", "us-east-1 ", "abcdefghijklmnopqrstuvwxyz-abcdef-1"}) {
    EXPECT_FALSE(IsRegionName(bad)) << bad;
  }
}

TEST(RegionTest, ArnsCarryTheRegion) {
  EXPECT_EQ(Region(), "us-east-1");
  SetRegion("eu-west-1");
  EXPECT_EQ(TableArnOf("t"), "arn:aws:dynamodb:eu-west-1:000000000000:table/t");
  EXPECT_EQ(TableNameOfArn("arn:aws:dynamodb:eu-west-1:000000000000:table/t"), "t");
  EXPECT_EQ(TableNameOfArn("arn:aws:dynamodb:us-east-1:000000000000:table/t"), "t");  // any region
  EXPECT_EQ(TableNameOfArn("arn:aws:dynamodb:us-east-1:111111111111:table/t"), std::nullopt);
  SetRegion(kDefaultRegion);
  EXPECT_EQ(TableArnOf("t"), "arn:aws:dynamodb:us-east-1:000000000000:table/t");
}

}  // namespace
}  // namespace pogi::service
