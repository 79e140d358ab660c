// Auto scaling settings (global tables' replica auto scaling and the legacy
// global table settings): the checks of one AutoScalingSettingsUpdate and
// what the settings become after it. pogi keeps and describes these
// settings and never acts on them: it does not change capacity by itself.
// Shared by UpdateTableReplicaAutoScaling and UpdateGlobalTableSettings;
// where they are kept is core/auto_scaling_store.h.
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"

namespace pogi::service {

// DynamoDB's bounds on a target tracking policy's TargetValue (percent of
// the provisioned capacity used), as its console and Application Auto
// Scaling hold them for DynamoDB's utilization metrics.
inline constexpr double kMinTargetValue = 20;
inline constexpr double kMaxTargetValue = 90;

// The member constraints of the update at `path` (e.g.
// "provisionedWriteCapacityAutoScalingUpdate"), in DynamoDB's words:
// minimumUnits and maximumUnits at least 1, autoScalingRoleArn of 1-1600
// characters, a scalingPolicyUpdate's targetTrackingScalingPolicyConfiguration
// and its targetValue present, policyName of 1-256 characters.
void CheckAutoScalingMembers(Constraints& c, const v1::AutoScalingSettingsUpdate& update,
                             std::string_view path);

// What one kind of capacity's settings are called and default to: the
// policy's name (DynamoDB's "DynamoDBReadCapacityUtilization:table/NAME",
// "...:table/NAME/index/INDEX") and the role Application Auto Scaling uses.
struct AutoScalingDefaults {
  std::string policy_name;
  std::string role_arn;
};
// The defaults for the read (`write` false) or write capacity of table
// `table_name`, or of its index `index_name` when not empty.
AutoScalingDefaults AutoScalingDefaultsFor(const std::string& table_name, const std::string& index_name,
                                           bool write);

// The settings described when none were ever set: auto scaling disabled.
v1::AutoScalingSettingsDescription AutoScalingOff();

// The settings `current` (AutoScalingOff() when none) become after `update`
// (REQUIRES: CheckAutoScalingMembers passed): AutoScalingDisabled true turns
// them off; otherwise the members given replace the current ones and a
// ScalingPolicyUpdate replaces the policy. A ValidationException when the
// result is not one DynamoDB accepts: MinimumUnits and MaximumUnits both
// set, MinimumUnits <= MaximumUnits, TargetValue within [20, 90], cooldowns
// not negative.
Result<v1::AutoScalingSettingsDescription> ApplyAutoScalingUpdate(
    const v1::AutoScalingSettingsDescription& current, const v1::AutoScalingSettingsUpdate& update,
    const AutoScalingDefaults& defaults);

}  // namespace pogi::service
