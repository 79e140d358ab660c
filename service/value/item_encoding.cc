// The ordered item writer: pogi.v1.Item, MapValue, ListValue and the set
// messages written field by field (numbers as in proto/pogi/v1/dynamodb.proto),
// maps and sets in attribute_order.h's order.
#include "service/value/item_encoding.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/entry_order.h"
#include "common/wire_reader.h"
#include "service/value/attribute_order.h"

namespace pogi::value {
namespace {

using google::protobuf::io::CodedOutputStream;

// AttributeValue's fields, and the one field of MapValue, ListValue, the
// set messages and Item; a map entry's key and value.
constexpr uint32_t kSetField = 4, kNumberSetField = 5, kBinarySetField = 6, kMapField = 7, kListField = 8;
constexpr uint32_t kOnlyField = 1;
constexpr uint32_t kEntryKey = 1, kEntryValue = 2;

void PutVarint(uint64_t v, std::string* out) {
  uint8_t buf[10];
  uint8_t* end = CodedOutputStream::WriteVarint64ToArray(v, buf);
  out->append(reinterpret_cast<const char*>(buf), end - buf);
}

void PutField(uint32_t field, std::string_view bytes, std::string* out) {
  PutVarint(field << 3 | wire::kLengthDelimited, out);
  PutVarint(bytes.size(), out);
  out->append(bytes);
}

// The entries of a serialized map (field 1 of Item or MapValue): names and
// their serialized AttributeValues, in order.
struct KeptEntry {
  std::string_view name, value;
};
std::optional<std::vector<KeptEntry>> ReadEntries(std::string_view map_proto) {
  std::vector<KeptEntry> entries;
  bool ok = wire::ForEachField(map_proto, kOnlyField, [&](std::string_view entry) {
    KeptEntry e;
    wire::Reader r(entry);
    while (!r.done()) {
      uint32_t f, t;
      if (!r.Tag(&f, &t)) return false;
      std::string_view* into = f == kEntryKey ? &e.name : f == kEntryValue ? &e.value : nullptr;
      if (t == wire::kLengthDelimited && into) {
        if (!r.LengthDelimited(into)) return false;
      } else if (!r.Skip(t)) {
        return false;
      }
    }
    entries.push_back(e);
    return true;
  });
  if (!ok) return std::nullopt;
  return entries;
}

// The payload of field `field` of a serialized AttributeValue (its M or L),
// if it has one.
std::optional<std::string_view> ValueField(std::string_view value_proto, uint32_t field) {
  std::optional<std::string_view> found;
  wire::Reader r(value_proto);
  while (!r.done()) {
    uint32_t f, t;
    std::string_view payload;
    if (!r.Tag(&f, &t)) return std::nullopt;
    if (t != wire::kLengthDelimited) {
      if (!r.Skip(t)) return std::nullopt;
      continue;
    }
    if (!r.LengthDelimited(&payload)) return std::nullopt;
    found = f == field ? std::optional<std::string_view>(payload) : std::nullopt;
  }
  return found;
}

// How the map at one place of the item takes its order.
struct Place {
  std::optional<std::string_view> kept;  // the kept item's map or list here
  const PathTree* node = nullptr;        // the paths' node for this place
  bool rebuilt = false;                  // on the way to a path: rebuilt
  bool written = false;                  // inside a value an update wrote
};

// The place of the value under `node` (null: no path goes there).
void Enter(const PathTree* node, Place* child) {
  if (!node) return;
  child->node = node;
  child->rebuilt = node->end == PathTree::End::kNone;
  child->written = child->written || node->end == PathTree::End::kWritten;
}

class Writer {
 public:
  void Map(const google::protobuf::Map<std::string, v1::AttributeValue>& map, const Place& place,
           std::string* out);

