// The object stores' one contract, run on the folder store and the memory
// store, and on an S3-compatible server (s3rver) when POGI_TEST_S3_ENDPOINT
// names one (CTest's unit_s3.outbound starts it).
#include "outbound/object_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "outbound/http_client.h"
#include "outbound/sigv4_signer.h"

namespace pogi::outbound {
namespace {

std::string Code(const Error& e) { return FailureOf(e).code; }

// A fresh store and one bucket in it ("b"); "missing" is no bucket.
class StoreFixture {
 public:
  virtual ~StoreFixture() = default;
  virtual std::shared_ptr<ObjectStore> store() = 0;
  virtual void MakeBucket(const std::string& name) = 0;
  virtual bool buckets_exist_once_written() const { return false; }
};

class FolderFixture : public StoreFixture {
 public:
  FolderFixture() {
    root_ = std::filesystem::temp_directory_path() /
            ("pogi-store-" + std::to_string(getpid()) + "-" + std::to_string(counter_++));
    store_ = *MakeStore();
  }
  ~FolderFixture() override { std::filesystem::remove_all(root_); }
  Result<std::shared_ptr<ObjectStore>> MakeStore() {
    ObjectStoreOptions o;
    o.folder = root_.string() + "/s3";
    return OpenObjectStore(o);
  }
  std::shared_ptr<ObjectStore> store() override { return store_; }
  void MakeBucket(const std::string& name) override {
    std::filesystem::create_directories(root_ / "s3" / name);
  }
  std::filesystem::path root_;
  std::shared_ptr<ObjectStore> store_;
  static inline int counter_ = 0;
};

class MemoryFixture : public StoreFixture {
 public:
  MemoryFixture() : store_(*OpenObjectStore(ObjectStoreOptions{})) {}
  std::shared_ptr<ObjectStore> store() override { return store_; }
  void MakeBucket(const std::string& name) override { ASSERT_TRUE(store_->Put(name, ".keep", "").ok()); }
  bool buckets_exist_once_written() const override { return true; }
  std::shared_ptr<ObjectStore> store_;
};

// s3rver: buckets made with a signed PUT /bucket (its default account).
class S3Fixture : public StoreFixture {
 public:
  explicit S3Fixture(std::string endpoint) : endpoint_(std::move(endpoint)) {
    ObjectStoreOptions o;
    o.endpoint = endpoint_;
    o.access_key_id = o.secret_access_key = "S3RVER";
    o.part_size = 5 << 20;
    store_ = *OpenObjectStore(o);
    prefix_ = "t" + std::to_string(getpid()) + "-" + std::to_string(counter_++) + "-";
  }
  std::shared_ptr<ObjectStore> store() override { return store_; }
  void MakeBucket(const std::string& name) override {
    auto e = ParseEndpoint(endpoint_);
    auto conn = HttpConnection::Connect(*e);
    ASSERT_TRUE(conn.ok());
    HttpRequest req;
    req.method = "PUT";
    req.target = "/" + name;
    SignRequest(req, *e, SigningIdentity{"S3RVER", "S3RVER", "us-east-1", "s3"}, time(nullptr));
    auto resp = (*conn)->Send(req);
    ASSERT_TRUE(resp.ok());
    (void)(*conn)->ReadAll();
    ASSERT_EQ(resp->status, 200);
  }
  std::string prefix_;  // s3rver keeps buckets between tests: each test its own names

