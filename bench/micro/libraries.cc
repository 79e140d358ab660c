// Microbenchmarks that decide between pogi's own code and a library: SHA-256
// and HMAC-SHA256 (pogi's, libsodium's, Nettle's) on request-body sizes and
// on the SigV4 key chain, and the JSON tape (gateway/json_doc.cc) against
// simdjson's DOM parser on pogi's typical requests.
// Run: build/pogi_micro_libraries (docs/performance.md, "Microbenchmarks").
#include <benchmark/benchmark.h>
#include <nettle/hmac.h>
#include <nettle/sha2.h>
#include <simdjson.h>
#include <sodium.h>

#include <string>

#include "common/sha256.h"
#include "gateway/json_doc.h"

namespace {

// ---------------------------------------------------------------- SHA-256

std::string Body(size_t n) {
  std::string s(n, 'x');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

void BM_Sha256Pogi(benchmark::State& state) {
  std::string body = Body(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(pogi::Sha256(body));
  state.SetBytesProcessed(state.iterations() * body.size());
}

void BM_Sha256Sodium(benchmark::State& state) {
  std::string body = Body(state.range(0));
  unsigned char out[crypto_hash_sha256_BYTES];
  for (auto _ : state) {
    crypto_hash_sha256(out, reinterpret_cast<const unsigned char*>(body.data()), body.size());
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * body.size());
}

void BM_Sha256Nettle(benchmark::State& state) {
  std::string body = Body(state.range(0));
  uint8_t out[SHA256_DIGEST_SIZE];
  for (auto _ : state) {
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, body.size(), reinterpret_cast<const uint8_t*>(body.data()));
    sha256_digest(&ctx, sizeof out, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * body.size());
}

// pogi's request bodies: a GetItem (100 B) up to a large PutItem (16 KB).
#define POGI_BODY_SIZES Arg(100)->Arg(1024)->Arg(4096)->Arg(16384)
BENCHMARK(BM_Sha256Pogi)->POGI_BODY_SIZES;
BENCHMARK(BM_Sha256Sodium)->POGI_BODY_SIZES;
BENCHMARK(BM_Sha256Nettle)->POGI_BODY_SIZES;

// ---------------------------------------------------------------- SigV4 key chain
// What one signed request costs beyond hashing its body: four HMACs derive
// the signing key from the secret, one signs the string to sign (~150 B).

constexpr std::string_view kSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
constexpr std::string_view kToSign =
    "AWS4-HMAC-SHA256\n20261201T120000Z\n20261201/us-east-1/dynamodb/aws4_request\n"
    "3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04";

void BM_KeyChainPogi(benchmark::State& state) {
  std::string secret = "AWS4" + std::string(kSecret);
  for (auto _ : state) {
    std::string k = pogi::HmacSha256(secret, "20261201");
    k = pogi::HmacSha256(k, "us-east-1");
    k = pogi::HmacSha256(k, "dynamodb");
    k = pogi::HmacSha256(k, "aws4_request");
    benchmark::DoNotOptimize(pogi::HmacSha256(k, kToSign));
  }
}
BENCHMARK(BM_KeyChainPogi);

void SodiumHmac(std::string_view key, std::string_view data, unsigned char out[32]) {
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, reinterpret_cast<const unsigned char*>(key.data()), key.size());
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  crypto_auth_hmacsha256_final(&st, out);
}

void BM_KeyChainSodium(benchmark::State& state) {
  std::string secret = "AWS4" + std::string(kSecret);
  unsigned char a[32], b[32];
  auto view = [](const unsigned char* k) { return std::string_view(reinterpret_cast<const char*>(k), 32); };
  for (auto _ : state) {
    SodiumHmac(secret, "20261201", a);
    SodiumHmac(view(a), "us-east-1", b);
    SodiumHmac(view(b), "dynamodb", a);
    SodiumHmac(view(a), "aws4_request", b);
    SodiumHmac(view(b), kToSign, a);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_KeyChainSodium);

void NettleHmac(std::string_view key, std::string_view data, uint8_t out[32]) {
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, key.size(), reinterpret_cast<const uint8_t*>(key.data()));
  hmac_sha256_update(&ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  hmac_sha256_digest(&ctx, 32, out);
}

void BM_KeyChainNettle(benchmark::State& state) {
  std::string secret = "AWS4" + std::string(kSecret);
  uint8_t a[32], b[32];
  auto view = [](const uint8_t* k) { return std::string_view(reinterpret_cast<const char*>(k), 32); };
  for (auto _ : state) {
    NettleHmac(secret, "20261201", a);
    NettleHmac(view(a), "us-east-1", b);
    NettleHmac(view(b), "dynamodb", a);
    NettleHmac(view(a), "aws4_request", b);
    NettleHmac(view(b), kToSign, a);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_KeyChainNettle);

// ---------------------------------------------------------------- JSON

std::string Attributes(int n, int salt) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i) s += ",";
    std::string name = "attr" + std::to_string(i);
    switch (i % 5) {
      case 0:
        s += "\"" + name + "\":{\"S\":\"value-" + std::to_string(salt * 31 + i) + "\"}";
        break;
      case 1:
        s += "\"" + name + "\":{\"N\":\"" + std::to_string(salt * 1000 + i) + ".25\"}";
        break;
      case 2:
        s += "\"" + name + "\":{\"BOOL\":true}";
        break;
      case 3:
        s += "\"" + name + "\":{\"SS\":[\"red\",\"green\",\"blue\"]}";
        break;
      default:
        s += "\"" + name + "\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"L\":[{\"S\":\"p\"},{\"NULL\":true}]}}}";
    }
  }
  return s;
}

// PutItem of a 10-attribute item (~500 B).
std::string PutItem10() {
  return R"({"TableName":"bench","Item":{"pk":{"S":"user#12345"},)" + Attributes(10, 1) + "}}";
}

// PutItem of a 400 KB item: a list of small maps, the worst shape per byte.
std::string PutItem400K() {
  std::string list;
  for (int i = 0; list.size() < 400 * 1024; ++i) {
    if (i) list += ",";
    list += R"({"M":{"id":{"N":")" + std::to_string(i) + R"("},"name":{"S":"element number )" +
            std::to_string(i) + R"("}}})";
  }
  return R"({"TableName":"bench","Item":{"pk":{"S":"big"},"l":{"L":[)" + list + "]}}}";
}

