#include "common/uuid.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace pogi {
namespace {

TEST(RandomUuidTest, IsAVersion4UuidInLowerCaseHex) {
  const std::regex form("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  for (int i = 0; i < 100; ++i) {
    std::string id = RandomUuid();
    EXPECT_TRUE(std::regex_match(id, form)) << id;
  }
}

TEST(RandomUuidTest, DoesNotRepeat) {
  std::set<std::string> seen;
  for (int i = 0; i < 10000; ++i) EXPECT_TRUE(seen.insert(RandomUuid()).second);
}

}  // namespace
}  // namespace pogi
