// PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy: a table's
// resource-based policy, stored and returned as given, never enforced.
#include <optional>

#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

// DynamoDB's wording of PolicyNotFoundException, as seen in its answers.
Error NoPolicy(const std::string& arn) {
  return Error(ErrorCode::kPolicyNotFound,
               "Resource-based policy not found for the provided ResourceArn: " + arn);
}

Error RevisionMismatch(const std::string& arn, const std::string& expected, const std::string& actual) {
  return Error(
      ErrorCode::kPolicyNotFound,
      "Resource-based policy not found for the provided ResourceArn: Requested update for policy with "
      "revision id " +
          expected + ", but the policy associated to target resource " + arn + " has revision id " + actual +
          ".");
}

// The checks every policy operation starts with, in DynamoDB's order: the
// member constraints together (the ARN's length, then `policy_present` when
// the operation has a Policy, then the ExpectedRevisionId), then the ARN's form.
Status CheckPolicyRequest(const std::string* arn, std::optional<bool> policy_present,
                          const std::string* expected_revision_id, std::string_view op) {
  Constraints c;
  c.Length(arn, 1, kMaxResourceArnLength, "resourceArn");
  if (policy_present) c.Required(*policy_present, "policy");
  c.Length(expected_revision_id, 1, 255, "expectedRevisionId");
  POGI_RETURN_IF_ERROR(c.Finish());
  return CheckArnForm(arn, op);
}

// DynamoDB's limit on a policy document.
constexpr size_t kMaxPolicyBytes = 20 * 1024;

}  // namespace

Result<v1::PutResourcePolicyResponse> Engine::PutResourcePolicy(const v1::PutResourcePolicyRequest& req) {
  POGI_RETURN_IF_ERROR(CheckPolicyRequest(
      req.has_resource_arn() ? &req.resource_arn() : nullptr, req.has_policy(),
      req.has_expected_revision_id() ? &req.expected_revision_id() : nullptr, "PutResourcePolicy"));
  if (req.policy().size() > kMaxPolicyBytes) {
    // The limit is DynamoDB's; its wording here is pogi's.
    return Error::LimitExceeded("The resource-based policy document exceeds the maximum size of 20 KB");
  }
  if (req.policy().empty()) return Error::Validation("Invalid policy document: the policy is empty");
  POGI_ASSIGN_OR_RETURN(auto table, TableOfArn(req.resource_arn()));
  v1::PutResourcePolicyResponse resp;
  POGI_RETURN_IF_ERROR(ChangeSettings(*table, [&](v1::TableSettings& s) -> Status {
    if (req.has_expected_revision_id()) {
      if (!s.has_resource_policy()) return NoPolicy(req.resource_arn());
      if (s.policy_revision_id() != req.expected_revision_id()) {
        return RevisionMismatch(req.resource_arn(), req.expected_revision_id(), s.policy_revision_id());
      }
    }
    // Revision ids are the time of the change in microseconds, always
    // increasing (DynamoDB's are numeric strings too).
    int64_t revision = ToMicros(clock_->Now());
    if (s.has_policy_revision_id())
      revision = std::max<int64_t>(revision, std::stoll(s.policy_revision_id()) + 1);
    s.set_resource_policy(req.policy());
    s.set_policy_revision_id(std::to_string(revision));
    resp.set_revision_id(s.policy_revision_id());
    return Status::Ok();
  }));
  return resp;
}

Result<v1::GetResourcePolicyResponse> Engine::GetResourcePolicy(const v1::GetResourcePolicyRequest& req) {
  POGI_RETURN_IF_ERROR(CheckPolicyRequest(req.has_resource_arn() ? &req.resource_arn() : nullptr,
                                          std::nullopt, nullptr, "GetResourcePolicy"));
  POGI_ASSIGN_OR_RETURN(auto table, TableOfArn(req.resource_arn()));
  if (!table->settings.has_resource_policy()) return NoPolicy(req.resource_arn());
  v1::GetResourcePolicyResponse resp;
  resp.set_policy(table->settings.resource_policy());
  resp.set_revision_id(table->settings.policy_revision_id());
  return resp;
}

Result<v1::DeleteResourcePolicyResponse> Engine::DeleteResourcePolicy(
    const v1::DeleteResourcePolicyRequest& req) {
  POGI_RETURN_IF_ERROR(CheckPolicyRequest(
      req.has_resource_arn() ? &req.resource_arn() : nullptr, std::nullopt,
      req.has_expected_revision_id() ? &req.expected_revision_id() : nullptr, "DeleteResourcePolicy"));
  POGI_ASSIGN_OR_RETURN(auto table, TableOfArn(req.resource_arn()));
  v1::DeleteResourcePolicyResponse resp;
  POGI_RETURN_IF_ERROR(ChangeSettings(*table, [&](v1::TableSettings& s) -> Status {
    if (!s.has_resource_policy()) return NoPolicy(req.resource_arn());
    if (req.has_expected_revision_id() && s.policy_revision_id() != req.expected_revision_id()) {
      return RevisionMismatch(req.resource_arn(), req.expected_revision_id(), s.policy_revision_id());
    }
    resp.set_revision_id(s.policy_revision_id());
    s.clear_resource_policy();
    s.clear_policy_revision_id();
    return Status::Ok();
  }));
  return resp;
}

}  // namespace pogi::service