 private:
  std::string endpoint_;
  std::shared_ptr<ObjectStore> store_;
  static inline int counter_ = 0;
};

enum class Kind { kFolder, kMemory, kS3 };

class ObjectStoreTest : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    switch (GetParam()) {
      case Kind::kFolder:
        fixture_ = std::make_unique<FolderFixture>();
        break;
      case Kind::kMemory:
        fixture_ = std::make_unique<MemoryFixture>();
        break;
      case Kind::kS3: {
        const char* endpoint = std::getenv("POGI_TEST_S3_ENDPOINT");
        if (!endpoint) GTEST_SKIP() << "no POGI_TEST_S3_ENDPOINT (CTest's unit_s3.outbound sets it)";
        auto s3 = std::make_unique<S3Fixture>(endpoint);
        bucket_ = s3->prefix_ + "b";
        missing_ = s3->prefix_ + "missing";
        fixture_ = std::move(s3);
        break;
      }
    }
    fixture_->MakeBucket(bucket_);
    store_ = fixture_->store();
  }
  std::unique_ptr<StoreFixture> fixture_;
  std::shared_ptr<ObjectStore> store_;
  std::string bucket_ = "b", missing_ = "missing";
};

TEST_P(ObjectStoreTest, PutGetList) {
  ASSERT_TRUE(store_->CheckBucket(bucket_).ok());
  ASSERT_TRUE(store_->Put(bucket_, "AWSDynamoDB/01/data/a.json.gz", "aaa").ok());
  ASSERT_TRUE(store_->Put(bucket_, "AWSDynamoDB/01/manifest-summary.json", "{}").ok());
  ASSERT_TRUE(store_->Put(bucket_, "other/x y+z", "x").ok());
  auto got = store_->Get(bucket_, "AWSDynamoDB/01/data/a.json.gz", 100);
  ASSERT_TRUE(got.ok()) << got.error().message();
  EXPECT_EQ(*got, "aaa");
  auto list = store_->List(bucket_, "AWSDynamoDB/01/");
  ASSERT_TRUE(list.ok()) << list.error().message();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].key, "AWSDynamoDB/01/data/a.json.gz");
  EXPECT_EQ((*list)[0].size, 3);
  EXPECT_EQ((*list)[1].key, "AWSDynamoDB/01/manifest-summary.json");
  list = store_->List(bucket_, "AWSDynamoDB/01/data/a");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), 1u);
  got = store_->Get(bucket_, "other/x y+z", 100);
  ASSERT_TRUE(got.ok()) << got.error().message();
  EXPECT_EQ(*got, "x");
  // Replacing an object.
  ASSERT_TRUE(store_->Put(bucket_, "other/x y+z", "second").ok());
  EXPECT_EQ(*store_->Get(bucket_, "other/x y+z", 100), "second");
}

TEST_P(ObjectStoreTest, MissingBucketsAndKeys) {
  auto got = store_->Get(bucket_, "nope", 100);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(Code(got.error()), "S3NoSuchKey");
  auto list = store_->List(missing_, "");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(Code(list.error()), "S3NoSuchBucket");
  auto opened = store_->Open(missing_, "k");
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(Code(opened.error()), "S3NoSuchBucket");
  if (!fixture_->buckets_exist_once_written()) {
    Status s = store_->CheckBucket(missing_);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(Code(s.error()), "S3NoSuchBucket");
    Status put = store_->Put(missing_, "k", "v");
    ASSERT_FALSE(put.ok());
    EXPECT_EQ(Code(put.error()), "S3NoSuchBucket");
  }
  got = store_->Get(bucket_, "big", 100);
  EXPECT_FALSE(got.ok());
}

TEST_P(ObjectStoreTest, AnObjectAppearsOnlyWhenFinished) {
  {
    auto w = store_->Create(bucket_, "half");
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Write("some bytes").ok());
  }  // abandoned
  auto list = store_->List(bucket_, "half");
  ASSERT_TRUE(list.ok());
  EXPECT_TRUE(list->empty());
  EXPECT_FALSE(store_->Get(bucket_, "half", 100).ok());
}

