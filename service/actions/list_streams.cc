// ListStreams (DynamoDB Streams): the streams of every table or of one,
// oldest first, disabled ones included for their 24-hour retention.
#include <set>

#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/streams/stream_records.h"
#include "service/validate/constraints.h"

namespace pogi::service {
namespace {

using StreamList = decltype(std::declval<Streams>().All());

// The streams the request's region sees, as Catalog::Find sees tables: its
// own region's, and (but under --strict-regions) the home region's of the
// tables it has none of its own for.
StreamList VisibleStreams(StreamList all) {
  const std::string& want = RequestRegion();
  StreamList out;
  std::set<std::string> own;  // names of tables with a stream in the request's region
  for (const auto& [id, s] : all) {
    if (RegionOfArn(s.stream_arn()) == want) own.insert(s.table_name());
  }
  for (auto& entry : all) {
    std::string_view region = RegionOfArn(entry.second.stream_arn());
    bool seen =
        region == want || (!StrictRegions() && region == Region() && !own.count(entry.second.table_name()));
    if (seen) out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

Result<v1::ListStreamsResponse> Engine::ListStreams(const v1::ListStreamsRequest& req) {
  Constraints c;
  if (req.has_table_name()) CheckTableName(c, &req.table_name());
  std::optional<int64_t> limit_given = req.has_limit() ? std::optional(req.limit()) : std::nullopt;
  c.AtLeast(limit_given, 1, "limit");
  // DynamoDB Streams' documented upper limit, refused above it (ST1).
  c.AtMost(limit_given, 100, "limit");
  c.Length(req.has_exclusive_start_stream_arn() ? &req.exclusive_start_stream_arn() : nullptr, 37, 1024,
           "exclusiveStartStreamArn");
  POGI_RETURN_IF_ERROR(c.Finish());
  if (req.has_exclusive_start_stream_arn()) {
    POGI_RETURN_IF_ERROR(CheckStreamArn(req.exclusive_start_stream_arn(), "ExclusiveStartStreamArn"));
  }
  int64_t limit = limit_given.value_or(100);
  auto all = VisibleStreams(streams_.All());
  if (req.has_table_name() && !catalog_.Find(req.table_name())) {
    bool any = false;
    for (const auto& [id, s] : all) any = any || s.table_name() == req.table_name();
    if (!any) {
      return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() +
                                     " not found");
    }
  }
  bool started = !req.has_exclusive_start_stream_arn();
  v1::ListStreamsResponse resp;
  for (const auto& [id, s] : all) {
    if (!started) {
      started = s.stream_arn() == req.exclusive_start_stream_arn();
      continue;
    }
    if (req.has_table_name() && s.table_name() != req.table_name()) continue;
    if (resp.streams_size() == limit) {
      resp.set_last_evaluated_stream_arn(resp.streams(resp.streams_size() - 1).stream_arn());
      break;
    }
    auto* out = resp.add_streams();
    out->set_stream_arn(s.stream_arn());
    out->set_table_name(s.table_name());
    out->set_stream_label(s.stream_label());
  }
  return resp;
}

}  // namespace pogi::service
