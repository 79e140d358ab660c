// Tests for the marks of list and map members sent empty: set and read on a
// message, several on one, and a field number no pogi.v1 message declares.
#include "service/validate/member_presence.h"

#include <gtest/gtest.h>

#include "pogi/v1/dynamodb.pb.h"
#include "pogi/v1/streams.pb.h"
#include "service/expr/legacy.h"

namespace pogi::service {
namespace {

using R = v1::CreateTableRequest;

TEST(MemberPresenceTest, MarkAndRead) {
  R req;
  EXPECT_FALSE(SentEmpty(req, R::kKeySchemaFieldNumber));
  EXPECT_FALSE(Sent(req, R::kKeySchemaFieldNumber, 0));
  MarkSentEmpty(&req, R::kKeySchemaFieldNumber);
  MarkSentEmpty(&req, R::kGlobalSecondaryIndexesFieldNumber);
  EXPECT_TRUE(SentEmpty(req, R::kKeySchemaFieldNumber));
  EXPECT_TRUE(SentEmpty(req, R::kGlobalSecondaryIndexesFieldNumber));
  EXPECT_FALSE(SentEmpty(req, R::kLocalSecondaryIndexesFieldNumber));
  EXPECT_TRUE(Sent(req, R::kKeySchemaFieldNumber, 0));
  // Elements are presence enough.
  EXPECT_TRUE(Sent(req, R::kAttributeDefinitionsFieldNumber, 1));
  // Copies keep the marks (a request passed by value is still the one sent).
  R copy = req;
  EXPECT_TRUE(SentEmpty(copy, R::kKeySchemaFieldNumber));
  req.Clear();
  EXPECT_FALSE(SentEmpty(req, R::kKeySchemaFieldNumber));
}

// The marks travel as unknown fields: no message may declare their numbers.
TEST(MemberPresenceTest, FieldNumberIsFree) {
  for (const auto* file :
       {v1::CreateTableRequest::descriptor()->file(), v1::GetRecordsRequest::descriptor()->file()}) {
    for (int i = 0; i < file->message_type_count(); ++i) {
      const auto* m = file->message_type(i);
      for (int number : {kSentEmptyField, expr::kSentNullField}) {
        EXPECT_EQ(m->FindFieldByNumber(number), nullptr) << m->full_name();
        for (int j = 0; j < m->nested_type_count(); ++j) {
          EXPECT_EQ(m->nested_type(j)->FindFieldByNumber(number), nullptr) << m->nested_type(j)->full_name();
        }
      }
    }
  }
}

}  // namespace
}  // namespace pogi::service
