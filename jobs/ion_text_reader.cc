// Ion text (the Ion 1.0 text grammar) into DynamoDB attribute values: white
// space and comments, annotations, structs, lists, s-expressions, strings
// (short and long), quoted and bare symbols, numbers, blobs and clobs,
// typed nulls. See ion_reader.h for what becomes what.
#include <cstdint>
#include <string>

#include "common/base64.h"
#include "common/utf8.h"
#include "jobs/ion_reader.h"

namespace pogi::jobs {
namespace {

enum class R { kOk, kNeedMore, kBad };

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsIdentStart(char c) { return IsLetter(c) || c == '_' || c == '$'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
bool IsNumberChar(char c) {
  return IsDigit(c) || IsLetter(c) || c == '_' || c == '.' || c == '+' || c == '-' || c == ':';
}
bool IsOperatorChar(char c) {
  return std::string_view("!#%&*+-./;<=>?@^`|~").find(c) != std::string_view::npos;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
bool IsHexDigit(char c) { return HexValue(c) >= 0; }
bool IsBinaryDigit(char c) { return c == '0' || c == '1'; }

// Whether the digits of `s` (an Ion number's part) are digits with single
// underscores between them.
bool Digits(std::string_view s, bool (*digit)(char)) {
  if (s.empty() || !digit(s.front()) || !digit(s.back())) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (!digit(s[i - 1]) || !digit(s[i + 1])) return false;
    } else if (!digit(s[i])) {
      return false;
    }
  }
  return true;
}

std::string WithoutUnderscores(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out.push_back(c);
  }
  return out;
}

void SetError(std::string* error, std::string why) {
  if (error->empty()) *error = std::move(why);
}

class TextReader {
 public:
  TextReader(std::string_view s, bool final) : s_(s), final_(final) {}

  size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ >= s_.size(); }
  const std::string& bad() const { return bad_; }

