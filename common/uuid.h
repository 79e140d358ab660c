// Random (version 4) UUIDs, in their 8-4-4-4-12 lower-case hex form: what
// DynamoDB shows as a TableId.
#pragma once

#include <string>

namespace pogi {

// A new random UUID, from a per-thread generator seeded by the system.
std::string RandomUuid();

}  // namespace pogi
