// ListTagsOfResource: a table's tags, ordered by key, all in one answer.
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"

namespace pogi::service {
namespace {

// Tags per answer: today's DynamoDB returns all of a table's tags (at most
// 50) at once, and clients that read only the first answer rely on it. (An
// older record paged them ten at a time; a NextToken is still accepted.)
constexpr int kTagsPerPage = kMaxTags;

}  // namespace

Result<v1::ListTagsOfResourceResponse> Engine::ListTagsOfResource(const v1::ListTagsOfResourceRequest& req) {
  const std::string* arn = req.has_resource_arn() ? &req.resource_arn() : nullptr;
  // The member constraints come first, as DynamoDB checks them, then the ARN.
  Constraints c;
  c.Length(arn, 1, kMaxResourceArnLength, "resourceArn");
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(CheckArnForm(arn, "ListTagsOfResource"));
  POGI_ASSIGN_OR_RETURN(auto table, TableOfArn(req.resource_arn()));
  // The token is the position of the page's first tag.
  int start = 0;
  if (req.has_next_token()) {
    const std::string& t = req.next_token();
    bool digits = !t.empty() && t.size() < 4 && t.find_first_not_of("0123456789") == std::string::npos;
    // DynamoDB's wording for a token it did not issue is not on record.
    if (!digits) return Error::Validation("Invalid NextToken: " + t);
    start = std::stoi(t);
  }
  v1::ListTagsOfResourceResponse resp;
  const auto& tags = table->settings.tags();
  for (int i = start; i < tags.size() && i < start + kTagsPerPage; ++i) *resp.add_tags() = tags[i];
  if (start + kTagsPerPage < tags.size()) resp.set_next_token(std::to_string(start + kTagsPerPage));
  return resp;
}

}  // namespace pogi::service
