// UntagResource: remove tags of a table by key; an absent key is no error.
#include <set>

#include "service/engine/engine.h"
#include "service/validate/control_plane.h"

namespace pogi::service {

Result<v1::UntagResourceResponse> Engine::UntagResource(const v1::UntagResourceRequest& req) {
  const std::string* arn = req.has_resource_arn() ? &req.resource_arn() : nullptr;
  // The member constraints come first, as DynamoDB checks them, then the ARN.
  Constraints c;
  c.Length(arn, 1, kMaxResourceArnLength, "resourceArn");
  for (int i = 0; i < req.tag_keys_size(); ++i) {
    c.Length(&req.tag_keys(i), 1, 128, "tagKeys." + std::to_string(i + 1) + ".member");
  }
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(CheckArnForm(arn, "UntagResource"));
  // Before the table is looked up, in DynamoDB's words (behaviours.md 1.3).
  if (req.tag_keys_size() == 0)
    return Error::Validation("Atleast one Tag Key needs to be provided as Input.");
  // A missing table is answered as ListTagsOfResource answers it, naming
  // the ARN (today's form; the 2020 record of behaviours.md 1.3 names none).
  POGI_ASSIGN_OR_RETURN(auto table, TableOfArn(req.resource_arn()));
  std::set<std::string> gone(req.tag_keys().begin(), req.tag_keys().end());
  POGI_RETURN_IF_ERROR(ChangeSettings(*table, [&](v1::TableSettings& s) {
    google::protobuf::RepeatedPtrField<v1::Tag> kept;
    for (const auto& t : s.tags()) {
      if (!gone.count(t.key())) *kept.Add() = t;
    }
    s.mutable_tags()->Swap(&kept);
    return Status::Ok();
  }));
  return v1::UntagResourceResponse();
}

}  // namespace pogi::service
