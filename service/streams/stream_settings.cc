// StreamSpecification rules and their effect on a table.
#include "service/streams/stream_settings.h"

namespace pogi::service {

void CheckStreamMembers(Constraints& c, const v1::StreamSpecification& spec, std::string_view path) {
  std::string at(path);
  c.Required(spec.has_stream_enabled(), at + ".streamEnabled");
  c.OneOf(spec.has_stream_view_type() ? &spec.stream_view_type() : nullptr,
          {"NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"}, at + ".streamViewType");
}

// The wording DynamoDB uses (it names the member UpdateViewType here).
Status CheckStreamSpecification(const v1::StreamSpecification& spec, bool creating) {
  if (spec.stream_enabled() && !spec.has_stream_view_type()) {
    return Error::InvalidParameter(creating
                                       ? "Table is being created with a stream enabled, UpdateViewType is "
                                         "required"
                                       : "If stream is being enabled then UpdateViewType is required");
  }
  if (!spec.stream_enabled() && spec.has_stream_view_type()) {
    return Error::InvalidParameter(creating ? "Table is being created with a stream disabled, UpdateViewType "
                                              "should not be specified"
                                            : "If stream is being disabled, then UpdateViewType must not be "
                                              "specified");
  }
  return Status::Ok();
}

Status ApplyStreamSpecification(Streams& streams, storage::WriteTxn& txn, int64_t table_id,
                                const v1::StreamSpecification& spec, v1::TableDescription* d) {
  bool has_stream = d->stream_specification().stream_enabled();
  if (spec.stream_enabled()) {
    // Also when only the view type differs: a stream's view type changes
    // only by disabling it and enabling a new one.
    if (has_stream)
      return Error::Validation("Table already has an enabled stream: TableName: " + d->table_name());
    POGI_ASSIGN_OR_RETURN(int64_t id, streams.Create(txn, d, table_id, spec.stream_view_type()));
    d->mutable_stream_specification()->set_stream_enabled(true);
    d->mutable_stream_specification()->set_stream_view_type(spec.stream_view_type());
    d->set_pogi_stream_id(id);
    return Status::Ok();
  }
  if (!has_stream) return Error::Validation("Table has no stream to disable: TableName: " + d->table_name());
  POGI_RETURN_IF_ERROR(streams.Disable(txn, d->pogi_stream_id()));
  // The last stream stays named (LatestStreamArn/Label) and readable.
  d->clear_stream_specification();
  d->clear_pogi_stream_id();
  return Status::Ok();
}

}  // namespace pogi::service
