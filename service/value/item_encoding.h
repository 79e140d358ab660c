// Writes an item's serialized pogi.v1.Item with every map's entries and
// every set's members in DynamoDB Local's order (attribute_order.h). A map
// of entries that share a HashMap bucket needs to know the order they were
// put in; EntryOrigin says where that comes from.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::value {

// The paths a request reached into an item, as a tree: a node for each map
// or list on the way to one of them (those maps are rebuilt, as DynamoDB
// Local rebuilds the maps an update or a projection walks through), and at
// the end of a path what the request did with the value there.
struct PathTree {
  enum class End {
    kNone,     // on the way to a path only
    kWritten,  // an update wrote the value here: its maps come from the request
    kCopied,   // a projection or ReturnValues copied it: its maps keep their order
  };
  End end = End::kNone;
  std::map<std::string, PathTree, std::less<>> names;
  std::map<uint32_t, PathTree> indexes;
};

// Where the maps of an item being written take their order from. With
// nothing set, each map is in the order the request wrote it (the calling
// thread's EntryOrder, common/entry_order.h) when that is known, else
// rebuilt (name order).
struct EntryOrigin {
  // A serialized pogi.v1.Item (an item as stored before an update, the
  // item an index entry or a projection comes from): a map at the same
  // place with the same names keeps its order.
  std::string_view kept;
  // The paths of an update or a projection: the item itself and the maps
  // on their way are rebuilt, even when nothing in them changed.
  const PathTree* paths = nullptr;

  // The maps of `item_proto` keep their order: a copied or restored item,
  // an index entry.
  static EntryOrigin Kept(std::string_view item_proto) {
    EntryOrigin o;
    o.kept = item_proto;
    return o;
  }
  // `old_proto` (empty for a new item) changed by an update of `paths`, or
  // the projection of `paths` (End::kCopied) out of `old_proto`.
  static EntryOrigin Along(std::string_view old_proto, const PathTree* paths) {
    EntryOrigin o = Kept(old_proto);
    o.paths = paths;
    return o;
  }
};

// Appends the serialized pogi.v1.Item of `item`, ordered.
void AppendOrderedItem(const google::protobuf::Map<std::string, v1::AttributeValue>& item,
                       const EntryOrigin& origin, std::string* out);

// How UpdateItem answers ALL_NEW and ALL_OLD: the serialized Item `proto`
// (in stored order) with its top-level entries put into a default HashMap,
// then into one copied from it. Malformed bytes come back as they are.
std::string InUpdateAnswerOrder(std::string_view proto);

}  // namespace pogi::value
