// TagResource: add or replace tags of a table, named by its ARN.
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"

namespace pogi::service {

Result<v1::TagResourceResponse> Engine::TagResource(const v1::TagResourceRequest& req) {
  const std::string* arn = req.has_resource_arn() ? &req.resource_arn() : nullptr;
  // The member constraints come first, as DynamoDB checks them, then the ARN.
  Constraints c;
  c.Length(arn, 1, kMaxResourceArnLength, "resourceArn");
  CheckTagMembers(c, req.tags(), "tags");
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(CheckArnForm(arn, "TagResource"));
  // Before the table is looked up (behaviours.md 1.3); "Atleast" is DynamoDB's.
  if (req.tags_size() == 0) return Error::Validation("Atleast one Tag needs to be provided as Input.");
  POGI_ASSIGN_OR_RETURN(auto table, TableOfArn(req.resource_arn()));
  POGI_RETURN_IF_ERROR(
      ChangeSettings(*table, [&](v1::TableSettings& s) { return MergeTags(req.tags(), s.mutable_tags()); }));
  return v1::TagResourceResponse();
}

}  // namespace pogi::service
