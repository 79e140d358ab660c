// The one AWS region pogi answers as (`pogi start --region`, us-east-1 by
// default): in table, index, stream and backup ARNs, in stream records, and
// in the SigV4 credential scope that --check-signatures accepts.
#pragma once

#include <string>
#include <string_view>

namespace pogi::service {

inline constexpr std::string_view kDefaultRegion = "us-east-1";

// Whether `name` is shaped like an AWS region name: lower-case words joined
// by '-', at least two of them before a final number ("us-east-1",
// "eu-west-3", "us-gov-west-1", "ap-southeast-2", "us-isob-east-1").
bool IsRegionName(std::string_view name);

// The region pogi answers as.
const std::string& Region();

// Sets the region (REQUIRES: IsRegionName(name)). Called once at start,
// before anything serves: Region() is read by every thread without a lock.
void SetRegion(std::string_view name);

}  // namespace pogi::service
