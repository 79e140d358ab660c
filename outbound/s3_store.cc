// Objects on an S3-compatible server (S3, MinIO, LocalStack, s3rver, Ceph)
// through S3's REST API, every request SigV4-signed with its payload's
// hash: HEAD bucket, ListObjectsV2 pages, GET as a stream, and writes as
// one PUT up to the part size, else a multipart upload whose parts are
// sent as they fill (memory: one part). An upload abandoned or failed is
// aborted, so no half object appears.
#include <chrono>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>

#include "common/sigv4.h"
#include "outbound/http_client.h"
#include "outbound/sigv4_signer.h"
#include "outbound/store_kinds.h"

namespace pogi::outbound {
namespace {

constexpr int kAttempts = 3;  // for an answer 500/503 or a lost connection

std::string XmlUnescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    size_t semi = s.find(';', i);
    std::string_view ent = s.substr(i + 1, semi == std::string_view::npos ? 0 : semi - i - 1);
    if (ent == "amp")
      out.push_back('&');
    else if (ent == "lt")
      out.push_back('<');
    else if (ent == "gt")
      out.push_back('>');
    else if (ent == "quot")
      out.push_back('"');
    else if (ent == "apos")
      out.push_back('\'');
    else if (ent.starts_with("#x"))
      out.push_back(static_cast<char>(std::stoi(std::string(ent.substr(2)), nullptr, 16)));
    else if (ent.starts_with("#"))
      out.push_back(static_cast<char>(std::stoi(std::string(ent.substr(1)))));
    else {
      out.push_back('&');
      continue;
    }
    i = semi;
  }
  return out;
}

