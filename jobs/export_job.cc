// An export's files, page by page from the point-in-time history.
#include "jobs/export_job.h"

#include <cmath>

#include "common/base64.h"
#include "common/md5.h"
#include "common/sha256.h"
#include "gateway/item_proto_json.h"
#include "gateway/json_codec.h"
#include "gateway/json_text.h"
#include "jobs/export_lines.h"
#include "jobs/gzip_writer.h"
#include "service/core/clock.h"
#include "service/value/item.h"
#include "service/write/pitr_history.h"

namespace pogi::jobs {
namespace {

constexpr int kPageRows = 1000;            // history rows per storage read
constexpr int64_t kItemsPerFile = 200000;  // then the next data file begins

std::string ExportIdOf(const std::string& arn) { return arn.substr(arn.rfind('/') + 1); }

// Data file names like DynamoDB's: 26 lower-case base32 characters, here
// from the export id and the file's number (the same after a restart).
std::string DataFileName(const std::string& export_id, int n) {
  auto digest = Sha256(export_id + "/" + std::to_string(n));
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  std::string out;
  uint64_t bits = 0;
  int have = 0;
  for (size_t i = 0; out.size() < 26; ++i) {
    bits = (bits << 8) | digest[i];
    have += 8;
    while (have >= 5 && out.size() < 26) {
      out.push_back(kAlphabet[(bits >> (have - 5)) & 31]);
      have -= 5;
    }
  }
  return out;
}

struct DataFile {
  std::string key;
  int64_t items = 0;
  std::string md5;  // of the compressed bytes
};

class ExportRun {
 public:
  ExportRun(service::Engine& engine, outbound::ObjectStore& store, v1::StoredJob& job,
            const KeepGoing& keep_going)
      : engine_(engine), store_(store), job_(job), d_(*job.mutable_export_()), keep_going_(keep_going) {
    std::string prefix = d_.s3_prefix();
    if (!prefix.empty() && prefix.back() != '/') prefix.push_back('/');
    base_ = prefix + "AWSDynamoDB/" + ExportIdOf(d_.export_arn()) + "/";
    ion_ = d_.export_format() == "ION";
  }

  Status Run() {
    const std::string& bucket = d_.s3_bucket();
    POGI_RETURN_IF_ERROR(store_.CheckBucket(bucket));
    POGI_RETURN_IF_ERROR(store_.Put(bucket, base_ + "_started", ""));
    auto table = engine_.FindTableOrNull(d_.table_arn().substr(d_.table_arn().rfind('/') + 1));
    if (!table || table->id != job_.table_id()) {
      return Error(ErrorCode::kTableNotFound, "UNKNOWN: the table was deleted during the export");
    }
    key_names_.clear();
    for (const auto& k : table->description.key_schema()) key_names_.push_back(k.attribute_name());
    if (d_.has_filter_specification()) {
      POGI_ASSIGN_OR_RETURN(filter_, service::ExportFilter::Make(d_.filter_specification(), *table));
    }
    const service::ExportFilter* filter = filter_ ? &*filter_ : nullptr;
    POGI_RETURN_IF_ERROR(NewFile());
    std::string cursor;
    bool incremental = d_.export_type() == "INCREMENTAL_EXPORT";
    do {
      if (!keep_going_()) return Error(ErrorCode::kServiceUnavailable, "stopped");
      std::string lines;
      Status read = engine_.ReadStorage([&](storage::ReadTxn& txn) -> Status {
        lines.clear();
        line_error_ = Status::Ok();
        page_items_ = 0;
        page_bytes_ = 0;
        if (incremental) {
          const auto& inc = d_.incremental_export_specification();
          bool old_images = inc.export_view_type() != "NEW_IMAGE";
          std::string at = cursor;
          Status s = txn.ReadHistoryChanges(
              job_.table_id(), service::ToMicros(inc.export_from_time()),
              service::ToMicros(inc.export_to_time()), &at, kPageRows, [&](const storage::HistoryChange& c) {
                return Counted(AppendChangeLine(c, key_names_, old_images, filter, ion_, &lines));
              });
          cursor_next_ = at;
          return s;
        }
        std::string at = cursor;
        Status s = txn.ReadHistoryPage(job_.table_id(), service::ToMicros(d_.export_time()), &at, kPageRows,
                                       [&](const storage::Row& row) {
                                         page_bytes_ += row.size;  // read, written or not
                                         return Counted(AppendItemLine(row.item, filter, ion_, &lines));
                                       });
        cursor_next_ = at;
        return s;
      });
      POGI_RETURN_IF_ERROR(read);
      POGI_RETURN_IF_ERROR(line_error_);
      cursor = cursor_next_;
      POGI_RETURN_IF_ERROR(writer_->Write(lines));
      files_.back().items += page_items_;
      items_ += page_items_;
      billed_ += page_bytes_;
      if (files_.back().items >= kItemsPerFile && !cursor.empty()) POGI_RETURN_IF_ERROR(NewFile());
    } while (!cursor.empty());
    POGI_RETURN_IF_ERROR(CloseFile());
    return WriteManifests();
  }

 private:
  // Counts a line appended; false (stop reading) after an error.
  bool Counted(Result<bool> appended) {
    if (!appended.ok()) {
      line_error_ = std::move(appended).error();
      return false;
    }
    page_items_ += *appended ? 1 : 0;
    return true;
  }

