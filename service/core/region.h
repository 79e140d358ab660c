// Regions, and the account pogi answers as. pogi answers as one home region (`pogi start --region`,
// us-east-1 by default): in the ARNs of the tables it makes, in stream
// records, in the SigV4 credential scope --check-signatures accepts. A
// request's own region is its credential scope's (RequestRegion): by default
// every table answers from every region (one namespace, what users of other
// emulators expect); with --strict-regions each region has its own tables as
// in AWS; a global table's replica in region R answers the requests of
// region R in either mode.
#pragma once

#include <string>
#include <string_view>

namespace pogi::service {

inline constexpr std::string_view kDefaultRegion = "us-east-1";

// Whether `name` is shaped like an AWS region name: lower-case words joined
// by '-', at least two of them before a final number ("us-east-1",
// "eu-west-3", "us-gov-west-1", "ap-southeast-2", "us-isob-east-1").
bool IsRegionName(std::string_view name);

// The home region.
const std::string& Region();

// Sets the home region (REQUIRES: IsRegionName(name)). Called once at start,
// before anything serves: Region() is read by every thread without a lock.
void SetRegion(std::string_view name);

// The account id in every ARN pogi makes and accepts as its own
// (`pogi start --account-id`; 000000000000 by default, as DynamoDB Local's).
inline constexpr std::string_view kDefaultAccountId = "000000000000";
const std::string& AccountId();
// Whether `id` is an AWS account id: 12 digits.
bool IsAccountId(std::string_view id);
// Sets the account id (REQUIRES: IsAccountId(id)). Called once at start,
// before anything serves, as SetRegion.
void SetAccountId(std::string_view id);

// --strict-regions: each region its own tables. Set once at start.
bool StrictRegions();
void SetStrictRegions(bool strict);

// The region of the request the calling thread serves: set by the door that
// received it (RequestRegionScope: the HTTP door from the credential scope,
// the gRPC door from the call's `pogi-region` metadata), else the home
// region (admin calls, background work, unsigned requests).
const std::string& RequestRegion();
// Whether the calling thread serves a request of another region than the
// home one.
bool InOtherRegion();

// Makes `region` the calling thread's request region until destroyed. An
// empty region, the home one, or what is not a region name changes nothing.
class RequestRegionScope {
 public:
  explicit RequestRegionScope(std::string_view region);
  ~RequestRegionScope();
  RequestRegionScope(const RequestRegionScope&) = delete;
  RequestRegionScope& operator=(const RequestRegionScope&) = delete;

 private:
  bool set_ = false;
};

// The region of a SigV4 credential "AKID/DATE/REGION/SERVICE/aws4_request",
// or "" when it has no such part.
std::string_view CredentialRegion(std::string_view credential);

// The gRPC metadata key that carries a call's region (pogi gateway sends it).
inline constexpr std::string_view kRegionMetadata = "pogi-region";

// Regions where tables of this process live besides the home one (global
// tables' replicas): the catalog keeps the count of tables in each.
void AddTableRegion(std::string_view region);
void RemoveTableRegion(std::string_view region);

// Whether a request's region can change what it sees: under --strict-regions,
// or while tables live in other regions than the home one. When not, doors
// need not work the region out (one relaxed load).
bool RegionsMatter();

// Whether pogi answers requests of `region`: the home region, any region
// under --strict-regions, and a region where one of its tables lives.
bool ServesRegion(std::string_view region);

}  // namespace pogi::service
