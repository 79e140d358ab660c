// The headers most of pogi's files parse, precompiled once per build
// (CMakeLists.txt, "precompiled headers"): protoc's messages of DynamoDB and
// of the Admin service, and the standard headers around them. A file still
// includes what it uses; this only saves parsing them again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pogi/v1/admin.pb.h"
#include "pogi/v1/dynamodb.pb.h"
