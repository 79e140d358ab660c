// Runs one bulk put (StartBulkPutItems) to its end: lists the objects under
// InputS3Configuration's prefix (input_objects.h: an export's folder reads
// as its data files), reads each through its decompressor and its format's
// record reader (DYNAMODB_JSON lines or Ion, each {Item:{...}} with, if
// it likes, ConditionExpression, ExpressionAttributeNames and
// ExpressionAttributeValues), and puts every item with Engine::PutItem
// into the table: the one write path, so the condition, indexes, the
// stream, the point-in-time history and the counters are all a PutItem's.
// MaxWriteRequestUnits, when given, caps the write units (table and
// indexes) spent per second.
//
// Counters, as DescribeBulkOperation shows them: ProcessedItemCount (every
// record: written, failed or refused by its condition), FailedItemCount
// (parse and validation errors), ProcessedInputBytes of TotalInputBytes
// (the objects' stored, compressed sizes), BulkOperationUsage (the bytes of
// the items written, to the table and to each index an item is in).
//
// The report (OutputS3Configuration, the OutputTypes asked for), under
// PREFIX/AWSDynamoDB/BulkOperations/OPERATION_ID/:
//   ERROR/NNNNN.json                    one JSON line per record not written
//   CONDITION_CHECK_FAILURE/NNNNN.json  one per record whose condition failed
//   manifest.json                       the outcome, counts and those files
// each line {"itemS3Pointer":{"bucket","key","itemIndex"},"outputType",
// "errorMessages":[...],"Item":{...},"ExistingItem":{...}}.
//
// Outcomes: COMPLETED (condition failures do not count against it),
// COMPLETED_WITH_ERRORS (a record failed), FAILED (the table gone, S3
// failing: S3NoSuchBucket, S3NoSuchKey...), CANCELLED (CancelBulkOperation;
// what was written stays).
//
// Progress (the object and record reached, the counters, the report
// objects written) is stored about every second. A run that stops (pogi
// stopping or killed, the lease lost) goes on from the last stored point:
// the records after it are put again, which leaves an unconditional put's
// item as it was (a put is idempotent); a conditional one may then find its
// own earlier write and be reported as a condition failure.
#pragma once

#include <string>

#include "common/result.h"
#include "jobs/export_job.h"
#include "outbound/object_store.h"
#include "pogi/v1/control_state.pb.h"
#include "service/engine/engine.h"

namespace pogi::jobs {

// Runs the bulk operation `arn` (its stored state `job`) and records its
// outcome; an error return means the outcome could not be recorded.
Status RunBulkPut(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
                  v1::StoredJob job, const KeepGoing& keep_going);

// The table ARN a bulk operation's ARN (TABLE_ARN/bulk-operation/ID) names.
std::string TableArnOfBulkOperation(const std::string& arn);

}  // namespace pogi::jobs