 private:
  void Value(const v1::AttributeValue& v, const Place& place, std::string* out);
  void Sets(const v1::AttributeValue& v, std::string* out);
  void List(const v1::ListValue& list, const Place& place, std::string* out);
  // Ranks `names` by the order their entries were put in; false when that
  // order is not known here.
  bool RankFromKept(const Place& place, std::vector<OrderedName>& names, std::vector<KeptEntry>* kept);
  bool RankFromRequest(std::vector<OrderedName>& names, const std::vector<const std::string*>& keys);
};

bool Writer::RankFromKept(const Place& place, std::vector<OrderedName>& names, std::vector<KeptEntry>* kept) {
  if (!place.kept) return false;
  auto entries = ReadEntries(*place.kept);
  if (!entries || entries->size() != names.size()) return false;
  std::unordered_map<std::string_view, uint32_t> position;
  for (size_t i = 0; i < entries->size(); ++i) position.emplace((*entries)[i].name, static_cast<uint32_t>(i));
  for (OrderedName& n : names) {
    auto it = position.find(n.name);
    if (it == position.end()) return false;
    n.rank = it->second;
  }
  *kept = std::move(*entries);
  return true;
}

bool Writer::RankFromRequest(std::vector<OrderedName>& names, const std::vector<const std::string*>& keys) {
  const EntryOrder* order = CurrentEntryOrder();
  if (!order) return false;
  std::vector<const std::string*> sorted = keys;
  if (!order->Sort(sorted)) return false;
  std::unordered_map<const std::string*, uint32_t> position;
  for (size_t i = 0; i < sorted.size(); ++i) position.emplace(sorted[i], static_cast<uint32_t>(i));
  for (OrderedName& n : names) n.rank = position.at(keys[n.index]);
  return true;
}

void Writer::Map(const google::protobuf::Map<std::string, v1::AttributeValue>& map, const Place& place,
                 std::string* out) {
  std::vector<const std::string*> keys;
  std::vector<const v1::AttributeValue*> values;
  std::vector<OrderedName> names;
  keys.reserve(map.size());
  values.reserve(map.size());
  names.reserve(map.size());
  for (const auto& [name, value] : map) {
    names.push_back({name, JavaMapHash(name), 0, keys.size()});
    keys.push_back(&name);
    values.push_back(&value);
  }
  std::vector<KeptEntry> kept_entries;
  bool kept_ranks = false;
  size_t capacity = SizedCapacity(names.size());
  if (place.rebuilt) {
    OrderAsRebuilt(names);
  } else if (!BucketsCollide(names, capacity)) {
    SortAsHashMap(names, capacity);  // the order entries were put in cannot matter
  } else {
    // Inside a value an update wrote, the request made it; elsewhere it is
    // the map as it was.
    bool ranked = place.written ? RankFromRequest(names, keys) || RankFromKept(place, names, &kept_entries)
                                : RankFromKept(place, names, &kept_entries) || RankFromRequest(names, keys);
    kept_ranks = ranked && !kept_entries.empty();
    if (ranked) {
      SortAsHashMap(names, capacity);
    } else {
      OrderAsRebuilt(names);
    }
  }
  // The kept map's values, for the places below this one.
  if (place.kept && !kept_ranks) {
    if (auto entries = ReadEntries(*place.kept)) kept_entries = std::move(*entries);
  }
  std::unordered_map<std::string_view, std::string_view> kept_values;
  for (const KeptEntry& e : kept_entries) kept_values.emplace(e.name, e.value);

  std::string entry, value;
  for (const OrderedName& n : names) {
    const v1::AttributeValue& v = *values[n.index];
    Place child;
    child.written = place.written;
    if (auto it = kept_values.find(n.name); it != kept_values.end()) child.kept = it->second;
    if (place.node) {
      if (auto it = place.node->names.find(n.name); it != place.node->names.end()) Enter(&it->second, &child);
    }
    entry.clear();
    value.clear();
    PutField(kEntryKey, n.name, &entry);
    Value(v, child, &value);
    PutField(kEntryValue, value, &entry);
    PutField(kOnlyField, entry, out);
  }
}

void Writer::Value(const v1::AttributeValue& v, const Place& place, std::string* out) {
  using V = v1::AttributeValue;
  switch (v.value_case()) {
    case V::kSs:
    case V::kNs:
    case V::kBs:
      return Sets(v, out);
    case V::kM: {
      Place here = place;
      if (place.kept) here.kept = ValueField(*place.kept, kMapField);
      std::string map;
      Map(v.m().fields(), here, &map);
      return PutField(kMapField, map, out);
    }
    case V::kL: {
      Place here = place;
      if (place.kept) here.kept = ValueField(*place.kept, kListField);
      std::string list;
      List(v.l(), here, &list);
      return PutField(kListField, list, out);
    }
    default:
      v.AppendToString(out);  // a scalar: as protobuf writes it
  }
}

void Writer::List(const v1::ListValue& list, const Place& place, std::string* out) {
  std::vector<std::string_view> kept_elements;
  if (place.kept) {
    wire::ForEachField(*place.kept, kOnlyField, [&](std::string_view e) {
      kept_elements.push_back(e);
      return true;
    });
  }
  std::string element;
  for (int i = 0; i < list.values_size(); ++i) {
    Place child;
    child.written = place.written;
    if (static_cast<size_t>(i) < kept_elements.size()) child.kept = kept_elements[i];
    if (place.node) {
      auto it = place.node->indexes.find(static_cast<uint32_t>(i));
      if (it != place.node->indexes.end()) Enter(&it->second, &child);
    }
    element.clear();
    Value(list.values(i), child, &element);
    PutField(kOnlyField, element, out);
  }
}

// A set's members in the order they have (value/set_order.h decides it
// where a set is written or changed).
void Writer::Sets(const v1::AttributeValue& v, std::string* out) {
  using V = v1::AttributeValue;
  const auto& members = v.value_case() == V::kSs   ? v.ss().values()
                        : v.value_case() == V::kNs ? v.ns().values()
                                                   : v.bs().values();
  std::string set;
  for (const std::string& m : members) PutField(kOnlyField, m, &set);
  uint32_t field = v.value_case() == V::kSs   ? kSetField
                   : v.value_case() == V::kNs ? kNumberSetField
                                              : kBinarySetField;
  PutField(field, set, out);
}

}  // namespace

void AppendOrderedItem(const google::protobuf::Map<std::string, v1::AttributeValue>& item,
                       const EntryOrigin& origin, std::string* out) {
  Place top;
  if (!origin.kept.empty()) top.kept = origin.kept;
  top.node = origin.paths;
  top.rebuilt = origin.paths != nullptr;
  Writer().Map(item, top, out);
}

std::string InUpdateAnswerOrder(std::string_view proto) {
  auto entries = ReadEntries(proto);
  if (!entries) return std::string(proto);
  std::vector<OrderedName> names;
  names.reserve(entries->size());
  for (size_t i = 0; i < entries->size(); ++i) {
    names.push_back({(*entries)[i].name, JavaMapHash((*entries)[i].name), static_cast<uint32_t>(i), i});
  }
  // Put into a default HashMap, copied into HashMap(map), and answered
  // through one sized for it.
  for (size_t capacity : {GrownCapacity(names.size()), CopiedCapacity(names.size())}) {
    SortAsHashMap(names, capacity);
    for (size_t i = 0; i < names.size(); ++i) names[i].rank = static_cast<uint32_t>(i);
  }
  SortAsHashMap(names, SizedCapacity(names.size()));
  std::string out, entry;
  for (const OrderedName& n : names) {
    entry.clear();
    PutField(kEntryKey, (*entries)[n.index].name, &entry);
    PutField(kEntryValue, (*entries)[n.index].value, &entry);
    PutField(kOnlyField, entry, &out);
  }
  return out;
}

}  // namespace pogi::value
