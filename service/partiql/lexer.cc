// The PartiQL tokenizer.
#include "service/partiql/lexer.h"

#include <algorithm>
#include <cstdint>

namespace pogi::partiql {
namespace {

bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentPart(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '$'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Characters (UTF-8 sequences) in s.
size_t CharCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

Error Malformed(std::string_view detail) {
  return Error::Validation("Statement wasn't well formed, can't be processed: " + std::string(detail));
}

std::string Position(std::string_view statement, size_t begin, size_t end) {
  begin = std::min(begin, statement.size());
  end = std::min(std::max(begin, end), statement.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < begin && i < statement.size(); ++i) {
    if (statement[i] == '\n') ++line, line_start = i + 1;
  }
  size_t column = CharCount(statement.substr(line_start, begin - line_start)) + 1;
  size_t length = CharCount(statement.substr(begin, end - begin));
  return std::to_string(line) + ":" + std::to_string(column) + ":" + std::to_string(length);
}

Result<std::vector<Token>> Tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  const size_t n = s.size();
  auto add = [&](TokenKind k, size_t begin, size_t end, std::string text = "") {
    out.push_back(Token{k, std::move(text), begin, end});
  };
  while (i < n) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < n && s[i + 1] == '-') {  // line comment
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {  // block comment
      size_t close = s.find("*/", i + 2);
      if (close == std::string_view::npos) return Malformed("");
      i = close + 2;
      continue;
    }
    size_t begin = i;
    if (IsIdentStart(c)) {
      while (i < n && IsIdentPart(s[i])) ++i;
      add(TokenKind::kIdentifier, begin, i, std::string(s.substr(begin, i - begin)));
      continue;
    }
    if (c == '"' || c == '\'') {
      // A doubled quote stands for itself inside the literal.
      std::string text;
      ++i;
      bool closed = false;
      while (i < n) {
        if (s[i] == c) {
          if (i + 1 < n && s[i + 1] == c) {
            text.push_back(c);
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        text.push_back(s[i++]);
      }
      if (!closed) return Malformed("");
      add(c == '"' ? TokenKind::kQuoted : TokenKind::kString, begin, i, std::move(text));
      continue;
    }
    if (IsDigit(c) || (c == '.' && i + 1 < n && IsDigit(s[i + 1]))) {
      int64_t fraction_digits = 0;
      while (i < n && IsDigit(s[i])) ++i;
      if (i < n && s[i] == '.') {
        ++i;
        while (i < n && IsDigit(s[i])) ++i, ++fraction_digits;
      }
      if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        bool negative = false;
        if (j < n && (s[j] == '+' || s[j] == '-')) negative = s[j++] == '-';
        if (j < n && IsDigit(s[j])) {
          // The literal is read as a Java BigDecimal: its exponent, and the
          // scale it leaves (fraction digits less the exponent), must each
          // fit a 32-bit integer, or the literal cannot be converted at all.
          int64_t exponent = 0;
          while (j < n && IsDigit(s[j])) {
            if (exponent <= INT32_MAX) exponent = exponent * 10 + (s[j] - '0');
            ++j;
          }
          if (negative) exponent = -exponent;
          int64_t scale = fraction_digits - exponent;
          if (exponent > INT32_MAX || exponent < INT32_MIN || scale > INT32_MAX || scale < INT32_MIN) {
            return Malformed("");
          }
          i = j;
        }
      }
      add(TokenKind::kNumber, begin, i, std::string(s.substr(begin, i - begin)));
      continue;
    }
    auto two = [&](char a, char b) { return c == a && i + 1 < n && s[i + 1] == b; };
    TokenKind kind;
    size_t len = 1;
    if (two('<', '<')) {
      kind = TokenKind::kLBag, len = 2;
    } else if (two('>', '>')) {
      kind = TokenKind::kRBag, len = 2;
    } else if (two('<', '>') || two('!', '=')) {
      kind = TokenKind::kNe, len = 2;
    } else if (two('<', '=')) {
      kind = TokenKind::kLe, len = 2;
    } else if (two('>', '=')) {
      kind = TokenKind::kGe, len = 2;
    } else {
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
        case '{':
          kind = TokenKind::kLBrace;
          break;
        case '}':
          kind = TokenKind::kRBrace;
          break;
        case ',':
          kind = TokenKind::kComma;
          break;
        case '.':
          kind = TokenKind::kDot;
          break;
        case ':':
          kind = TokenKind::kColon;
          break;
        case ';':
          kind = TokenKind::kSemicolon;
          break;
        case '?':
          kind = TokenKind::kQuestion;
          break;
        case '*':
          kind = TokenKind::kStar;
          break;
        case '=':
          kind = TokenKind::kEq;
          break;
        case '<':
          kind = TokenKind::kLt;
          break;
        case '>':
          kind = TokenKind::kGt;
          break;
        case '+':
          kind = TokenKind::kPlus;
          break;
        case '-':
          kind = TokenKind::kMinus;
          break;
        default:
          return Malformed("");  // '#', '@', a stray '!', ... : PartiQL's lexer reads none of them
      }
    }
    i += len;
    add(kind, begin, i, std::string(s.substr(begin, len)));
  }
  add(TokenKind::kEof, n, n);
  return out;
}

}  // namespace pogi::partiql
