// Tests for ClientOrder / FirstFailureInClientOrder: the thread's EntryOrder
// when there is one and it knows the order, name order otherwise.
#include "common/entry_order.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace pogi {
namespace {

// An order that puts names longest first, or knows nothing.
class LongestFirst final : public EntryOrder {
 public:
  explicit LongestFirst(bool knows) : knows_(knows) {}
  bool Sort(std::vector<const std::string*>& names) const override {
    ++asked;
    if (!knows_) return false;
    std::stable_sort(names.begin(), names.end(),
                     [](const std::string* a, const std::string* b) { return a->size() > b->size(); });
    return true;
  }
  mutable int asked = 0;

 private:
  bool knows_;
};

std::vector<std::string> Names(const std::vector<const std::string*>& names) {
  std::vector<std::string> out;
  for (const std::string* n : names) out.push_back(*n);
  return out;
}

const std::map<std::string, int> kMap = {{"b", 1}, {"ccc", 3}, {"aa", 2}};

TEST(EntryOrderTest, WithoutAnOrderNamesGoInNameOrder) {
  EXPECT_EQ(CurrentEntryOrder(), nullptr);
  EXPECT_EQ(Names(ClientOrder(kMap)), (std::vector<std::string>{"aa", "b", "ccc"}));
}

TEST(EntryOrderTest, TheThreadsOrderWinsWhileItsScopeLasts) {
  LongestFirst order(true);
  {
    EntryOrderScope scope(&order);
    EXPECT_EQ(Names(ClientOrder(kMap)), (std::vector<std::string>{"ccc", "aa", "b"}));
  }
  EXPECT_EQ(CurrentEntryOrder(), nullptr);
  EXPECT_EQ(Names(ClientOrder(kMap)), (std::vector<std::string>{"aa", "b", "ccc"}));
}

TEST(EntryOrderTest, AnOrderThatDoesNotKnowFallsBackToNameOrder) {
  LongestFirst order(false);
  EntryOrderScope scope(&order);
  EXPECT_EQ(Names(ClientOrder(kMap)), (std::vector<std::string>{"aa", "b", "ccc"}));
  EXPECT_EQ(order.asked, 1);
}

TEST(EntryOrderTest, AOneEntryMapDoesNotAsk) {
  LongestFirst order(true);
  EntryOrderScope scope(&order);
  EXPECT_EQ(Names(ClientOrder(std::map<std::string, int>{{"x", 1}})), (std::vector<std::string>{"x"}));
  EXPECT_EQ(order.asked, 0);
}

TEST(EntryOrderTest, FirstFailureIsTheFirstBadEntryTheClientWrote) {
  auto odd = [](const std::string& name) -> Status {
    if (kMap.at(name) % 2) return Error::Validation("bad " + name);
    return Status::Ok();
  };
  EXPECT_EQ(FirstFailureInClientOrder(kMap, Error::Validation("found"), odd).message(), "bad b");
  LongestFirst order(true);
  EntryOrderScope scope(&order);
  EXPECT_EQ(FirstFailureInClientOrder(kMap, Error::Validation("found"), odd).message(), "bad ccc");
  // A check that fails for no entry leaves the error already found.
  auto none = [](const std::string&) { return Status::Ok(); };
  EXPECT_EQ(FirstFailureInClientOrder(kMap, Error::Validation("found"), none).message(), "found");
}

TEST(ListedEntryOrderTest, AListedMapInItsOrderElseTheOuterOrder) {
  const std::vector<std::vector<std::string>> listed = {{"ccc", "b", "aa"}, {"x", "y"}};
  LongestFirst outer(true);
  ListedEntryOrder order(&listed, &outer);
  EntryOrderScope scope(&order);
  EXPECT_EQ(Names(ClientOrder(kMap)), (std::vector<std::string>{"ccc", "b", "aa"}));
  EXPECT_EQ(outer.asked, 0);
  const std::map<std::string, int> unlisted = {{"dd", 1}, {"e", 2}};
  EXPECT_EQ(Names(ClientOrder(unlisted)), (std::vector<std::string>{"dd", "e"}));  // the outer's answer
  EXPECT_EQ(outer.asked, 1);
}

TEST(ListedEntryOrderTest, TwoListingsThatDisagreeAreNotKnown) {
  const std::vector<std::vector<std::string>> listed = {{"b", "aa", "ccc"}, {"ccc", "aa", "b"}};
  ListedEntryOrder order(&listed, nullptr);
  EntryOrderScope scope(&order);
  EXPECT_EQ(Names(ClientOrder(kMap)), (std::vector<std::string>{"aa", "b", "ccc"}));  // name order
}

}  // namespace
}  // namespace pogi
