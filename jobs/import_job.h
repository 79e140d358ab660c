// Runs one import (ImportTable) to its end: lists the objects under the
// bucket source's prefix, reads each through its decompressor and its
// format's record reader (input_records.h), checks every item as PutItem
// would (DynamoDB's messages), and loads the good ones into the new table a
// batch at a time (Engine::LoadImportedItems: the write path, counters and
// indexes exact). Where the prefix holds an export (a manifest-files.json),
// the data files its manifest lists are read and the export's other files
// are not; a listed file that is missing fails the import.
//
// Outcomes, as DynamoDB's import documents them:
//   - every record an item: COMPLETED, the table ACTIVE;
//   - records that are no items (malformed, a missing or mistyped key, over
//     400 KB...): counted in ErrorCount and skipped (an object whose bytes
//     stop making records, such as one that is not in the compression
//     given, counts one error and the rest of it is skipped), then FAILED
//     with ItemValidationError, the table ACTIVE with what passed. The
//     first 100 errors are kept with the import, each as DynamoDB writes it
//     to CloudWatch Logs, and logged;
//   - S3 failing (no bucket, a missing object, a denial, the server gone):
//     FAILED with S3NoSuchBucket, S3NoSuchKey... and the table dropped;
//   - a cancel (admin CancelJob): CANCELLED, the table dropped.
// A run that stops (pogi stopping, the lease lost) leaves the import
// IN_PROGRESS; the next run starts it again from an empty table.
#pragma once

#include <string>

#include "common/result.h"
#include "jobs/export_job.h"
#include "outbound/object_store.h"
#include "pogi/v1/control_state.pb.h"
#include "service/engine/engine.h"

namespace pogi::jobs {

// Runs the import `arn` (its stored state `job`) and records its outcome;
// an error return means the outcome could not be recorded.
Status RunImport(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
                 v1::StoredJob job, const KeepGoing& keep_going);

}  // namespace pogi::jobs