  R SkipSpace() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (IsSpace(c)) {
        ++pos_;
      } else if (c == '/' && pos_ + 1 >= s_.size()) {
        return final_ ? R::kOk : R::kNeedMore;  // a comment, or an operator
      } else if (c == '/' && s_[pos_ + 1] == '/') {
        size_t nl = s_.find('\n', pos_);
        if (nl == std::string_view::npos) {
          if (!final_) return R::kNeedMore;
          pos_ = s_.size();
        } else {
          pos_ = nl + 1;
        }
      } else if (c == '/' && s_[pos_ + 1] == '*') {
        size_t end = s_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) return final_ ? Fail("a comment is not closed") : R::kNeedMore;
        pos_ = end + 2;
      } else {
        break;
      }
    }
    return R::kOk;
  }

  // One value with its annotations (returned in *annotations).
  R Value(int depth, v1::AttributeValue* out, std::vector<std::string>* annotations, std::string* error) {
    if (depth > kMaxIonDepth)
      return Fail("the Ion values are nested deeper than " + std::to_string(kMaxIonDepth));
    annotations->clear();
    for (;;) {
      R r = SkipSpace();
      if (r != R::kOk) return r;
      if (AtEnd()) return EndOfInput();
      char c = s_[pos_];
      if (c == '\'' && pos_ + 3 > s_.size() && !final_) return R::kNeedMore;  // ' or '''?
      bool quoted_symbol = c == '\'' && !LongStringAhead();
      if (!IsIdentStart(c) && !quoted_symbol) break;
      size_t start = pos_;
      std::string text;
      r = Symbol(&text);
      if (r != R::kOk) return r;
      r = SkipSpace();
      if (r != R::kOk) return r;
      if (pos_ + 1 >= s_.size() && !final_) return R::kNeedMore;
      if (pos_ + 1 < s_.size() && s_[pos_] == ':' && s_[pos_ + 1] == ':') {
        pos_ += 2;
        annotations->push_back(std::move(text));
        continue;
      }
      // A symbol (or keyword) as the value itself.
      pos_ = start;
      r = Symbol(&text);
      if (r != R::kOk) return r;
      if (quoted_symbol) {
        SetError(error, "An Ion symbol ('" + text + "') is not a DynamoDB value");
        return R::kOk;
      }
      return Keyword(text, out, error);
    }
    char c = s_[pos_];
    R r;
    if (c == '{') {
      if (pos_ + 1 >= s_.size()) return EndOfInput();
      r = s_[pos_ + 1] == '{' ? Lob(out, error) : Struct(depth, out, error);
    } else if (c == '[') {
      r = List(depth, out, error);
    } else if (c == '(') {
      r = Sexp(depth, error);
    } else if (c == '"' || c == '\'') {
      std::string text;
      r = c == '"' ? ShortString(&text) : LongStrings(&text);
      if (r == R::kOk) out->set_s(std::move(text));
    } else if (IsDigit(c) || c == '-' || c == '+') {
      r = Number(out, error);
    } else {
      return Fail(std::string("an Ion value cannot begin with '") + c + "'");
    }
    if (r == R::kOk) ApplyIonAnnotations(*annotations, out, error);
    return r;
  }

 private:
  R Fail(std::string why) {
    bad_ = std::move(why);
    return R::kBad;
  }
  R EndOfInput() { return final_ ? Fail("the Ion text ends inside a value") : R::kNeedMore; }
  bool LongStringAhead() const { return s_.substr(pos_, 3) == "'''"; }

  // A bare identifier (up to a character that cannot continue it) or a
  // quoted symbol.
  R Symbol(std::string* text) {
    text->clear();
    if (pos_ >= s_.size()) return EndOfInput();  // "null." at the end of the input
    if (s_[pos_] == '\'') {
      ++pos_;
      return Quoted('\'', text);
    }
    size_t start = pos_;
    while (pos_ < s_.size() && IsIdentChar(s_[pos_])) ++pos_;
    if (pos_ == s_.size() && !final_) return R::kNeedMore;
    text->assign(s_.substr(start, pos_ - start));
    return R::kOk;
  }

  // null, null.TYPE, true, false, nan, or a bare symbol.
  R Keyword(const std::string& word, v1::AttributeValue* out, std::string* error) {
    if (word == "true" || word == "false") {
      out->set_bool_value(word == "true");
      return R::kOk;
    }
    if (word == "null") {
      if (pos_ < s_.size() && s_[pos_] == '.') {
        ++pos_;
        std::string type;
        R r = Symbol(&type);
        if (r != R::kOk) return r;
        static constexpr std::string_view kTypes[] = {"null",      "bool",   "int",    "float", "decimal",
                                                      "timestamp", "symbol", "string", "clob",  "blob",
                                                      "list",      "sexp",   "struct"};
        bool known = false;
        for (auto t : kTypes) known = known || t == type;
        if (!known) return Fail("null." + type + " is not an Ion type");
      } else if (pos_ == s_.size() && !final_) {
        return R::kNeedMore;
      }
      out->set_null_value(true);
      return R::kOk;
    }
    if (word == "nan") {
      SetError(error, "An Ion float (nan) is not a DynamoDB number: write a decimal");
      return R::kOk;
    }
    if (word.size() > 1 && word[0] == '$' && Digits(std::string_view(word).substr(1), IsDigit)) {
      SetError(error, "Ion text with symbol ids (" + word + ") is not supported: write the symbols' text");
      return R::kOk;
    }
    SetError(error, "An Ion symbol (" + word + ") is not a DynamoDB value");
    return R::kOk;
  }

  // The rest of a string or quoted symbol up to `quote`, with Ion's escapes.
  R Quoted(char quote, std::string* out) {
    for (;;) {
      if (AtEnd()) return EndOfInput();
      char c = s_[pos_];
      if (c == quote) {
        ++pos_;
        if (!IsValidUtf8(*out)) return Fail("an Ion string is not valid UTF-8");
        return R::kOk;
      }
      if (c == '\n' || c == '\r') return Fail("a new line inside an Ion string (use '''long strings''')");
      if (c == '\\') {
        R r = Escape(out);
        if (r != R::kOk) return r;
        continue;
      }
      out->push_back(c);
      ++pos_;
    }
  }

  R Escape(std::string* out) {
    if (pos_ + 1 >= s_.size()) return EndOfInput();
    char e = s_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case 'a':
        out->push_back('\a');
        return R::kOk;
      case 'b':
        out->push_back('\b');
        return R::kOk;
      case 't':
        out->push_back('\t');
        return R::kOk;
      case 'n':
        out->push_back('\n');
        return R::kOk;
      case 'f':
        out->push_back('\f');
        return R::kOk;
      case 'r':
        out->push_back('\r');
        return R::kOk;
      case 'v':
        out->push_back('\v');
        return R::kOk;
      case '0':
        out->push_back('\0');
        return R::kOk;
      case '?':
      case '\'':
      case '"':
      case '/':
      case '\\':
        out->push_back(e);
        return R::kOk;
      case '\n':
        return R::kOk;  // a line continued
      case '\r':
        if (pos_ < s_.size() && s_[pos_] == '\n') ++pos_;
        return R::kOk;
      case 'x':
      case 'u':
      case 'U': {
        uint32_t cp = 0;
        R r = HexDigits(e == 'x' ? 2 : e == 'u' ? 4 : 8, &cp);
        if (r != R::kOk) return r;
        if (e == 'u' && cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair's first half
          if (pos_ + 6 > s_.size()) return EndOfInput();
          if (s_.substr(pos_, 2) != "\\u") return Fail("a lone surrogate in an Ion string");
          pos_ += 2;
          uint32_t low = 0;
          r = HexDigits(4, &low);
          if (r != R::kOk) return r;
          if (low < 0xDC00 || low > 0xDFFF) return Fail("a lone surrogate in an Ion string");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
          return Fail("an escape in an Ion string is no character");
        AppendUtf8(cp, out);
        return R::kOk;
      }
      default:
        return Fail(std::string("\\") + e + " is not an Ion escape");
    }
  }

  R HexDigits(int n, uint32_t* out) {
    if (pos_ + n > s_.size()) return EndOfInput();
    for (int i = 0; i < n; ++i) {
      int v = HexValue(s_[pos_ + i]);
      if (v < 0) return Fail("a bad hex escape in an Ion string");
      *out = *out * 16 + static_cast<uint32_t>(v);
    }
    pos_ += n;
    return R::kOk;
  }

  R ShortString(std::string* out) {
    ++pos_;
    return Quoted('"', out);
  }

  // '''...''' pieces, joined, with what only separates them.
  R LongStrings(std::string* out) {
    for (;;) {
      pos_ += 3;
      for (;;) {
        if (pos_ + 3 > s_.size()) {
          if (!final_) return R::kNeedMore;
          return Fail("an Ion long string is not closed");
        }
        if (s_.substr(pos_, 3) == "'''") break;
        if (s_[pos_] == '\\') {
          R r = Escape(out);
          if (r != R::kOk) return r;
          continue;
        }
        out->push_back(s_[pos_++]);
      }
      pos_ += 3;
      size_t after = pos_;
      R r = SkipSpace();
      if (r != R::kOk) return r;
      if (pos_ + 3 > s_.size() && !final_) return R::kNeedMore;
      if (!LongStringAhead()) {
        pos_ = after;
        break;
      }
    }
    if (!IsValidUtf8(*out)) return Fail("an Ion string is not valid UTF-8");
    return R::kOk;
  }

  R Number(v1::AttributeValue* out, std::string* error) {
    size_t start = pos_;
    while (pos_ < s_.size() && IsNumberChar(s_[pos_])) ++pos_;
    if (pos_ == s_.size() && !final_) return R::kNeedMore;
    std::string_view t = s_.substr(start, pos_ - start);
    if (t == "+inf" || t == "-inf") {
      SetError(error, "An Ion float (" + std::string(t) + ") is not a DynamoDB number");
      return R::kOk;
    }
    bool negative = t.starts_with("-");
    std::string_view body = negative ? t.substr(1) : t;
    if (body.empty() || !IsDigit(body[0])) return Fail("'" + std::string(t) + "' is not an Ion number");
    if (body.find('T') != std::string_view::npos || body.find(':') != std::string_view::npos ||
        (body.size() > 4 && body[4] == '-' && !negative && Digits(body.substr(0, 4), IsDigit))) {
      SetError(error, "An Ion timestamp (" + std::string(t) + ") is not a DynamoDB value");
      return R::kOk;
    }
    if (body.size() > 2 && body[0] == '0' &&
        (body[1] == 'x' || body[1] == 'X' || body[1] == 'b' || body[1] == 'B')) {
      bool hex = body[1] == 'x' || body[1] == 'X';
      std::string_view digits = body.substr(2);
      if (!Digits(digits, hex ? IsHexDigit : IsBinaryDigit)) {
        return Fail("'" + std::string(t) + "' is not an Ion number");
      }
      std::string d = WithoutUnderscores(digits);
      if (d.size() > 512) return Fail("an Ion integer is too long");
      // The digits as big-endian bytes.
      std::string bytes;
      int bits = hex ? 4 : 1;
      uint32_t acc = 0;
      int have = 0;
      int pad = static_cast<int>((8 - (d.size() * bits) % 8) % 8);
      have = pad;
      for (char c : d) {
        acc = (acc << bits) | static_cast<uint32_t>(hex ? HexValue(c) : c - '0');
        have += bits;
        if (have >= 8) {
          bytes.push_back(static_cast<char>((acc >> (have - 8)) & 0xFF));
          have -= 8;
        }
      }
      out->set_n((negative ? "-" : "") + MagnitudeToDecimal(bytes));
      return R::kOk;
    }
    if (body.find_first_of("eE") != std::string_view::npos) {
      SetError(error, "An Ion float (" + std::string(t) + ") is not a DynamoDB number: write a decimal (" +
                          std::string(t.substr(0, t.find_first_of("eE"))) + "d" +
                          std::string(t.substr(t.find_first_of("eE") + 1)) + ")");
      return R::kOk;
    }
    // int or decimal: digits [. [digits]] [d|D [+|-] digits]
    size_t d_at = body.find_first_of("dD");
    std::string_view mantissa = body.substr(0, d_at);
    std::string_view exponent = d_at == std::string_view::npos ? std::string_view() : body.substr(d_at + 1);
    size_t dot = mantissa.find('.');
    std::string_view whole = mantissa.substr(0, dot);
    std::string_view fraction = dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
    bool ok = Digits(whole, IsDigit) && (fraction.empty() || Digits(fraction, IsDigit));
    if (d_at != std::string_view::npos) {
      std::string_view e = exponent;
      if (!e.empty() && (e[0] == '+' || e[0] == '-')) e.remove_prefix(1);
      ok = ok && Digits(e, IsDigit);
    }
    if (!ok) return Fail("'" + std::string(t) + "' is not an Ion number");
    std::string n = negative ? "-" : "";
    n += WithoutUnderscores(whole);
    if (!fraction.empty()) n += "." + WithoutUnderscores(fraction);
    if (d_at != std::string_view::npos) n += "E" + WithoutUnderscores(exponent);
    out->set_n(std::move(n));
    return R::kOk;
  }

  // {{ base64 }} (a blob) or {{ "text" }} (a clob).
  R Lob(v1::AttributeValue* out, std::string* error) {
    pos_ += 2;
    while (pos_ < s_.size() && IsSpace(s_[pos_])) ++pos_;
    if (AtEnd()) return EndOfInput();
    if (s_[pos_] == '"' || s_[pos_] == '\'') {
      std::string text;
      R r = s_[pos_] == '"' ? ShortString(&text) : LongStrings(&text);
      if (r != R::kOk) return r;
      while (pos_ < s_.size() && IsSpace(s_[pos_])) ++pos_;
      if (pos_ + 2 > s_.size()) return EndOfInput();
      if (s_.substr(pos_, 2) != "}}") return Fail("an Ion clob is not closed by }}");
      pos_ += 2;
      SetError(error, "An Ion clob is not a DynamoDB value: write a blob");
      return R::kOk;
    }
    size_t end = s_.find("}}", pos_);
    if (end == std::string_view::npos) return EndOfInput();
    std::string base64;
    for (size_t i = pos_; i < end; ++i) {
      if (!IsSpace(s_[i])) base64.push_back(s_[i]);
    }
    pos_ = end + 2;
    auto bytes = Base64Decode(base64);
    if (!bytes) return Fail("an Ion blob is not valid base64");
    out->set_b(std::move(*bytes));
    return R::kOk;
  }

  R Struct(int depth, v1::AttributeValue* out, std::string* error) {
    ++pos_;
    auto* fields = out->mutable_m()->mutable_fields();
    for (;;) {
      R r = SkipSpace();
      if (r != R::kOk) return r;
      if (AtEnd()) return EndOfInput();
      if (s_[pos_] == '}') {
        ++pos_;
        return R::kOk;
      }
      std::string name;
      char c = s_[pos_];
      if (c == '"') {
        r = ShortString(&name);
      } else if (c == '\'' && pos_ + 2 >= s_.size() && !final_) {
        return R::kNeedMore;
      } else if (c == '\'' && LongStringAhead()) {
        r = LongStrings(&name);
      } else if (c == '\'' || IsIdentStart(c)) {
        r = Symbol(&name);
        if (r == R::kOk && c != '\'' && name.size() > 1 && name[0] == '$' &&
            Digits(std::string_view(name).substr(1), IsDigit)) {
          SetError(error,
                   "Ion text with symbol ids (" + name + ") is not supported: write the symbols' text");
        }
      } else {
        return Fail("an Ion struct's field name is missing");
      }
      if (r != R::kOk) return r;
      r = SkipSpace();
      if (r != R::kOk) return r;
      if (AtEnd()) return EndOfInput();
      if (s_[pos_] != ':') return Fail("':' is missing after the Ion field name '" + name + "'");
      ++pos_;
      v1::AttributeValue v;
      std::vector<std::string> annotations;
      r = Value(depth + 1, &v, &annotations, error);
      if (r != R::kOk) return r;
      if (fields->count(name)) SetError(error, "The Ion struct has the field '" + name + "' twice");
      (*fields)[name] = std::move(v);
      r = Separator('}');
      if (r != R::kOk) return r;
    }
  }

  R List(int depth, v1::AttributeValue* out, std::string* error) {
    ++pos_;
    auto* values = out->mutable_l()->mutable_values();
    for (;;) {
      R r = SkipSpace();
      if (r != R::kOk) return r;
      if (AtEnd()) return EndOfInput();
      if (s_[pos_] == ']') {
        ++pos_;
        return R::kOk;
      }
      std::vector<std::string> annotations;
      r = Value(depth + 1, values->Add(), &annotations, error);
      if (r != R::kOk) return r;
      r = Separator(']');
      if (r != R::kOk) return r;
    }
  }

  // After a container's element: ',' (taken), or the closing `close` (left).
  R Separator(char close) {
    R r = SkipSpace();
    if (r != R::kOk) return r;
    if (AtEnd()) return EndOfInput();
    if (s_[pos_] == ',') {
      ++pos_;
      return R::kOk;
    }
    if (s_[pos_] != close) return Fail(std::string("',' or '") + close + "' is missing in an Ion container");
    return R::kOk;
  }

  // Read to its end, so the stream goes on; no DynamoDB value.
  R Sexp(int depth, std::string* error) {
    SetError(error, "An Ion s-expression is not a DynamoDB value");
    ++pos_;
    for (;;) {
      R r = SkipSpace();
      if (r != R::kOk) return r;
      if (AtEnd()) return EndOfInput();
      char c = s_[pos_];
      if (c == ')') {
        ++pos_;
        return R::kOk;
      }
      if (IsOperatorChar(c) && !(c == '-' && pos_ + 1 < s_.size() && IsDigit(s_[pos_ + 1])) &&
          !(c == '+' && s_.substr(pos_, 4) == "+inf")) {
        while (pos_ < s_.size() && IsOperatorChar(s_[pos_])) ++pos_;
        continue;
      }
      v1::AttributeValue ignored;
      std::vector<std::string> annotations;
      r = Value(depth + 1, &ignored, &annotations, error);
      if (r != R::kOk) return r;
    }
  }

  std::string_view s_;
  bool final_;
  size_t pos_ = 0;
  std::string bad_;
};

}  // namespace

