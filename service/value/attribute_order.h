// The order of an item's attributes, of a map's entries and of a set's
// members, as DynamoDB Local gives them. AWS promises no order, but test
// suites written against DynamoDB Local compare Object.keys(item) and set
// members as arrays, and an answer whose order changes between two reads of
// one item makes tests flaky. So pogi makes one order, once, where an item
// is stored (item.h EncodeItem), and every answer keeps it.
//
// DynamoDB Local holds a map as a java.util.HashMap: its entries come out
// by bucket, (h ^ h >>> 16) & (capacity - 1) with h Java's String.hashCode
// of the name, and within a bucket in the order they were put. Measured
// against DynamoDB Local 3.3.1 (tests/e2e/test_dynamodb_local_order.py):
//  - a map written whole (PutItem, BatchWriteItem, TransactWriteItems Put, a
//    map value in a request) is put in the order the request wrote it, into
//    a HashMap sized for its entries (SizedCapacity);
//  - a map an update changes (the item itself, and every map on the way to
//    a path the update writes or removes, even when nothing changes) is
//    rebuilt: put in name order (Java's String order) into a default
//    HashMap that grows (GrownCapacity), then copied into one sized for it;
//    maps the update does not reach keep their order;
//  - a projection builds its maps as an update rebuilds them;
//  - UpdateItem's ALL_NEW and ALL_OLD put the top-level map into a default
//    HashMap and copy that (CopiedCapacity) before it is answered; its
//    UPDATED_NEW and UPDATED_OLD are rebuilt, as projections are;
//  - not followed: a bucket of more than eight entries, which Java turns
//    into a tree (or, below 64 buckets, grows the table for): it takes nine
//    names of one bucket, in practice names built to share a hash code.
// Set members have orders of their own: value/set_order.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pogi::value {

// Java's String.hashCode of the UTF-16 form of `utf8`: 31*h + c over its
// code units (a byte that does not decode counts as one unit of its value).
uint32_t JavaStringHash(std::string_view utf8);
// The same, spread as HashMap spreads it (h ^ h >>> 16).
uint32_t JavaMapHash(std::string_view utf8);

// The table size of a java.util.HashMap holding `n` entries, by how it was
// made: new HashMap<>(n) then n puts; new HashMap<>() then n puts; new
// HashMap<>(a map of n).
size_t SizedCapacity(size_t n);
size_t GrownCapacity(size_t n);
size_t CopiedCapacity(size_t n);

// True when `a` comes before `b` in Java's String order (by UTF-16 code
// unit), which differs from UTF-8 byte order only where characters above
// U+FFFF meet characters from U+E000 to U+FFFF.
bool Utf16Less(std::string_view a, std::string_view b);

// One entry of a map being ordered.
struct OrderedName {
  std::string_view name;
  uint32_t hash = 0;  // JavaMapHash(name)
  uint32_t rank = 0;  // position in the order the entries were put (ties within a bucket)
  size_t index = 0;   // the caller's own: which entry this is
};

// Sorts `names` (hash set) into the iteration order of a HashMap of
// `capacity` whose entries were put in `rank` order.
void SortAsHashMap(std::vector<OrderedName>& names, size_t capacity);

// True when two of `names` (hash set) share a bucket of a HashMap of
// `capacity`: only then does the order they were put in matter.
bool BucketsCollide(const std::vector<OrderedName>& names, size_t capacity);

// Sets each name's rank to the order a rebuilt map puts them in (names in
// Java order into a growing HashMap), and sorts `names` into the rebuilt
// map's order (a HashMap sized for them).
void OrderAsRebuilt(std::vector<OrderedName>& names);

}  // namespace pogi::value
