// Tokenizer of DynamoDB expressions.
#include "service/expr/lexer.h"

namespace pogi::expr {
namespace {

// Names and functions start with a letter: DynamoDB answers "_abc" with a
// syntax error on its "_" (as DynamoDB Local 3.3.1 does, whose parser is
// DynamoDB's); "_" may follow the first letter.
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentPart(char c) { return IsIdentStart(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Length of the UTF-8 sequence starting with byte `c` (1 for invalid bytes).
size_t Utf8Length(unsigned char c) {
  if (c >= 0xF0 && c <= 0xF7) return 4;
  if (c >= 0xE0) return c <= 0xEF ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  const size_t n = text.size();
  auto push = [&](TokenKind kind, size_t begin, size_t end) {
    out.push_back({kind, text.substr(begin, end - begin), begin, end});
  };
  while (i < n) {
    const char c = text[i];
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    const size_t start = i;
    if (IsIdentStart(c)) {
      while (i < n && IsIdentPart(text[i])) ++i;
      push(TokenKind::kIdentifier, start, i);
    } else if (IsDigit(c)) {
      while (i < n && IsDigit(text[i])) ++i;
      push(TokenKind::kNumber, start, i);
    } else if (c == '#' || c == ':') {
      ++i;
      while (i < n && IsIdentPart(text[i])) ++i;
      if (i == start + 1) {
        push(TokenKind::kInvalid, start, i);
      } else {
        push(c == '#' ? TokenKind::kNameRef : TokenKind::kValueRef, start, i);
      }
    } else {
      TokenKind kind = TokenKind::kInvalid;
      size_t len = 1;
      const char next = i + 1 < n ? text[i + 1] : '\0';
      switch (c) {
        case '(':
          kind = TokenKind::kLParen;
          break;
        case ')':
          kind = TokenKind::kRParen;
          break;
        case '[':
          kind = TokenKind::kLBracket;
          break;
        case ']':
          kind = TokenKind::kRBracket;
          break;
        case ',':
          kind = TokenKind::kComma;
          break;
        case '.':
          kind = TokenKind::kDot;
          break;
        case '=':
          kind = TokenKind::kEq;
          break;
        case '+':
          kind = TokenKind::kPlus;
          break;
        case '-':
          kind = TokenKind::kMinus;
          break;
        case '<':
          if (next == '>') {
            kind = TokenKind::kNe, len = 2;
          } else if (next == '=') {
            kind = TokenKind::kLe, len = 2;
          } else {
            kind = TokenKind::kLt;
          }
          break;
        case '>':
          if (next == '=') {
            kind = TokenKind::kGe, len = 2;
          } else {
            kind = TokenKind::kGt;
          }
          break;
        default:
          len = Utf8Length(static_cast<unsigned char>(c));
          if (start + len > n) len = n - start;
          break;
      }
      i = start + len;
      push(kind, start, i);
    }
  }
  out.push_back({TokenKind::kEof, "<EOF>", n, n});
  return out;
}

}  // namespace pogi::expr