IonStep IonTextParser::Next(std::string_view data, bool final, v1::AttributeValue* out, size_t* consumed,
                            std::string* error) {
  *consumed = 0;
  for (;;) {
    std::string_view rest = data.substr(*consumed);
    TextReader r(rest, final);
    R step = r.SkipSpace();
    if (step == R::kNeedMore) return IonStep::kNeedMore;
    if (step == R::kBad) {
      *error = r.bad();
      return IonStep::kBad;
    }
    if (r.AtEnd()) {
      if (!final) return IonStep::kNeedMore;
      *consumed = data.size();
      return IonStep::kEnd;
    }
    const size_t start = r.pos();
    out->Clear();
    error->clear();
    std::vector<std::string> annotations;
    step = r.Value(0, out, &annotations, error);
    if (step == R::kNeedMore) {
      if (rest.size() > kMaxIonValueBytes) {
        *error = "an Ion value is larger than " + std::to_string(kMaxIonValueBytes) + " bytes";
        return IonStep::kBad;
      }
      return IonStep::kNeedMore;
    }
    if (step == R::kBad) {
      *error = r.bad();
      return IonStep::kBad;
    }
    *consumed += r.pos();
    // The version marker, and local symbol tables: not values.
    if (rest.substr(start, r.pos() - start) == "$ion_1_0") continue;
    if (!annotations.empty() && annotations[0] == "$ion_symbol_table") continue;
    return IonStep::kValue;
  }
}

}  // namespace pogi::jobs
