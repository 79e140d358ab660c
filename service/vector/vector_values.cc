// Vector index entries of items: the vector as floats, the partition, the
// filter values, and DynamoDB's refusals of a bad vector attribute.
#include "service/vector/vector_values.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "service/value/decimal.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

// The texts below are DynamoDB's, as its answers to such writes read
// (punctuation included: "invalid." with a full stop, no full stop before
// "IndexName" on the list and size forms).
Error NotAList(const VectorIndex& index) {
  return Error::Validation("One or more parameter values were invalid. Invalid type for parameter " +
                           index.attribute +
                           ", Expected: 32-bit floating point number list IndexName: " + index.name);
}

Error WrongSize(const VectorIndex& index, size_t actual) {
  return Error::Validation("One or more parameter values were invalid. Invalid size for parameter " +
                           index.attribute + ", Expected: " + std::to_string(index.dimensions) +
                           ", Actual: " + std::to_string(actual) + " IndexName: " + index.name);
}

Error NotANumber(const VectorIndex& index, size_t position, const V& v) {
  return Error::Validation("One or more parameter values were invalid. Invalid type for parameter " +
                           index.attribute + "[" + std::to_string(position) +
                           "], Expected: 32-bit floating point number, Actual: " +
                           std::string(value::TypeName(v)) + ". IndexName: " + index.name);
}

Error OutOfRange(const VectorIndex& index, size_t position, const std::string& number) {
  return Error::Validation("One or more parameter values were invalid. Invalid value for parameter " +
                           index.attribute + "[" + std::to_string(position) + "], Value: " + number +
                           " is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: " + index.name);
}

Error TypeMismatch(const VectorIndex& index, const KeyAttribute& attr, const V& v) {
  return Error::Validation("One or more parameter values were invalid. Attribute '" + attr.name +
                           "' type mismatch. Expected: " + attr.type +
                           ", Actual: " + std::string(value::TypeName(v)) + ". IndexName: " + index.name);
}

bool IsEmptyKeyValue(const V& v) {
  return (v.value_case() == V::kS && v.s().empty()) || (v.value_case() == V::kB && v.b().empty());
}

// A search schema attribute's value must have its defined type (and a HASH
// value, like any key, must not be empty).
Status CheckSchemaValue(const VectorIndex& index, const KeyAttribute& attr, const V& v, bool hash) {
  if (value::TypeName(v) != attr.type) return TypeMismatch(index, attr, v);
  if (hash && IsEmptyKeyValue(v)) {
    // The secondary index keys' words, which DynamoDB gives here too.
    return Error::Validation(
        "One or more parameter values are not valid. A value specified for a secondary index key is not "
        "supported. The AttributeValue for a key attribute cannot contain an empty " +
        std::string(v.value_case() == V::kS ? "string" : "binary") + " value. IndexName: " + index.name +
        ", IndexKey: " + attr.name);
  }
  return Status::Ok();
}

// DynamoDB's size of an attribute as the index holds it: its name and value.
int64_t AttributeShare(const std::string& name, const V& v) {
  return static_cast<int64_t>(name.size()) + value::ValueSize(v);
}

}  // namespace

std::optional<float> NumberToFloat(std::string_view number) {
  const char* begin = number.data();
  const char* end = begin + number.size();
  if (begin != end && *begin == '+') ++begin;  // from_chars takes no '+'
  float f = 0;
  auto [ptr, ec] = std::from_chars(begin, end, f);
  if (ec == std::errc::result_out_of_range) {
    // Too large, or too small to be anything but zero: which of the two is
    // in the text (a valid number), by its exponent.
    auto d = value::Decimal::Parse(number);
    if (!d.ok()) return std::nullopt;
    std::string text = d->ToString();
    bool small = text.starts_with("0.") || text.starts_with("-0.");
    if (!small) return std::nullopt;
    return d->IsNegative() ? -0.0f : 0.0f;
  }
  if (ec != std::errc() || ptr != end || !std::isfinite(f)) return std::nullopt;
  return f;
}

std::string FloatToNumber(float f) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f);
  std::string_view text(buf, res.ptr - buf);
  auto d = value::Decimal::Parse(text);
  return d.ok() ? d->ToString() : std::string(text);
}

