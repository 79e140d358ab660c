// Tests for storage's vector index calls on every backend: entries put,
// replaced and removed within their partition and slot, each change raising
// its slot's generation in the same transaction (and a rolled-back one
// raising nothing), the counters, and DropIndex/DropTable removing every
// entry and generation.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "tests/unit/storage/backend_fixture.h"

namespace pogi::storage {
namespace {

class VectorStorageTest : public BackendTest {};
POGI_ON_EVERY_BACKEND(VectorStorageTest);

std::string Floats(std::initializer_list<float> values) {
  std::string s;
  for (float f : values) s.append(reinterpret_cast<const char*>(&f), sizeof f);
  return s;
}

int64_t NewIndex(Storage& s, int64_t table, const std::string& name) {
  int64_t id = 0;
  MustWrite(s, [&](WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(id, txn.CreateIndex(table, name));
    return Status::Ok();
  });
  return id;
}

VectorGenerations Generations(Storage& s, int64_t index, const std::string& partition) {
  VectorGenerations g{};
  EXPECT_TRUE(s.Read([&](ReadTxn& txn) { return txn.ReadVectorGenerations(index, partition, &g); }).ok());
  return g;
}

// Every entry of a partition: table partition key -> (vector bytes, filters, size).
std::map<std::string, std::tuple<std::string, std::string, int64_t>> Entries(Storage& s, int64_t index,
                                                                             const std::string& partition) {
  std::map<std::string, std::tuple<std::string, std::string, int64_t>> out;
  EXPECT_TRUE(s.Read([&](ReadTxn& txn) -> Status {
                 for (int slot = 0; slot < kVectorSlots; ++slot) {
                   POGI_RETURN_IF_ERROR(txn.ReadVectorSlot(index, partition, slot, [&](const VectorEntry& e) {
                     EXPECT_EQ(VectorSlot({std::string(e.table_partition), std::string(e.table_sort)}), slot);
                     out[std::string(e.table_partition) + "/" + std::string(e.table_sort)] = {
                         std::string(e.vector), std::string(e.filters), e.size};
                     return true;
                   }));
                 }
                 return Status::Ok();
               }).ok());
  return out;
}

int64_t Sum(const VectorGenerations& g) {
  int64_t n = 0;
  for (int64_t x : g) n += x;
  return n;
}

TEST(VectorSlotTest, IsStableAndSpreadsKeys) {
  // DO NOT CHANGE: stored on disk.
  EXPECT_EQ(VectorSlot({"a", ""}), 12);
  EXPECT_EQ(VectorSlot({"key1", "sort"}), 13);
  EXPECT_EQ(VectorSlot({"a", "1"}), 21);
  std::set<int> slots, of_one_partition;
  for (int i = 0; i < 1000; ++i) {
    int s = VectorSlot({"key" + std::to_string(i), "sort"});
    ASSERT_GE(s, 0);
    ASSERT_LT(s, kVectorSlots);
    slots.insert(s);
    of_one_partition.insert(VectorSlot({"key", std::to_string(i)}));
  }
  EXPECT_EQ(slots.size(), static_cast<size_t>(kVectorSlots));
  EXPECT_EQ(of_one_partition.size(), static_cast<size_t>(kVectorSlots));
}

TEST_P(VectorStorageTest, EntriesAndGenerations) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t v = NewIndex(*s, t, "vix");
  EXPECT_EQ(Sum(Generations(*s, v, "p")), 0);
  EXPECT_TRUE(Entries(*s, v, "p").empty());

  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutVectorEntry(v, "p", {"a", ""}, Floats({1, 2}), "fa", 30));
    return txn.PutVectorEntry(v, "p", {"b", "s"}, Floats({3, 4}), "", 31);
  });
  auto g1 = Generations(*s, v, "p");
  EXPECT_EQ(Sum(g1), 2);
  EXPECT_EQ(g1[VectorSlot({"a", ""})] >= 1, true);
  auto e = Entries(*s, v, "p");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(std::get<0>(e["a/"]), Floats({1, 2}));
  EXPECT_EQ(std::get<1>(e["a/"]), "fa");
  EXPECT_EQ(std::get<2>(e["b/s"]), 31);
  // Other partitions and indexes see none of it.
  EXPECT_TRUE(Entries(*s, v, "q").empty());
  EXPECT_EQ(Sum(Generations(*s, v, "")), 0);

  // A replacement raises only its own slot.
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutVectorEntry(v, "p", {"a", ""}, Floats({5, 6}), "", 30); });
  auto g2 = Generations(*s, v, "p");
  for (int slot = 0; slot < kVectorSlots; ++slot) {
    EXPECT_EQ(g2[slot], g1[slot] + (slot == VectorSlot({"a", ""}) ? 1 : 0)) << slot;
  }
  EXPECT_EQ(std::get<0>(Entries(*s, v, "p")["a/"]), Floats({5, 6}));

  // A rolled-back write changes neither entries nor generations.
  Status failed = s->Write([&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.DeleteVectorEntry(v, "p", {"b", "s"}));
    return Error::Internal("no");
  });
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(Generations(*s, v, "p"), g2);
  EXPECT_EQ(Entries(*s, v, "p").size(), 2u);

  MustWrite(*s, [&](WriteTxn& txn) { return txn.DeleteVectorEntry(v, "p", {"b", "s"}); });
  EXPECT_EQ(Entries(*s, v, "p").size(), 1u);
  EXPECT_EQ(Generations(*s, v, "p")[VectorSlot({"b", "s"})], g2[VectorSlot({"b", "s"})] + 1);

  auto counters = s->Read([&](ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto c, txn.VectorIndexCounters(v));
    EXPECT_EQ(c.first, 1);
    EXPECT_EQ(c.second, 30);
    return Status::Ok();
  });
  EXPECT_TRUE(counters.ok());
}

