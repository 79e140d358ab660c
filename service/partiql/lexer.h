// Tokenizer of DynamoDB's PartiQL statements: identifiers (plain or
// double-quoted), single-quoted strings, numbers, punctuation, and the two
// comment forms; a character or literal it cannot read is DynamoDB's
// "Statement wasn't well formed, can't be processed: " with nothing after it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace pogi::partiql {

enum class TokenKind {
  kIdentifier,  // [A-Za-z_][A-Za-z0-9_$]*: keywords too, told apart by the parser
  kQuoted,      // "..." (a table or attribute name, exactly as written)
  kString,      // '...'
  kNumber,      // 12, 1.5, .5e3 (unsigned: a sign is an operator)
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kLBag,  // <<
  kRBag,  // >>
  kComma,
  kDot,
  kColon,
  kSemicolon,
  kQuestion,
  kStar,
  kEq,
  kNe,  // <> or !=
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kEof,
};

struct Token {
  TokenKind kind;
  std::string text;  // the name or string with quotes removed; the number's text
  size_t begin = 0;  // byte offset in the statement
  size_t end = 0;
};

// "Statement wasn't well formed, can't be processed: " + detail.
Error Malformed(std::string_view detail);

// Splits `statement` into tokens ending with one kEof.
Result<std::vector<Token>> Tokenize(std::string_view statement);

// DynamoDB's position of a token in messages: "<line>:<column>:<length>",
// counted in characters from 1.
std::string Position(std::string_view statement, size_t begin, size_t end);

}  // namespace pogi::partiql
