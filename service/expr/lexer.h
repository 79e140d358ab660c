// Tokenizer of DynamoDB expressions. Linear in the input; never fails: a
// character that starts no token becomes a one-character kInvalid token (a
// whole UTF-8 sequence), which the parser then reports as DynamoDB's
// "Syntax error; token: ..." at that position.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace pogi::expr {

enum class TokenKind {
  kIdentifier,  // [A-Za-z_][A-Za-z0-9_]*  (also keywords and function names)
  kNameRef,     // #[A-Za-z0-9_]+
  kValueRef,    // :[A-Za-z0-9_]+
  kNumber,      // [0-9]+  (only valid as a list index)
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kDot,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kInvalid,  // anything else, including a lone '#' or ':'
  kEof,
};

struct Token {
  TokenKind kind;
  std::string_view text;  // a view into the expression text; "<EOF>" at the end
  size_t begin;           // byte offset of the token in the expression
  size_t end;             // one past its last byte
};

// Splits `text` into tokens, always ending with one kEof token. Whitespace
// (space, tab, CR, LF) separates tokens and is otherwise ignored.
std::vector<Token> Tokenize(std::string_view text);

}  // namespace pogi::expr