  Status NewFile() {
    if (writer_) POGI_RETURN_IF_ERROR(CloseFile());
    DataFile f;
    f.key = base_ + "data/" + DataFileName(ExportIdOf(d_.export_arn()), static_cast<int>(files_.size())) +
            (ion_ ? ".ion.gz" : ".json.gz");
    POGI_ASSIGN_OR_RETURN(auto out, store_.Create(d_.s3_bucket(), f.key));
    writer_ = std::make_unique<GzipWriter>(std::move(out));
    if (ion_) POGI_RETURN_IF_ERROR(writer_->Write("$ion_1_0\n"));
    files_.push_back(std::move(f));
    return Status::Ok();
  }

  Status CloseFile() {
    POGI_RETURN_IF_ERROR(writer_->Finish());
    files_.back().md5 = writer_->md5();
    writer_.reset();
    return Status::Ok();
  }

  Status WriteManifests() {
    double end = engine_.clock().Now();
    std::string files;
    for (const DataFile& f : files_) {
      files += "{\"itemCount\":" + std::to_string(f.items) + ",\"md5Checksum\":\"" + Base64Encode(f.md5) +
               "\",\"etag\":\"" + ToHex(f.md5) + "\",\"dataFileS3Key\":";
      gateway::AppendJsonString(f.key, &files);
      files += "}\n";
    }
    const std::string& bucket = d_.s3_bucket();
    std::string files_key = base_ + "manifest-files.json";
    POGI_RETURN_IF_ERROR(store_.Put(bucket, files_key, files));
    POGI_RETURN_IF_ERROR(store_.Put(bucket, base_ + "manifest-files.checksum", HexMd5(files)));
    std::string summary = "{\"version\":\"2020-06-30\",\"exportArn\":";
    auto field = [&](const char* name, const std::string& value) {
      summary += std::string(",\"") + name + "\":";
      gateway::AppendJsonString(value, &summary);
    };
    gateway::AppendJsonString(d_.export_arn(), &summary);
    field("startTime", service::FormatIsoTime(d_.start_time()));
    field("endTime", service::FormatIsoTime(end));
    field("tableArn", d_.table_arn());
    field("tableId", d_.table_id());
    if (d_.export_type() == "INCREMENTAL_EXPORT") {
      const auto& inc = d_.incremental_export_specification();
      field("exportFromTime", service::FormatIsoTime(inc.export_from_time()));
      field("exportToTime", service::FormatIsoTime(inc.export_to_time()));
      field("exportViewType", inc.export_view_type());
    } else {
      field("exportTime", service::FormatIsoTime(d_.export_time()));
    }
    field("s3Bucket", bucket);
    if (d_.has_s3_prefix()) field("s3Prefix", d_.s3_prefix());
    field("s3SseAlgorithm", d_.s3_sse_algorithm());
    if (d_.has_s3_sse_kms_key_id()) {
      field("s3SseKmsKeyId", d_.s3_sse_kms_key_id());
    } else {
      summary += ",\"s3SseKmsKeyId\":null";
    }
    field("manifestFilesS3Key", files_key);
    summary += ",\"billedSizeBytes\":" + std::to_string(billed_) + ",\"itemCount\":" + std::to_string(items_);
    field("outputFormat", d_.export_format());
    field("exportType", d_.export_type());
    summary += "}";
    std::string summary_key = base_ + "manifest-summary.json";
    POGI_RETURN_IF_ERROR(store_.Put(bucket, summary_key, summary));
    POGI_RETURN_IF_ERROR(store_.Put(bucket, base_ + "manifest-summary.checksum", HexMd5(summary)));
    d_.set_export_status("COMPLETED");
    d_.set_end_time(end);
    d_.set_export_manifest(summary_key);
    d_.set_item_count(items_);
    d_.set_billed_size_bytes(billed_);
    return Status::Ok();
  }

  static std::string HexMd5(std::string_view data) {
    Md5 md5;
    md5.Update(data);
    return ToHex(md5.Digest());
  }

  service::Engine& engine_;
  outbound::ObjectStore& store_;
  v1::StoredJob& job_;
  v1::ExportDescription& d_;
  const KeepGoing& keep_going_;
  std::string base_;
  bool ion_ = false;
  std::vector<std::string> key_names_;
  std::vector<DataFile> files_;
  std::unique_ptr<GzipWriter> writer_;
  int64_t items_ = 0, billed_ = 0, page_items_ = 0, page_bytes_ = 0;
  std::string cursor_next_;
  Status line_error_;
  std::optional<service::ExportFilter> filter_;  // FilterSpecification
};

}  // namespace

Status RunExport(service::Engine& engine, outbound::ObjectStore& store, const std::string& arn,
                 v1::StoredJob job, const KeepGoing& keep_going) {
  ExportRun run(engine, store, job, keep_going);
  Status s = run.Run();
  v1::ExportDescription& d = *job.mutable_export_();
  if (!s.ok()) {
    if (s.error().code() == ErrorCode::kServiceUnavailable && s.error().message() == "stopped") {
      return Status::Ok();  // another run takes it up
    }
    outbound::StoreFailure f = outbound::FailureOf(s.error());
    if (!s.error().message().starts_with("S3")) f = {"UNKNOWN", s.error().message()};
    if (f.message.starts_with("UNKNOWN: ")) f.message = f.message.substr(9);
    d.set_export_status("FAILED");
    d.set_failure_code(f.code);
    d.set_failure_message(f.message);
    d.set_end_time(engine.clock().Now());
  }
  return engine.SaveJob(arn, "export", d.start_time(), job);
}

}  // namespace pogi::jobs
