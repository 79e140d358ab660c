// Tests that a shard roll-over committed while a reader holds the streams'
// cached state (read before the roll-over) neither shows a child's record
// as its parent's nor loses one: a reader that follows the lineage sees
// each record once, in order. Once in CI, three processes on one
// PostgreSQL database showed a record in both a parent and its child
// (tests/e2e/test_postgresql_shared_state.py): GetRecords took an open
// shard's bounds from the cache and its records from a later snapshot,
// which held the roll-over and the child's first record. Here the
// interleaving is made on purpose, on every backend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "service/engine/engine.h"
#include "service/streams/streams.h"
#include "tests/unit/storage/backend_fixture.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::S;

constexpr double kT0 = 1893456000;

class ShardLineageTest : public storage::BackendTest {
 protected:
  void SetUp() override {
    storage::BackendTest::SetUp();
    clock_ = std::make_shared<ControllableClock>(kT0, true);
  }
  std::shared_ptr<ControllableClock> clock_;
};
INSTANTIATE_TEST_SUITE_P(Backends, ShardLineageTest, ::testing::Values("sqlite", "postgresql"),
                         storage::BackendName);

// Streams over storage directly: the shard a reader cached before a
// roll-over, then the roll-over and a record of the child, then the read.
TEST_P(ShardLineageTest, AShardCachedBeforeARollOverReadsOnlyItsOwnRecords) {
  auto storage = OpenFresh();
  ASSERT_TRUE(storage);
  Streams streams(*clock_);
  int64_t id = 0;
  v1::TableDescription table;
  table.set_table_name("tbl");
  table.set_table_arn("arn:aws:dynamodb:us-east-1:000000000000:table/tbl");
  storage::MustWrite(*storage, [&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(id, streams.Create(txn, &table, 1, "NEW_IMAGE"));
    return Status::Ok();
  });
  auto append = [&](const std::string& record) {
    int64_t seq = 0;
    storage::MustWrite(*storage, [&](storage::WriteTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(seq, txn.AppendStreamRecord(id, clock_->Now(), record));
      return Status::Ok();
    });
    return seq;
  };
  auto read = [&](const v1::ShardState& shard, int64_t after) {
    Streams::ShardRecords out;
    Status st = storage->Read([&](storage::ReadTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(out, Streams::ReadShard(txn, id, shard, after, 1000));
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.error().message();
    return out;
  };

  int64_t a = append("a");
  const v1::ShardState cached = streams.Get(id)->shards(0);  // open, as a reader cached it
  ASSERT_EQ(cached.end(), 0);
  auto closed = streams.CloseShard(*storage, id);
  ASSERT_TRUE(closed.ok()) << closed.error().message();
  int64_t b = append("b");  // the child's

  auto parent = read(cached, cached.start() - 1);
  ASSERT_EQ(parent.rows.size(), 1u);
  EXPECT_EQ(parent.rows[0].sequence, a);
  EXPECT_NE(parent.end, 0) << "the end committed before the read, not the cached open shard's";
  EXPECT_GE(parent.end, a);
  EXPECT_LT(parent.end, b);

  auto state = streams.Get(id);
  ASSERT_EQ(state->shards_size(), 2);
  EXPECT_EQ(state->shards(0).end(), parent.end);
  const v1::ShardState& child = state->shards(1);
  EXPECT_EQ(child.parent_shard_id(), cached.shard_id());
  auto rest = read(child, child.start() - 1);
  ASSERT_EQ(rest.rows.size(), 1u);
  EXPECT_EQ(rest.rows[0].sequence, b);
  EXPECT_EQ(rest.end, 0);
  // An end once read is final: the cached closed shard reads the same.
  auto again = read(state->shards(0), cached.start() - 1);
  ASSERT_EQ(again.rows.size(), 1u);
  EXPECT_EQ(again.end, parent.end);
}

// Two engines on one PostgreSQL schema, as two pogi processes: B's cached
// state predates the roll-over A commits (B follows the catalog only when
// told, as an operation does first), the interleaving that read a record
// twice through GetRecords.
TEST_P(ShardLineageTest, AReaderFollowingLineageThroughAnotherProcessSeesEachRecordOnce) {
  if (!IsPostgres()) GTEST_SKIP() << "one process per SQLite file (the Streams case above covers it)";
  auto open = [&]() -> std::unique_ptr<Engine> {
    auto r = Engine::Open(BackendOptions("engines"), clock_);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? std::move(r).value() : nullptr;
  };
  auto a = open();
  ASSERT_TRUE(a);
  v1::CreateTableRequest create;
  create.set_table_name("tbl");
  create.set_billing_mode("PAY_PER_REQUEST");
  auto* attr = create.add_attribute_definitions();
  attr->set_attribute_name("pk");
  attr->set_attribute_type("S");
  auto* key = create.add_key_schema();
  key->set_attribute_name("pk");
  key->set_key_type("HASH");
  create.mutable_stream_specification()->set_stream_enabled(true);
  create.mutable_stream_specification()->set_stream_view_type("KEYS_ONLY");
  auto created = a->CreateTable(create);
  ASSERT_TRUE(created.ok()) << created.error().message();
  const std::string arn = created->table_description().latest_stream_arn();
  auto b = open();  // loads the stream with its one open shard
  ASSERT_TRUE(b);

  auto put = [&](const std::string& pk) {
    v1::PutItemRequest req;
    req.set_table_name("tbl");
    (*req.mutable_item()->mutable_attributes())["pk"] = S(pk);
    auto r = a->PutItem(req);
    ASSERT_TRUE(r.ok()) << r.error().message();
  };
  auto shards = [&](Engine& e) {
    v1::DescribeStreamRequest req;
    req.set_stream_arn(arn);
    auto r = e.DescribeStream(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->stream_description().shards() : google::protobuf::RepeatedPtrField<v1::Shard>();
  };
  auto iterator = [&](Engine& e, const std::string& shard, const std::string& type) {
    v1::GetShardIteratorRequest req;
    req.set_stream_arn(arn);
    req.set_shard_id(shard);
    req.set_shard_iterator_type(type);
    auto r = e.GetShardIterator(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->shard_iterator() : "";
  };
  std::vector<std::string> seen;
  // One GetRecords through `e`; whether it gave a next iterator.
  auto records = [&](Engine& e, std::string* it) {
    v1::GetRecordsRequest req;
    req.set_shard_iterator(*it);
    auto r = e.GetRecords(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    if (!r.ok()) return false;
    v1::GetRecordsResponse parsed;  // as a client reads the carried records
    EXPECT_TRUE(parsed.ParseFromString(r->SerializeAsString()));
    for (const auto& rec : parsed.records()) seen.push_back(rec.dynamodb().keys().at("pk").s());
    if (!parsed.has_next_shard_iterator()) return false;
    *it = parsed.next_shard_iterator();
    return true;
  };

  const std::string parent = shards(*b)[0].shard_id();
  std::string it = iterator(*b, parent, "TRIM_HORIZON");
  put("a");
  auto closed = a->CloseStreamShard("tbl");
  ASSERT_TRUE(closed.ok()) << closed.error().message();
  put("b");  // the child's first record
  // B still caches the parent as open (it has not followed the catalog):
  // its LATEST is after the parent's end, and its read ends at that end.
  std::string latest = iterator(*b, parent, "LATEST");
  EXPECT_FALSE(records(*b, &latest)) << "a LATEST iterator of a closed shard is at its end";
  EXPECT_TRUE(seen.empty());
  EXPECT_FALSE(records(*b, &it)) << "the parent is read to its end";
  EXPECT_EQ(seen, std::vector<std::string>{"a"});

  ASSERT_TRUE(b->FollowCatalog().ok());
  auto now = shards(*b);
  ASSERT_EQ(now.size(), 2);
  ASSERT_EQ(now[1].parent_shard_id(), parent);
  it = iterator(*b, now[1].shard_id(), "TRIM_HORIZON");
  EXPECT_TRUE(records(*b, &it)) << "the child is open";
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"})) << "each record once, in order";
}

}  // namespace
}  // namespace pogi::service
