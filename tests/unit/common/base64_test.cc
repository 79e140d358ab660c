// Base64 as DynamoDB JSON carries binary values: round trips, and the strict
// decoder's refusals, canonical form included.
#include "common/base64.h"

#include <gtest/gtest.h>

namespace pogi {
namespace {

TEST(Base64Test, RoundTrips) {
  for (std::string bytes : {std::string(), std::string("a"), std::string("ab"), std::string("abc"),
                            std::string("\x00\xff\x10", 3), std::string(1000, '\x7f')}) {
    auto back = Base64Decode(Base64Encode(bytes));
    ASSERT_TRUE(back) << Base64Encode(bytes);
    EXPECT_EQ(*back, bytes);
  }
  EXPECT_EQ(Base64Encode("a"), "YQ==");
  EXPECT_EQ(Base64Encode("ab"), "YWI=");
}

TEST(Base64Test, RefusesWhatIsNotCanonical) {
  for (const char* bad : {"YQ=", "Y===", "YQ=a", "Y Q=", "YQ==YQ==", "=YQ=",
                          // unused bits of the last quantum set
                          "YR==", "+/+=", "YWJ="}) {
    EXPECT_FALSE(Base64Decode(bad)) << bad;
  }
  EXPECT_TRUE(Base64Decode("Yg=="));
  EXPECT_TRUE(Base64Decode("//8A"));
  EXPECT_TRUE(Base64Decode("+/8="));
}

}  // namespace
}  // namespace pogi