// The text of the first <tag>...</tag> at or after `*pos` (moved past it),
// or nullopt.
std::optional<std::string> XmlElement(std::string_view xml, std::string_view tag, size_t* pos) {
  std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  size_t a = xml.find(open, *pos);
  if (a == std::string_view::npos) return std::nullopt;
  size_t b = xml.find(close, a + open.size());
  if (b == std::string_view::npos) return std::nullopt;
  *pos = b + close.size();
  return XmlUnescape(xml.substr(a + open.size(), b - a - open.size()));
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

bool IsIpOrLocal(const std::string& host) {
  if (host == "localhost" || host.find(':') != std::string::npos) return true;
  return host.find_first_not_of("0123456789.") == std::string::npos;
}

// S3's error answer as a store failure.
Error AnswerError(int status, const std::string& body, const std::string& what) {
  size_t pos = 0;
  std::string code = XmlElement(body, "Code", &pos).value_or("");
  pos = 0;
  std::string message = XmlElement(body, "Message", &pos).value_or("");
  if (code.empty()) {
    code = status == 404   ? "NoSuchKey"
           : status == 403 ? "AccessDenied"
                           : "HttpStatus" + std::to_string(status);
  }
  if (message.empty()) message = "HTTP " + std::to_string(status);
  return StoreError("S3" + code, message + " (" + what + ")");
}

class S3Store final : public ObjectStore, public std::enable_shared_from_this<S3Store> {
 public:
  S3Store(const ObjectStoreOptions& o, Endpoint endpoint)
      : options_(o),
        endpoint_(std::move(endpoint)),
        path_style_(o.path_style || IsIpOrLocal(endpoint_.host)) {
    identity_.access_key_id = o.access_key_id;
    identity_.secret_access_key = o.secret_access_key;
    identity_.region = o.region;
    identity_.service = "s3";
  }

  // One request, signed, with its answer's whole body (small answers), retried
  // on a lost connection and on 500/503.
  struct Answer {
    int status = 0;
    Headers headers;
    std::string body;
  };
  Result<Answer> Call(const std::string& bucket, const std::string& method, const std::string& key_and_query,
                      std::string_view body, const Headers& extra = {}) {
    Error last = StoreError("S3Unavailable", "no attempt");
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      if (attempt) std::this_thread::sleep_for(std::chrono::milliseconds(100 << attempt));
      auto conn = Connect(bucket);
      if (!conn.ok()) {
        last = conn.error();
        continue;
      }
      HttpRequest req = Request(bucket, method, key_and_query, body, extra);
      auto resp = (*conn)->Send(req);
      if (!resp.ok()) {
        last = StoreError("S3Unavailable", resp.error().message());
        continue;
      }
      auto text = (*conn)->ReadAll();
      if (!text.ok()) {
        last = StoreError("S3Unavailable", text.error().message());
        continue;
      }
      if (resp->status == 500 || resp->status == 503) {
        last = AnswerError(resp->status, *text, method + " " + Where(bucket, key_and_query));
        continue;
      }
      return Answer{resp->status, std::move(resp->headers), std::move(*text)};
    }
    return last;
  }

  Result<std::unique_ptr<HttpConnection>> Connect(const std::string& bucket) {
    Endpoint target = endpoint_;
    if (!path_style_) target.host = bucket + "." + endpoint_.host;
    auto conn = HttpConnection::Connect(target);
    if (!conn.ok()) return StoreError("S3Unavailable", conn.error().message());
    return conn;
  }

  HttpRequest Request(const std::string& bucket, const std::string& method, const std::string& key_and_query,
                      std::string_view body, const Headers& extra) {
    HttpRequest req;
    req.method = method;
    req.target = (path_style_ ? "/" + bucket : std::string()) + "/" + key_and_query;
    req.headers = extra;
    req.body = body;
    Endpoint signed_as = endpoint_;
    if (!path_style_) signed_as.host = bucket + "." + endpoint_.host;
    SignRequest(req, signed_as, identity_, static_cast<int64_t>(time(nullptr)));
    return req;
  }

  std::string Where(const std::string& bucket, const std::string& key_and_query) const {
    return "s3://" + bucket + "/" + key_and_query.substr(0, key_and_query.find('?'));
  }

  static std::string KeyPath(const std::string& key) { return sigv4::UriEncode(key, false); }

  Status CheckBucket(const std::string& bucket) override {
    POGI_ASSIGN_OR_RETURN(Answer a, Call(bucket, "HEAD", "", ""));
    if (a.status == 200) return Status::Ok();
    if (a.status == 404)
      return StoreError("S3NoSuchBucket", "The specified bucket does not exist: " + bucket);
    return AnswerError(a.status, a.body, "HEAD s3://" + bucket);
  }

  Result<std::unique_ptr<ObjectWriter>> Create(const std::string& bucket, const std::string& key) override;

  Result<std::unique_ptr<ObjectReader>> Open(const std::string& bucket, const std::string& key) override;

  Result<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string& prefix) override {
    std::vector<ObjectInfo> out;
    std::string token;
    for (;;) {
      std::string query = "?list-type=2&prefix=" + sigv4::UriEncode(prefix, true);
      if (!token.empty()) query += "&continuation-token=" + sigv4::UriEncode(token, true);
      POGI_ASSIGN_OR_RETURN(Answer a, Call(bucket, "GET", query, ""));
      if (a.status != 200) return AnswerError(a.status, a.body, "list s3://" + bucket + "/" + prefix);
      size_t pos = 0;
      for (;;) {
        size_t start = a.body.find("<Contents>", pos);
        if (start == std::string::npos) break;
        size_t end = a.body.find("</Contents>", start);
        if (end == std::string::npos) break;
        std::string_view one = std::string_view(a.body).substr(start, end - start);
        size_t p = 0;
        auto k = XmlElement(one, "Key", &p);
        p = 0;
        auto size = XmlElement(one, "Size", &p);
        if (k) out.push_back({*k, size ? std::stoll(*size) : 0});
        pos = end;
      }
      pos = 0;
      std::string truncated = XmlElement(a.body, "IsTruncated", &pos).value_or("false");
      pos = 0;
      token = XmlElement(a.body, "NextContinuationToken", &pos).value_or("");
      if (truncated != "true" || token.empty()) break;
    }
    return out;
  }

  std::string Describe() const override { return "S3 at " + options_.endpoint; }

  size_t part_size() const { return options_.part_size; }

 private:
  ObjectStoreOptions options_;
  Endpoint endpoint_;
  bool path_style_;
  SigningIdentity identity_;
};

// Buffers one part; sends it when full (starting the multipart upload at
// the first), or at Finish as one PUT when the object fits one part.
class S3Writer final : public ObjectWriter {
 public:
  S3Writer(std::shared_ptr<S3Store> store, std::string bucket, std::string key)
      : store_(std::move(store)), bucket_(std::move(bucket)), key_(std::move(key)) {}
  ~S3Writer() override {
    if (!upload_id_.empty() && !finished_) {
      (void)store_->Call(bucket_, "DELETE",
                         S3Store::KeyPath(key_) + "?uploadId=" + sigv4::UriEncode(upload_id_, true), "");
    }
  }

  Status Write(std::string_view data) override {
    size_ += static_cast<int64_t>(data.size());
    while (!data.empty()) {
      size_t room = store_->part_size() - part_.size();
      size_t take = std::min(room, data.size());
      part_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (part_.size() == store_->part_size()) POGI_RETURN_IF_ERROR(SendPart());
    }
    return Status::Ok();
  }

