// Marks of list and map members sent empty, kept in a message's unknown fields.
#include "service/validate/member_presence.h"

#include <google/protobuf/unknown_field_set.h>

#include <string>

#include "service/expr/legacy.h"

namespace pogi::service {

void MarkSentEmpty(google::protobuf::Message* parent, int field_number) {
  parent->GetReflection()->MutableUnknownFields(parent)->AddVarint(kSentEmptyField,
                                                                   static_cast<uint64_t>(field_number));
}

bool SentEmpty(const google::protobuf::Message& parent, int field_number) {
  const auto& unknown = parent.GetReflection()->GetUnknownFields(parent);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& f = unknown.field(i);
    if (f.number() == kSentEmptyField && f.type() == google::protobuf::UnknownField::TYPE_VARINT &&
        f.varint() == static_cast<uint64_t>(field_number)) {
      return true;
    }
  }
  return false;
}

void MarkConditionSentNull(google::protobuf::Message* condition) {
  condition->GetReflection()->MutableUnknownFields(condition)->AddVarint(expr::kSentNullField, 1);
}

void MarkNameSentNull(google::protobuf::Message* name_map, std::string_view key) {
  name_map->GetReflection()->MutableUnknownFields(name_map)->AddLengthDelimited(expr::kSentNullField,
                                                                                std::string(key));
}

bool NameSentNull(const google::protobuf::Message& name_map, std::string_view key) {
  const auto& unknown = name_map.GetReflection()->GetUnknownFields(name_map);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& f = unknown.field(i);
    if (f.number() == expr::kSentNullField &&
        f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED && f.length_delimited() == key) {
      return true;
    }
  }
  return false;
}

}  // namespace pogi::service
