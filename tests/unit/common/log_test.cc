// The logger's two line formats, read back from a log file.
#include "common/log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace pogi::log {
namespace {

class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/pogi-log-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    path_ = std::string(dir) + "/pogi.log";
  }
  void TearDown() override {
    Options defaults;
    ASSERT_TRUE(Init(defaults).ok());  // back to stderr for the other tests
    std::remove(path_.c_str());
  }
  std::vector<std::string> Lines() {
    Flush();
    std::ifstream in(path_);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
  std::string path_;
};

TEST_F(LogTest, JsonLinesCarryTimeLevelMessageAndTypedFields) {
  ASSERT_TRUE(Init({Level::kInfo, Format::kJson, path_}).ok());
  Info("hello \"world\"\n", {{"door", "http"}, {"status", 200}, {"empty", ""}});
  Warn("careful");
  Debug("not shown at info");
  auto lines = Lines();
  ASSERT_EQ(lines.size(), 2u);
  auto first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first["level"], "info");
  EXPECT_EQ(first["message"], "hello \"world\"\n");
  EXPECT_EQ(first["door"], "http");
  EXPECT_EQ(first["status"], 200);
  EXPECT_FALSE(first.contains("empty"));
  EXPECT_EQ(first["time"].get<std::string>().size(), 24u);  // 2026-12-01T09:30:00.123Z
  EXPECT_EQ(nlohmann::json::parse(lines[1])["level"], "warn");
}

TEST_F(LogTest, TextLinesQuoteValuesThatWouldNotReadBackAsOneToken) {
  ASSERT_TRUE(Init({Level::kDebug, Format::kText, path_}).ok());
  Debug("request", {{"table", "plain"}, {"error", "a b"}, {"n", int64_t{-5}}});
  auto lines = Lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("Z debug request table=plain error=\"a b\" n=-5"), std::string::npos) << lines[0];
}

TEST_F(LogTest, LevelsAndFormatsParse) {
  Level level;
  Format format;
  EXPECT_TRUE(ParseLevel("warn", &level));
  EXPECT_EQ(level, Level::kWarn);
  EXPECT_FALSE(ParseLevel("warning", &level));
  EXPECT_TRUE(ParseFormat("json", &format));
  EXPECT_EQ(format, Format::kJson);
  EXPECT_FALSE(ParseFormat("xml", &format));
}

TEST_F(LogTest, EnabledFollowsTheLevel) {
  ASSERT_TRUE(Init({Level::kError, Format::kText, path_}).ok());
  EXPECT_TRUE(Enabled(Level::kError));
  EXPECT_FALSE(Enabled(Level::kWarn));
}

}  // namespace
}  // namespace pogi::log