  Status Finish() override {
    if (upload_id_.empty()) {
      POGI_ASSIGN_OR_RETURN(S3Store::Answer a, store_->Call(bucket_, "PUT", S3Store::KeyPath(key_), part_));
      if (a.status != 200) return Failed(a, "PUT");
      finished_ = true;
      return Status::Ok();
    }
    if (!part_.empty()) POGI_RETURN_IF_ERROR(SendPart());
    std::string xml = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < etags_.size(); ++i) {
      xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + XmlEscape(etags_[i]) +
             "</ETag></Part>";
    }
    xml += "</CompleteMultipartUpload>";
    POGI_ASSIGN_OR_RETURN(
        S3Store::Answer a,
        store_->Call(bucket_, "POST",
                     S3Store::KeyPath(key_) + "?uploadId=" + sigv4::UriEncode(upload_id_, true), xml));
    // S3 may answer 200 with an <Error> body for a failed completion.
    if (a.status != 200 || a.body.find("<Error>") != std::string::npos) return Failed(a, "complete upload");
    finished_ = true;
    return Status::Ok();
  }

  int64_t size() const override { return size_; }

 private:
  Error Failed(const S3Store::Answer& a, const std::string& what) {
    return AnswerError(a.status, a.body, what + " s3://" + bucket_ + "/" + key_);
  }

  Status SendPart() {
    if (upload_id_.empty()) {
      POGI_ASSIGN_OR_RETURN(S3Store::Answer a,
                            store_->Call(bucket_, "POST", S3Store::KeyPath(key_) + "?uploads", ""));
      size_t pos = 0;
      auto id = XmlElement(a.body, "UploadId", &pos);
      if (a.status != 200 || !id) return Failed(a, "start upload");
      upload_id_ = *id;
    }
    std::string query = "?partNumber=" + std::to_string(etags_.size() + 1) +
                        "&uploadId=" + sigv4::UriEncode(upload_id_, true);
    POGI_ASSIGN_OR_RETURN(S3Store::Answer a,
                          store_->Call(bucket_, "PUT", S3Store::KeyPath(key_) + query, part_));
    std::string etag(FindHeader(a.headers, "etag"));
    if (a.status != 200 || etag.empty()) return Failed(a, "upload part");
    etags_.push_back(etag);
    part_.clear();
    return Status::Ok();
  }

  std::shared_ptr<S3Store> store_;
  std::string bucket_, key_;
  std::string part_;
  std::string upload_id_;
  std::vector<std::string> etags_;
  int64_t size_ = 0;
  bool finished_ = false;
};

// A GET whose body is read as it arrives.
class S3Reader final : public ObjectReader {
 public:
  S3Reader(std::unique_ptr<HttpConnection> conn, std::string where)
      : conn_(std::move(conn)), where_(std::move(where)) {}
  Result<size_t> Read(char* buf, size_t n) override {
    auto got = conn_->ReadBody(buf, n);
    if (!got.ok()) return StoreError("S3Unavailable", got.error().message() + " (reading " + where_ + ")");
    return *got;
  }

 private:
  std::unique_ptr<HttpConnection> conn_;
  std::string where_;
};

Result<std::unique_ptr<ObjectWriter>> S3Store::Create(const std::string& bucket, const std::string& key) {
  if (key.empty()) return StoreError("S3InvalidKey", "an object key may not be empty");
  return std::unique_ptr<ObjectWriter>(new S3Writer(shared_from_this(), bucket, key));
}

Result<std::unique_ptr<ObjectReader>> S3Store::Open(const std::string& bucket, const std::string& key) {
  Error last = StoreError("S3Unavailable", "no attempt");
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    if (attempt) std::this_thread::sleep_for(std::chrono::milliseconds(100 << attempt));
    auto conn = Connect(bucket);
    if (!conn.ok()) {
      last = conn.error();
      continue;
    }
    HttpRequest req = Request(bucket, "GET", KeyPath(key), "", {});
    auto resp = (*conn)->Send(req);
    if (!resp.ok()) {
      last = StoreError("S3Unavailable", resp.error().message());
      continue;
    }
    if (resp->status == 200) {
      return std::unique_ptr<ObjectReader>(new S3Reader(std::move(*conn), "s3://" + bucket + "/" + key));
    }
    auto text = (*conn)->ReadAll();
    Error e = AnswerError(resp->status, text.ok() ? *text : "", "GET s3://" + bucket + "/" + key);
    if (resp->status != 500 && resp->status != 503) return e;
    last = e;
  }
  return last;
}

}  // namespace

Result<std::shared_ptr<ObjectStore>> MakeS3Store(const ObjectStoreOptions& options) {
  POGI_ASSIGN_OR_RETURN(Endpoint endpoint, ParseEndpoint(options.endpoint));
  if (options.part_size < (5u << 20)) return Error::Validation("the part size is below S3's 5 MiB minimum");
  return std::shared_ptr<ObjectStore>(std::make_shared<S3Store>(options, std::move(endpoint)));
}

}  // namespace pogi::outbound
