// Runs one export (ExportTableToPointInTime) to its end: the objects
// DynamoDB writes, under PREFIX/AWSDynamoDB/EXPORT_ID/:
//   _started                 (empty: the bucket is writable, the export began)
//   data/NAME.json.gz        (or .ion.gz) one item or change per line
//   manifest-files.json      one line per data file: itemCount, md5Checksum, etag, dataFileS3Key
//   manifest-files.checksum  the hex MD5 of manifest-files.json
//   manifest-summary.json    the export's summary (counts, billed size, times, format)
//   manifest-summary.checksum
// The table's history is read a page at a time, each page its own short
// storage read, so requests are not held up; memory holds one page and the
// compressor's buffers. The export then reads COMPLETED, or FAILED with
// DynamoDB's FailureCode and FailureMessage (the object store's code:
// S3NoSuchBucket, S3AccessDenied...). Run again from the start after a
// restart: a past instant's history does not change, so the files come out
// the same.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/result.h"
#include "outbound/object_store.h"
#include "pogi/v1/control_state.pb.h"
#include "service/engine/engine.h"

namespace pogi::jobs {

// Whether the job may go on (false: its lease was lost to another process,
// or pogi is stopping).
using KeepGoing = std::function<bool()>;

// Runs the export `arn` (its stored state `job`) and records its outcome.
// An error return means the outcome could not be recorded (storage
// failed); the export is then left IN_PROGRESS for a later run.
Status RunExport(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
                 v1::StoredJob job, const KeepGoing& keep_going);

}  // namespace pogi::jobs
