// KinesisDelivery: sends the changes of tables with a Kinesis streaming
// destination to their Kinesis streams, on a thread of its own, until
// destroyed. The write path queues each change in storage, in the change's
// own transaction (service/write/change_capture.cc); this job
//   - checks the stream of each newly enabled destination with
//     DescribeStreamSummary: ACTIVE (or UPDATING) makes it ACTIVE once its
//     ENABLING ends; missing, another state, another region or account
//     makes it ENABLE_FAILED with DynamoDB's description;
//   - sends each queue, oldest first, with PutRecords (up to 500 records a
//     call, one stream at a time), each record DynamoDB's Kinesis JSON
//     (KinesisRecordJson) under the item's partition key, so one item's
//     changes stay in order in one shard;
//   - removes what Kinesis accepted from the queue (the queue's delivered
//     mark and its records, in one storage write). A record Kinesis refused
//     (throttled), an unreachable endpoint or a 5xx is sent again later;
//     delivery is at least once: a crash between PutRecords and that write
//     sends those records again after the restart.
// A record over Kinesis' 1 MB is skipped and counted (the queue's
// kinesis_skipped), as DynamoDB skips it. Records of a destination that is
// DISABLED or ENABLE_FAILED by the time they are sent are dropped. Of
// several processes sharing a database, the one holding the
// "kinesis-delivery" lease delivers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "outbound/kinesis_client.h"
#include "pogi/v1/streams.pb.h"
#include "service/engine/engine.h"

namespace pogi::jobs {

// Kinesis' limit on one record's data.
inline constexpr size_t kKinesisMaxRecordBytes = 1024 * 1024;

// The Kinesis record of one queued change (`record`: a serialized
// pogi.v1.Record, NEW_AND_OLD_IMAGES) of table `table_name`, created at
// clock time `created`, event id `event_id`: compact JSON as DynamoDB
// writes it, members in its order:
//   {"awsRegion":..,"eventID":..,"eventName":..,"userIdentity":null|{..},
//    "recordFormat":"application/json","tableName":..,
//    "dynamodb":{"ApproximateCreationDateTime":<ms or us>,"Keys":..,
//                "NewImage":..,"OldImage":..,"SizeBytes":..
//                [,"ApproximateCreationDateTimePrecision":"MICROSECOND"]},
//    "eventSource":"aws:dynamodb"}
// False when `record` is not a record pogi wrote.
bool KinesisRecordJson(std::string_view record, std::string_view table_name, double created, bool microsecond,
                       std::string_view event_id, std::string* out);

// The PutRecords partition key of an item (its encoded key): 32 upper-case
// hex digits, as DynamoDB's look (an MD5).
std::string KinesisPartitionKey(std::string_view item_key);

// A stable event id for queue record `sequence` of queue `queue`: a UUID
// (version 4 form) that a record sent twice carries both times.
std::string KinesisEventId(int64_t queue, int64_t sequence);

class KinesisDelivery {
 public:
  KinesisDelivery(service::Engine& engine, std::unique_ptr<outbound::KinesisClient> client);
  ~KinesisDelivery();
  KinesisDelivery(const KinesisDelivery&) = delete;
  KinesisDelivery& operator=(const KinesisDelivery&) = delete;

  // Looks for work now (a destination was enabled).
  void Wake();

 private:
  void Loop();
  // One round over every table with work; whether a queue may have more.
  bool Round();
  // Checks the streams of `table`'s unchecked ENABLING destinations.
  void CheckStreams(const service::Table& table);
  // Sends what is queued for `table`; whether there may be more.
  bool DeliverQueue(const service::Table& table);
  // PutRecords of `body` (`count` records) to `stream`: how many of the
  // first records Kinesis took before the first it refused (all: count);
  // an error when the stream is gone or no answer came.
  Result<int> PutRecords(const std::string& body, int count);

  service::Engine& engine_;
  std::unique_ptr<outbound::KinesisClient> client_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool wake_ = false;
  double backoff_ = 0;   // seconds to wait after a round that failed
  bool failed_ = false;  // this round: a call failed, or Kinesis refused records
  std::thread thread_;
};

}  // namespace pogi::jobs