TEST_P(ObjectStoreTest, LargeObjectsStream) {
  // Over one part (5 MiB for the S3 store): a multipart upload there.
  std::string chunk(1 << 20, 'x');
  for (size_t i = 0; i < chunk.size(); i += 997) chunk[i] = static_cast<char>('a' + i % 26);
  auto w = store_->Create(bucket_, "big/object");
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE((*w)->Write(chunk).ok());
  EXPECT_EQ((*w)->size(), 6 << 20);
  Status s = (*w)->Finish();
  ASSERT_TRUE(s.ok()) << s.error().message();
  auto r = store_->Open(bucket_, "big/object");
  ASSERT_TRUE(r.ok()) << r.error().message();
  std::string buf(100000, '\0');
  int64_t total = 0;
  bool same = true;
  for (;;) {
    auto n = (*r)->Read(buf.data(), buf.size());
    ASSERT_TRUE(n.ok()) << n.error().message();
    if (*n == 0) break;
    for (size_t i = 0; i < *n; ++i) same &= buf[i] == chunk[(total + i) % chunk.size()];
    total += *n;
  }
  EXPECT_EQ(total, 6 << 20);
  EXPECT_TRUE(same);
  auto list = store_->List(bucket_, "big/");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].size, 6 << 20);
}

INSTANTIATE_TEST_SUITE_P(Stores, ObjectStoreTest, ::testing::Values(Kind::kFolder, Kind::kMemory),
                         [](const auto& info) { return info.param == Kind::kFolder ? "folder" : "memory"; });
// Named S3Store* so that CTest's unit_s3.outbound runs exactly these.
INSTANTIATE_TEST_SUITE_P(S3Store, ObjectStoreTest, ::testing::Values(Kind::kS3),
                         [](const auto&) { return "s3rver"; });

TEST(FolderStoreTest, KeysThatCannotBeFilesAreRefused) {
  FolderFixture f;
  f.MakeBucket("b");
  for (const char* key : {"a//b", "../x", "a/./b", "", "a/.."}) {
    Status s = f.store()->Put("b", key, "v");
    ASSERT_FALSE(s.ok()) << key;
    EXPECT_EQ(Code(s.error()), "S3InvalidKey") << key;
  }
  EXPECT_EQ(Code(f.store()->CheckBucket("..").error()), "S3NoSuchBucket");
}

TEST(FolderStoreTest, ObjectsAreFilesUsersCanRead) {
  FolderFixture f;
  f.MakeBucket("b");
  ASSERT_TRUE(f.store()->Put("b", "p/q/r.txt", "hello").ok());
  std::ifstream in(f.root_ / "s3" / "b" / "p" / "q" / "r.txt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "hello");
  // A file a user copies in is an object.
  std::ofstream(f.root_ / "s3" / "b" / "seed.csv") << "pk\n1\n";
  EXPECT_EQ(*f.store()->Get("b", "seed.csv", 100), "pk\n1\n");
}

TEST(FolderStoreTest, ABucketRemovedMidWayFailsTheWrite) {
  FolderFixture f;
  f.MakeBucket("b");
  auto w = f.store()->Create("b", "k");
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Write("v").ok());
  std::filesystem::remove_all(f.root_ / "s3" / "b");
  Status s = (*w)->Finish();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(Code(s.error()), "S3NoSuchBucket");
}

TEST(S3StoreOptionsTest, TakesHttpsRefusesTinyParts) {
  ObjectStoreOptions o;
  o.endpoint = "https://s3.amazonaws.com";
  EXPECT_TRUE(OpenObjectStore(o).ok());
  o.endpoint = "ftp://s3.amazonaws.com";
  EXPECT_FALSE(OpenObjectStore(o).ok());
  o.endpoint = "http://127.0.0.1:1";
  o.part_size = 1024;
  EXPECT_FALSE(OpenObjectStore(o).ok());
}

TEST(S3StoreOptionsTest, AnUnreachableEndpointIsS3Unavailable) {
  ObjectStoreOptions o;
  o.endpoint = "http://127.0.0.1:1";
  auto store = OpenObjectStore(o);
  ASSERT_TRUE(store.ok());
  Status s = (*store)->CheckBucket("b");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(Code(s.error()), "S3Unavailable");
}

}  // namespace
}  // namespace pogi::outbound
