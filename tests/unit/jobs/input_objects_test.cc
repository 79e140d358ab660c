// The input objects of an import or a bulk put: every object under the
// prefix in key order, an export's folder read as the data files its
// manifest lists, a listed file that is missing refused.
#include "jobs/input_objects.h"

#include <gtest/gtest.h>

namespace pogi::jobs {
namespace {

std::vector<std::string> Keys(const InputObjects& in) {
  std::vector<std::string> out;
  for (const auto& o : in.objects) out.push_back(o.key);
  return out;
}

TEST(InputObjectsTest, AnExportsFolderReadsAsItsDataFiles) {
  auto store = outbound::OpenObjectStore({});
  ASSERT_TRUE(store.ok());
  auto& s = **store;
  ASSERT_TRUE(s.Put("b", "p/plain.json", "x").ok());
  ASSERT_TRUE(s.Put("b", "p/AWSDynamoDB/1/_started", "").ok());
  ASSERT_TRUE(s.Put("b", "p/AWSDynamoDB/1/data/f.json.gz", "yy").ok());
  ASSERT_TRUE(s.Put("b", "p/AWSDynamoDB/1/manifest-summary.json", "{}").ok());
  ASSERT_TRUE(s.Put("b", "p/AWSDynamoDB/1/manifest-files.json",
                    "{\"dataFileS3Key\":\"p/AWSDynamoDB/1/data/f.json.gz\"}\n{\"itemCount\":1}\n")
                  .ok());
  ASSERT_TRUE(s.Put("b", "q/other.json", "z").ok());
  auto got = ListInputObjects(s, "b", "p/");
  ASSERT_TRUE(got.ok()) << got.error().message();
  EXPECT_EQ(Keys(*got), (std::vector<std::string>{"p/AWSDynamoDB/1/data/f.json.gz", "p/plain.json"}));
  EXPECT_EQ(got->objects[0].size, 2);
  ASSERT_EQ(got->bad_manifest_lines.size(), 1u);
  EXPECT_EQ(got->bad_manifest_lines[0].first, "p/AWSDynamoDB/1/manifest-files.json");

  ASSERT_TRUE(s.Put("b", "m/manifest-files.json", "{\"dataFileS3Key\":\"m/gone.json\"}\n").ok());
  auto missing = ListInputObjects(s, "b", "m/");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(outbound::FailureOf(missing.error()).code, "S3NoSuchKey");
}

}  // namespace
}  // namespace pogi::jobs
