// Tests for auto scaling settings: the member constraints of one
// AutoScalingSettingsUpdate, and what the settings become after it.
#include "service/validate/auto_scaling.h"

#include <gtest/gtest.h>

namespace pogi::service {
namespace {

v1::AutoScalingSettingsUpdate Enable(int64_t min, int64_t max, double target) {
  v1::AutoScalingSettingsUpdate u;
  u.set_minimum_units(min);
  u.set_maximum_units(max);
  u.mutable_scaling_policy_update()->mutable_target_tracking_scaling_policy_configuration()->set_target_value(
      target);
  return u;
}

const AutoScalingDefaults& Defaults() {
  static const AutoScalingDefaults d = AutoScalingDefaultsFor("t", "", true);
  return d;
}

TEST(AutoScalingTest, MemberConstraintsInDynamoDBsWords) {
  v1::AutoScalingSettingsUpdate u;
  u.set_minimum_units(0);
  u.set_maximum_units(0);
  u.set_auto_scaling_role_arn("");
  u.mutable_scaling_policy_update()->set_policy_name("");
  Constraints c;
  CheckAutoScalingMembers(c, u, "provisionedWriteCapacityAutoScalingUpdate");
  Status s = c.Finish();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.error().message(),
      "5 validation errors detected: "
      "Value '0' at 'provisionedWriteCapacityAutoScalingUpdate.minimumUnits' failed to satisfy constraint: "
      "Member must have value greater than or equal to 1; "
      "Value '0' at 'provisionedWriteCapacityAutoScalingUpdate.maximumUnits' failed to satisfy constraint: "
      "Member must have value greater than or equal to 1; "
      "Value '' at 'provisionedWriteCapacityAutoScalingUpdate.autoScalingRoleArn' failed to satisfy "
      "constraint: Member must have length greater than or equal to 1; "
      "Value '' at 'provisionedWriteCapacityAutoScalingUpdate.scalingPolicyUpdate.policyName' failed to "
      "satisfy constraint: Member must have length greater than or equal to 1; "
      "Value null at "
      "'provisionedWriteCapacityAutoScalingUpdate.scalingPolicyUpdate."
      "targetTrackingScalingPolicyConfiguration' "
      "failed to satisfy constraint: Member must not be null");
}

TEST(AutoScalingTest, TargetValueIsRequired) {
  v1::AutoScalingSettingsUpdate u;
  u.mutable_scaling_policy_update()->mutable_target_tracking_scaling_policy_configuration();
  Constraints c;
  CheckAutoScalingMembers(c, u, "x");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.Finish().error().message().find(
                "'x.scalingPolicyUpdate.targetTrackingScalingPolicyConfiguration.targetValue'"),
            std::string::npos);
}

TEST(AutoScalingTest, EnablingFillsDefaults) {
  auto d = ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 70), Defaults());
  ASSERT_TRUE(d.ok()) << d.error().message();
  EXPECT_FALSE(d->auto_scaling_disabled());
  EXPECT_EQ(d->minimum_units(), 5);
  EXPECT_EQ(d->maximum_units(), 50);
  EXPECT_EQ(d->auto_scaling_role_arn(),
            "arn:aws:iam::000000000000:role/aws-service-role/dynamodb.application-autoscaling.amazonaws.com/"
            "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable");
  ASSERT_EQ(d->scaling_policies_size(), 1);
  EXPECT_EQ(d->scaling_policies(0).policy_name(), "DynamoDBWriteCapacityUtilization:table/t");
  EXPECT_EQ(d->scaling_policies(0).target_tracking_scaling_policy_configuration().target_value(), 70);
}

TEST(AutoScalingTest, IndexPolicyName) {
  EXPECT_EQ(AutoScalingDefaultsFor("t", "by-g", false).policy_name,
            "DynamoDBReadCapacityUtilization:table/t/index/by-g");
}

TEST(AutoScalingTest, LaterUpdateKeepsWhatItDoesNotName) {
  auto first = ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 70), Defaults());
  ASSERT_TRUE(first.ok());
  v1::AutoScalingSettingsUpdate u;
  u.set_maximum_units(80);
  auto second = ApplyAutoScalingUpdate(*first, u, Defaults());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->minimum_units(), 5);
  EXPECT_EQ(second->maximum_units(), 80);
  ASSERT_EQ(second->scaling_policies_size(), 1);
  EXPECT_EQ(second->scaling_policies(0).target_tracking_scaling_policy_configuration().target_value(), 70);
}

TEST(AutoScalingTest, DisablingForgetsTheSettings) {
  auto first = ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 70), Defaults());
  ASSERT_TRUE(first.ok());
  v1::AutoScalingSettingsUpdate u;
  u.set_auto_scaling_disabled(true);
  auto off = ApplyAutoScalingUpdate(*first, u, Defaults());
  ASSERT_TRUE(off.ok());
  EXPECT_TRUE(off->auto_scaling_disabled());
  EXPECT_FALSE(off->has_minimum_units());
  EXPECT_EQ(off->scaling_policies_size(), 0);
}

TEST(AutoScalingTest, RefusesWhatDynamoDBRefuses) {
  // Minimum above maximum.
  auto r = ApplyAutoScalingUpdate(AutoScalingOff(), Enable(60, 50, 70), Defaults());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation);
  // Target utilization outside 20-90 percent.
  EXPECT_FALSE(ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 19.5), Defaults()).ok());
  EXPECT_FALSE(ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 90.5), Defaults()).ok());
  EXPECT_TRUE(ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 20), Defaults()).ok());
  EXPECT_TRUE(ApplyAutoScalingUpdate(AutoScalingOff(), Enable(5, 50, 90), Defaults()).ok());
  // Enabling needs both bounds.
  v1::AutoScalingSettingsUpdate only_min;
  only_min.set_minimum_units(5);
  EXPECT_FALSE(ApplyAutoScalingUpdate(AutoScalingOff(), only_min, Defaults()).ok());
  // A negative cooldown.
  auto u = Enable(5, 50, 70);
  u.mutable_scaling_policy_update()
      ->mutable_target_tracking_scaling_policy_configuration()
      ->set_scale_in_cooldown(-1);
  EXPECT_FALSE(ApplyAutoScalingUpdate(AutoScalingOff(), u, Defaults()).ok());
}

}  // namespace
}  // namespace pogi::service