// BatchWriteItem of 25 PutRequests of 10-attribute items (~13 KB).
std::string BatchWrite25() {
  std::string s = R"({"RequestItems":{"bench":[)";
  for (int i = 0; i < 25; ++i) {
    if (i) s += ",";
    s += R"({"PutRequest":{"Item":{"pk":{"S":"user#)" + std::to_string(i) + R"("},)" + Attributes(10, i) +
         "}}}";
  }
  return s + "]}}";
}

std::string Request(int which) {
  return which == 0 ? PutItem10() : which == 1 ? PutItem400K() : BatchWrite25();
}

void BM_JsonTape(benchmark::State& state) {
  std::string text = Request(state.range(0));
  pogi::gateway::JsonDoc doc;
  for (auto _ : state) {
    if (!doc.Parse(text)) state.SkipWithError("tape refused the request");
    benchmark::DoNotOptimize(doc.root());
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}

// simdjson's DOM parser, given the padded copy it needs (a request body
// would have to be read into such a buffer, or copied: that copy is timed
// in BM_SimdjsonWithCopy).
void BM_Simdjson(benchmark::State& state) {
  simdjson::padded_string text(Request(state.range(0)));
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element root;
    if (parser.parse(text).get(root) != simdjson::SUCCESS) state.SkipWithError("simdjson refused");
    benchmark::DoNotOptimize(root);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}

void BM_SimdjsonWithCopy(benchmark::State& state) {
  std::string body = Request(state.range(0));
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element root;
    if (parser.parse(body.data(), body.size(), /*realloc_if_needed=*/true).get(root) != simdjson::SUCCESS) {
      state.SkipWithError("simdjson refused");
    }
    benchmark::DoNotOptimize(root);
  }
  state.SetBytesProcessed(state.iterations() * body.size());
}

// 0: PutItem of 10 attributes, 1: PutItem of 400 KB, 2: BatchWriteItem of 25.
BENCHMARK(BM_JsonTape)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_Simdjson)->Arg(0)->Arg(1)->Arg(2);
BENCHMARK(BM_SimdjsonWithCopy)->Arg(0)->Arg(1)->Arg(2);

}  // namespace
BENCHMARK_MAIN();