v1::AttributeValue VectorValue(std::span<const float> vector) {
  v1::AttributeValue v;
  auto* list = v.mutable_l();
  list->mutable_values()->Reserve(static_cast<int>(vector.size()));
  for (float f : vector) list->add_values()->set_n(FloatToNumber(f));
  return v;
}

void CopyFloats(std::string_view vector, float* out) { std::memcpy(out, vector.data(), vector.size()); }

void AppendFilterValue(const v1::AttributeValue* v, std::string* out) {
  if (!v) {
    out->push_back('\0');
    return;
  }
  std::string encoded = value::EncodeKeyValue(*v);
  out->push_back('\1');
  uint32_t n = static_cast<uint32_t>(encoded.size());
  out->append(reinterpret_cast<const char*>(&n), sizeof n);
  out->append(encoded);
}

bool SplitFilterValues(std::string_view filters, size_t count,
                       std::vector<std::optional<std::string_view>>* out) {
  out->clear();
  for (size_t i = 0; i < count; ++i) {
    if (filters.empty()) return false;
    char present = filters[0];
    filters.remove_prefix(1);
    if (present == '\0') {
      out->push_back(std::nullopt);
      continue;
    }
    uint32_t n = 0;
    if (filters.size() < sizeof n) return false;
    std::memcpy(&n, filters.data(), sizeof n);
    filters.remove_prefix(sizeof n);
    if (filters.size() < n) return false;
    out->push_back(filters.substr(0, n));
    filters.remove_prefix(n);
  }
  return filters.empty();
}

Result<std::optional<VectorEntryData>> VectorEntryOf(const Table& table, const VectorIndex& index,
                                                     const value::AttributeMap& item) {
  // The vector attribute first, then the search schema's attributes in
  // order (which of several bad attributes DynamoDB names first is not on
  // record).
  auto vec = item.find(index.attribute);
  const V* hash = nullptr;
  if (index.hash) {
    auto it = item.find(index.hash->name);
    if (it != item.end()) hash = &it->second;
  }
  VectorEntryData entry;
  if (vec != item.end()) {
    const V& v = vec->second;
    if (v.value_case() != V::kL) return NotAList(index);
    const auto& values = v.l().values();
    // DynamoDB's order: the type of the attribute, its length, then each
    // element's type and range.
    if (values.size() != index.dimensions) return WrongSize(index, values.size());
    entry.vector.resize(values.size() * sizeof(float));
    float* out = reinterpret_cast<float*>(entry.vector.data());
    for (int i = 0; i < values.size(); ++i) {
      const V& e = values[i];
      if (e.value_case() != V::kN) return NotANumber(index, i, e);
      auto f = NumberToFloat(e.n());
      if (!f) return OutOfRange(index, i, e.n());
      out[i] = *f;
    }
  }
  if (hash) POGI_RETURN_IF_ERROR(CheckSchemaValue(index, *index.hash, *hash, true));
  std::vector<const V*> filter_values;
  filter_values.reserve(index.filters.size());
  for (const KeyAttribute& f : index.filters) {
    auto it = item.find(f.name);
    const V* fv = it == item.end() ? nullptr : &it->second;
    if (fv) POGI_RETURN_IF_ERROR(CheckSchemaValue(index, f, *fv, false));
    filter_values.push_back(fv);
  }
  // Sparse: an item without the vector, or without the HASH value of an
  // index that has one, is in no partition of it.
  if (vec == item.end() || (index.hash && !hash)) return std::optional<VectorEntryData>();
  if (hash) entry.partition = value::EncodeKeyValue(*hash);
  for (const V* fv : filter_values) AppendFilterValue(fv, &entry.filters);
  // The entry's size: the vector at 4 bytes a dimension and its name, the
  // item's table key, and the search schema's attributes.
  entry.size = 4 * static_cast<int64_t>(index.dimensions) + static_cast<int64_t>(index.attribute.size());
  for (const KeyAttribute* key : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!key) continue;
    auto it = item.find(key->name);
    if (it != item.end()) entry.size += AttributeShare(key->name, it->second);
  }
  if (hash) entry.size += AttributeShare(index.hash->name, *hash);
  for (size_t i = 0; i < index.filters.size(); ++i) {
    if (filter_values[i]) entry.size += AttributeShare(index.filters[i].name, *filter_values[i]);
  }
  return std::optional<VectorEntryData>(std::move(entry));
}

}  // namespace pogi::service