TEST_P(VectorStorageTest, ManyEntriesOfOneSlotReadWhole) {
  // More entries than a PostgreSQL page of them, all read.
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t v = NewIndex(*s, t, "vix");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    for (int i = 0; i < 3000; ++i) {
      POGI_RETURN_IF_ERROR(
          txn.PutVectorEntry(v, "", {"k" + std::to_string(i), ""}, Floats({float(i)}), "", 9));
    }
    return Status::Ok();
  });
  auto e = Entries(*s, v, "");
  ASSERT_EQ(e.size(), 3000u);
  EXPECT_EQ(std::get<0>(e["k2999/"]), Floats({2999}));
  EXPECT_EQ(Sum(Generations(*s, v, "")), 3000);
}

TEST_P(VectorStorageTest, DropIndexAndDropTableRemoveEntries) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t v = NewIndex(*s, t, "vix"), w = NewIndex(*s, t, "wix");
  MustWrite(*s, [&](WriteTxn& txn) -> Status {
    POGI_RETURN_IF_ERROR(txn.PutVectorEntry(v, "p", {"a", ""}, Floats({1}), "", 1));
    return txn.PutVectorEntry(w, "p", {"a", ""}, Floats({2}), "", 1);
  });
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DropIndex(v); });
  EXPECT_TRUE(Entries(*s, v, "p").empty());
  EXPECT_EQ(Sum(Generations(*s, v, "p")), 0);
  EXPECT_EQ(Entries(*s, w, "p").size(), 1u);
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DropTable(t); });
  EXPECT_TRUE(Entries(*s, w, "p").empty());
  EXPECT_EQ(Sum(Generations(*s, w, "p")), 0);
}

TEST_P(VectorStorageTest, SnapshotsKeepEntriesAndGenerations) {
  auto s = OpenFresh();
  int64_t t = NewTable(*s, "t");
  int64_t v = NewIndex(*s, t, "vix");
  MustWrite(*s, [&](WriteTxn& txn) { return txn.PutVectorEntry(v, "p", {"a", ""}, Floats({1}), "", 1); });
  auto g = Generations(*s, v, "p");
  ASSERT_TRUE(s->SaveSnapshot("snap").ok());
  MustWrite(*s, [&](WriteTxn& txn) { return txn.DeleteVectorEntry(v, "p", {"a", ""}); });
  ASSERT_TRUE(s->RestoreSnapshot("snap").ok());
  EXPECT_EQ(Entries(*s, v, "p").size(), 1u);
  EXPECT_EQ(Generations(*s, v, "p"), g);
}

}  // namespace
}  // namespace pogi::storage
