// The checks and merge of auto scaling settings updates.
#include "service/validate/auto_scaling.h"

#include <cstdio>
#include <optional>

#include "service/core/region.h"

namespace pogi::service {

void CheckAutoScalingMembers(Constraints& c, const v1::AutoScalingSettingsUpdate& u, std::string_view path) {
  const std::string at(path);
  c.AtLeast(u.has_minimum_units() ? std::optional<int64_t>(u.minimum_units()) : std::nullopt, 1,
            at + ".minimumUnits");
  c.AtLeast(u.has_maximum_units() ? std::optional<int64_t>(u.maximum_units()) : std::nullopt, 1,
            at + ".maximumUnits");
  c.Length(u.has_auto_scaling_role_arn() ? &u.auto_scaling_role_arn() : nullptr, 1, 1600,
           at + ".autoScalingRoleArn");
  if (u.has_scaling_policy_update()) {
    const auto& p = u.scaling_policy_update();
    const std::string pat = at + ".scalingPolicyUpdate";
    c.Length(p.has_policy_name() ? &p.policy_name() : nullptr, 1, 256, pat + ".policyName");
    c.Required(p.has_target_tracking_scaling_policy_configuration(),
               pat + ".targetTrackingScalingPolicyConfiguration");
    if (p.has_target_tracking_scaling_policy_configuration()) {
      c.Required(p.target_tracking_scaling_policy_configuration().has_target_value(),
                 pat + ".targetTrackingScalingPolicyConfiguration.targetValue");
    }
  }
}

AutoScalingDefaults AutoScalingDefaultsFor(const std::string& table_name, const std::string& index_name,
                                           bool write) {
  AutoScalingDefaults d;
  d.policy_name =
      std::string(write ? "DynamoDBWriteCapacityUtilization" : "DynamoDBReadCapacityUtilization") +
      ":table/" + table_name;
  if (!index_name.empty()) d.policy_name += "/index/" + index_name;
  // The service-linked role Application Auto Scaling makes for DynamoDB.
  d.role_arn = "arn:aws:iam::" + AccountId() +
               ":role/aws-service-role/dynamodb.application-autoscaling.amazonaws.com/"
               "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable";
  return d;
}

v1::AutoScalingSettingsDescription AutoScalingOff() {
  v1::AutoScalingSettingsDescription d;
  d.set_auto_scaling_disabled(true);
  return d;
}

namespace {

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

Result<v1::AutoScalingSettingsDescription> ApplyAutoScalingUpdate(
    const v1::AutoScalingSettingsDescription& current, const v1::AutoScalingSettingsUpdate& update,
    const AutoScalingDefaults& defaults) {
  if (update.auto_scaling_disabled()) return AutoScalingOff();
  v1::AutoScalingSettingsDescription d = current;
  if (d.auto_scaling_disabled()) d.Clear();
  d.set_auto_scaling_disabled(false);
  if (update.has_minimum_units()) d.set_minimum_units(update.minimum_units());
  if (update.has_maximum_units()) d.set_maximum_units(update.maximum_units());
  if (update.has_auto_scaling_role_arn()) d.set_auto_scaling_role_arn(update.auto_scaling_role_arn());
  if (!d.has_auto_scaling_role_arn()) d.set_auto_scaling_role_arn(defaults.role_arn);
  // TODO(fidelity): no record of DynamoDB's texts for settings it refuses
  // after the member constraints; these are pogi's own.
  if (!d.has_minimum_units() || !d.has_maximum_units()) {
    return Error::Validation("Both MinimumUnits and MaximumUnits must be specified to enable auto scaling");
  }
  if (d.minimum_units() > d.maximum_units()) {
    return Error::Validation("MinimumUnits (" + std::to_string(d.minimum_units()) +
                             ") must be less than or equal to MaximumUnits (" +
                             std::to_string(d.maximum_units()) + ")");
  }
  if (update.has_scaling_policy_update()) {
    const auto& p = update.scaling_policy_update();
    const auto& t = p.target_tracking_scaling_policy_configuration();
    if (t.target_value() < kMinTargetValue || t.target_value() > kMaxTargetValue) {
      return Error::Validation("TargetValue " + Number(t.target_value()) +
                               " is out of range: it must be between " + Number(kMinTargetValue) + " and " +
                               Number(kMaxTargetValue));
    }
    if ((t.has_scale_in_cooldown() && t.scale_in_cooldown() < 0) ||
        (t.has_scale_out_cooldown() && t.scale_out_cooldown() < 0)) {
      return Error::Validation("ScaleInCooldown and ScaleOutCooldown must not be negative");
    }
    // One target tracking policy per capacity: an update replaces it.
    d.clear_scaling_policies();
    auto* policy = d.add_scaling_policies();
    policy->set_policy_name(p.has_policy_name() ? p.policy_name() : defaults.policy_name);
    auto* out = policy->mutable_target_tracking_scaling_policy_configuration();
    out->set_target_value(t.target_value());
    if (t.has_disable_scale_in()) out->set_disable_scale_in(t.disable_scale_in());
    if (t.has_scale_in_cooldown()) out->set_scale_in_cooldown(t.scale_in_cooldown());
    if (t.has_scale_out_cooldown()) out->set_scale_out_cooldown(t.scale_out_cooldown());
  }
  return d;
}

}  // namespace pogi::service
