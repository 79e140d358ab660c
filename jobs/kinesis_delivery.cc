// Delivery of Kinesis streaming destinations' queues with PutRecords.
#include "jobs/kinesis_delivery.h"

#include <chrono>
#include <cmath>

#include "common/base64.h"
#include "common/log.h"
#include "common/md5.h"
#include "gateway/item_proto_json.h"
#include "gateway/json_doc.h"
#include "gateway/json_text.h"
#include "service/core/region.h"
#include "service/streams/kinesis_destinations.h"

namespace pogi::jobs {
namespace {

constexpr int kBatchRecords = 500;               // PutRecords' limit
constexpr size_t kBatchBytes = 4 * 1024 * 1024;  // under PutRecords' 5 MB
constexpr double kIdleSeconds = 0.1;             // between looks for work
constexpr double kMaxBackoffSeconds = 5;

std::string Hex(std::string_view bytes, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

// The error type of a Kinesis error answer ("ResourceNotFoundException"),
// without any "namespace#" prefix; "" when none.
std::string ErrorType(const std::string& body) {
  gateway::JsonDoc doc;
  if (!doc.Parse(body) || !doc.root().is_object()) return "";
  std::string type;
  doc.root().ForEachMember([&](std::string_view key, gateway::JsonRef v) {
    if (key == "__type" && v.is_string()) type = std::string(v.string());
    return true;
  });
  if (size_t hash = type.rfind('#'); hash != std::string::npos) type = type.substr(hash + 1);
  return type;
}

}  // namespace

std::string KinesisPartitionKey(std::string_view item_key) {
  Md5 md5;
  md5.Update(item_key);
  return Hex(md5.Digest(), true);
}

std::string KinesisEventId(int64_t queue, int64_t sequence) {
  Md5 md5;
  md5.Update("pogi-kinesis:" + std::to_string(queue) + ":" + std::to_string(sequence));
  std::string d = md5.Digest();
  d[6] = static_cast<char>((d[6] & 0x0f) | 0x40);  // version 4
  d[8] = static_cast<char>((d[8] & 0x3f) | 0x80);  // RFC 4122 variant
  std::string h = Hex(d, false);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" +
         h.substr(20);
}

bool KinesisRecordJson(std::string_view record, std::string_view table_name, double created, bool microsecond,
                       std::string_view event_id, std::string* out) {
  v1::Record r;
  if (!r.ParseFromArray(record.data(), static_cast<int>(record.size()))) return false;
  const std::string dynamodb = r.dynamodb().SerializeAsString();
  gateway::JsonOut j(out);
  j.Put("{\"awsRegion\":");
  j.String(r.aws_region());
  j.Put(",\"eventID\":");
  j.String(event_id);
  j.Put(",\"eventName\":");
  j.String(r.event_name());
  j.Put(",\"userIdentity\":");
  if (r.has_user_identity()) {
    j.Put("{\"type\":");
    j.String(r.user_identity().type());
    j.Put(",\"principalId\":");
    j.String(r.user_identity().principal_id());
    j.Put('}');
  } else {
    j.Put("null");
  }
  j.Put(",\"recordFormat\":\"application/json\",\"tableName\":");
  j.String(table_name);
  j.Put(",\"dynamodb\":{\"ApproximateCreationDateTime\":");
  j.Put(std::to_string(static_cast<int64_t>(std::floor(created * (microsecond ? 1e6 : 1e3)))));
  j.Put(",\"Keys\":");
  if (!gateway::AppendMapFieldJson(dynamodb, v1::StreamRecord::kKeysFieldNumber, j)) return false;
  if (r.event_name() != "REMOVE") {
    j.Put(",\"NewImage\":");
    if (!gateway::AppendMapFieldJson(dynamodb, v1::StreamRecord::kNewImageFieldNumber, j)) return false;
  }
  if (r.event_name() != "INSERT") {
    j.Put(",\"OldImage\":");
    if (!gateway::AppendMapFieldJson(dynamodb, v1::StreamRecord::kOldImageFieldNumber, j)) return false;
  }
  j.Put(",\"SizeBytes\":");
  j.Put(std::to_string(r.dynamodb().size_bytes()));
  if (microsecond) j.Put(",\"ApproximateCreationDateTimePrecision\":\"MICROSECOND\"");
  j.Put("},\"eventSource\":\"aws:dynamodb\"}");
  return true;
}

KinesisDelivery::KinesisDelivery(service::Engine& engine, std::unique_ptr<outbound::KinesisClient> client)
    : engine_(engine), client_(std::move(client)) {
  engine_.set_kinesis_configured(true);
  engine_.set_kinesis_wake([this] { Wake(); });
  thread_ = std::thread([this] { Loop(); });
}

KinesisDelivery::~KinesisDelivery() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void KinesisDelivery::Wake() {
  {
    std::lock_guard lock(mu_);
    wake_ = true;
  }
  cv_.notify_all();
}

void KinesisDelivery::Loop() {
  for (;;) {
    bool more = false;
    {
      std::unique_lock lock(mu_);
      if (stop_) return;
      wake_ = false;
    }
    more = Round();
    std::unique_lock lock(mu_);
    if (stop_) return;
    double wait = backoff_ > 0 ? backoff_ : (more ? 0 : kIdleSeconds);
    if (wait > 0) {
      cv_.wait_for(lock, std::chrono::duration<double>(wait), [this] { return stop_ || wake_; });
    }
  }
}

bool KinesisDelivery::Round() {
  auto held = engine_.HoldKinesisLease();
  if (!held.ok() || !*held) return false;
  if (Status s = engine_.FollowCatalog(); !s.ok()) return false;
  bool more = false;
  failed_ = false;
  for (const auto& table : engine_.KinesisTables()) {
    CheckStreams(*table);
    if (table->settings.kinesis_queue_id() != 0) more |= DeliverQueue(*table);
  }
  // Kinesis unreachable or refusing: wait longer each time (up to a few
  // seconds), never blocking writes: they queue meanwhile.
  backoff_ = failed_ ? (backoff_ == 0 ? 0.2 : std::min(backoff_ * 2, kMaxBackoffSeconds)) : 0;
  return more && !failed_;
}

void KinesisDelivery::CheckStreams(const service::Table& table) {
  for (const auto& d : table.settings.kinesis_destinations()) {
    if (d.status() != "ENABLING" || d.verdict() != service::kKinesisUnchecked) continue;
    const std::string& arn = d.stream_arn();
    std::string refused;
    std::string name = service::KinesisStreamName(arn);
    if (name.empty()) {
      refused = service::kKinesisNoPermission;
    } else if (service::KinesisArnRegion(arn) != table.region) {
      refused =
          "The kinesis Arn used to enable kinesis replication belongs to a stream which is not in the "
          "current region";
    } else if (arn.find(":" + service::AccountId() + ":stream/") == std::string::npos) {
      refused =
          "The kinesis Arn used to enable kinesis replication belongs to a stream which is not in Active "
          "state";
    } else {
      std::string body;
      gateway::AppendJsonString(name, &body);
      body = "{\"StreamName\":" + body + "}";
      auto answer = client_->Call("DescribeStreamSummary", body);
      if (!answer.ok() || answer->status >= 500) {
        log::Warn("Kinesis endpoint did not answer DescribeStreamSummary; will try again",
                  {{"endpoint", client_->endpoint_url()},
                   {"error", answer.ok() ? std::to_string(answer->status) : answer.error().message()}});
        failed_ = true;
        continue;  // checked again later
      }
      if (answer->status != 200) {
        refused = service::kKinesisNoPermission;
      } else {
        std::string status;
        gateway::JsonDoc doc;
        if (doc.Parse(answer->body) && doc.root().is_object()) {
          doc.root().ForEachMember([&](std::string_view key, gateway::JsonRef v) {
            if (key == "StreamDescriptionSummary" && v.is_object()) {
              v.ForEachMember([&](std::string_view k, gateway::JsonRef s) {
                if (k == "StreamStatus" && s.is_string()) status = std::string(s.string());
                return true;
              });
            }
            return true;
          });
        }
        if (status != "ACTIVE" && status != "UPDATING") refused = service::kKinesisNoPermission;
      }
    }
    Status s = engine_.RecordKinesisVerdict(table, arn, refused.empty(), refused);
    if (!s.ok()) log::Warn("could not record a Kinesis stream check", {{"error", s.error().message()}});
  }
}

Result<int> KinesisDelivery::PutRecords(const std::string& body, int count) {
  POGI_ASSIGN_OR_RETURN(outbound::KinesisAnswer a, client_->Call("PutRecords", body));
  if (a.status != 200) {
    std::string type = ErrorType(a.body);
    if (type == "ResourceNotFoundException") {
      return Error::ResourceNotFound("Kinesis stream not found: " + a.body.substr(0, 300));
    }
    return Error::Internal("Kinesis answered " + std::to_string(a.status) + ": " + a.body.substr(0, 300));
  }
  // The records Kinesis took: those before the first with an ErrorCode.
  gateway::JsonDoc doc;
  if (!doc.Parse(a.body) || !doc.root().is_object()) return Error::Internal("unreadable PutRecords answer");
  int taken = 0;
  bool refused = false;
  doc.root().ForEachMember([&](std::string_view key, gateway::JsonRef v) {
    if (key != "Records" || !v.is_array()) return true;
    v.ForEachElement([&](gateway::JsonRef rec) {
      bool error = false;
      if (rec.is_object()) {
        rec.ForEachMember([&](std::string_view k, gateway::JsonRef e) {
          if (k == "ErrorCode" && e.is_string() && !e.string().empty()) error = true;
          return true;
        });
      }
      if (error) {
        refused = true;
        return false;
      }
      ++taken;
      return true;
    });
    return false;
  });
  return refused ? taken : std::min(taken, count);
}

bool KinesisDelivery::DeliverQueue(const service::Table& table) {
  const int64_t queue = table.settings.kinesis_queue_id();
  v1::StreamState state;
  std::vector<storage::StreamRecordRow> rows;
  if (Status s = engine_.ReadKinesisQueue(queue, kBatchRecords, &state, &rows); !s.ok()) {
    log::Warn("could not read a Kinesis queue", {{"error", s.error().message()}});
    return false;
  }
  if (rows.empty()) return false;
  const double now = engine_.clock().Now();
  const std::string& table_name = table.description.table_name();
  // One PutRecords: consecutive records of one stream.
  int64_t through = 0;  // handled (sent, skipped or dropped) up to here
  int64_t skipped = 0;
  std::string stream, body;
  std::vector<int64_t> batch;  // sequence numbers in the body
  size_t batch_bytes = 0;
  bool stalled = false;
  auto flush = [&]() -> bool {
    if (batch.empty()) return true;
    body += "],\"StreamName\":";
    gateway::AppendJsonString(service::KinesisStreamName(stream), &body);
    body += "}";
    auto taken = PutRecords(body, static_cast<int>(batch.size()));
    bool ok = true;
    if (!taken.ok()) {
      if (taken.error().code() == ErrorCode::kResourceNotFound) {
        // The stream was deleted after the destination became ACTIVE (it
        // stays ACTIVE, as DynamoDB's does): these records have nowhere to go.
        log::Warn("Kinesis stream is gone; dropping records", {{"stream", stream}});
        through = batch.back();
      } else {
        log::Warn("Kinesis PutRecords failed; will send again", {{"error", taken.error().message()}});
        failed_ = true;
        ok = false;
      }
    } else {
      if (*taken > 0) through = batch[*taken - 1];
      if (*taken < static_cast<int>(batch.size())) {
        failed_ = true;  // throttled: the rest again shortly, in order
        ok = false;
      }
    }
    body.clear();
    batch.clear();
    batch_bytes = 0;
    return ok;
  };
  for (const auto& row : rows) {
    v1::KinesisQueuedRecord q;
    if (!q.ParseFromString(row.record)) {
      log::Warn("unreadable Kinesis queue record; skipped", {{"table", table_name}});
      if (!flush()) break;
      through = row.sequence;
      continue;
    }
    const v1::KinesisDestinationState* d = service::FindKinesisDestination(table.settings, q.stream_arn());
    std::string status = d ? service::KinesisStatusAt(*d, now) : "DISABLED";
    if (status == "ENABLING") {
      stalled = true;  // its stream not checked yet: wait for the verdict
      break;
    }
    bool drop = status == "DISABLED" || status == "ENABLE_FAILED";
    std::string data;
    if (!drop && !KinesisRecordJson(q.record(), table_name, row.created, q.microsecond(),
                                    KinesisEventId(queue, row.sequence), &data)) {
      log::Warn("unreadable Kinesis queue record; skipped", {{"table", table_name}});
      drop = true;
    }
    if (!drop && data.size() > kKinesisMaxRecordBytes) {
      // DynamoDB skips such a record and goes on (FailedToReplicateRecordCount).
      log::Warn("change record over Kinesis' 1 MB limit skipped",
                {{"table", table_name}, {"bytes", std::to_string(data.size())}});
      ++skipped;
      drop = true;
    }
    if (drop) {
      if (batch.empty()) {
        through = row.sequence;
        continue;
      }
      // Sent in order: the batch first.
      if (!flush()) break;
      through = row.sequence;
      continue;
    }
    std::string entry = "{\"Data\":\"" + Base64Encode(data) + "\",\"PartitionKey\":\"" +
                        KinesisPartitionKey(q.item_key()) + "\"}";
    if (!batch.empty() && (q.stream_arn() != stream || batch_bytes + entry.size() > kBatchBytes)) {
      if (!flush()) break;
    }
    if (batch.empty()) {
      stream = q.stream_arn();
      body = "{\"Records\":[";
    } else {
      body += ",";
    }
    body += entry;
    batch_bytes += entry.size();
    batch.push_back(row.sequence);
  }
  bool sent_all = !failed_ && flush();
  if (through > 0) {
    if (Status s = engine_.AckKinesisQueue(queue, through, skipped); !s.ok()) {
      log::Warn("could not record Kinesis delivery", {{"error", s.error().message()}});
      return false;
    }
  }
  return sent_all && !stalled && static_cast<int>(rows.size()) == kBatchRecords;
}

}  // namespace pogi::jobs
