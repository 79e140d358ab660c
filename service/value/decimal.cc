// Decimal: DynamoDB numbers held as sign, digits and exponent; parsing, the
// canonical text form, exact addition and the order-preserving key encoding.
#include "service/value/decimal.h"

#include <algorithm>
#include <utility>

namespace pogi::value {
namespace {

// DynamoDB's messages, bare: the request layer adds any
// "1 validation error detected: " envelope the operation uses.
//
// * Not a number: "The parameter cannot be converted to a numeric value: <text>"
//   followed by the text as sent (an empty text keeps ": "). Confirmed by
//   dynalite's tests (mhart/dynalite, e.g. N: 'b' -> "...numeric value: b"),
//   by AWS replies quoted in jovotech/jovo-framework#197 and
//   internetarchive/internet-archive-voice-apps#225 ("...numeric value: NaN"),
//   and by a 2026 capture suite against four regions that also pins " 1",
//   "1e", "0x10", "NaN", "Infinity" and "" as refused this way.
//   "A value provided cannot be converted into a number" is DynamoDB Local's
//   wording (guregu/dynamo#164), not the service's.
// * The other three are identical in dynalite's tests, ScyllaDB's
//   test/alternator/test_number.py and the capture suite above. The range is
//   checked before the digit count (dynalite: 39 digits with e200 overflows).
// * Arithmetic: ScyllaDB's test_update_expression_plus_imprecise records that
//   DynamoDB answers 1e50 + 1 and 1e50 - 1 (exact results of 51 digits) with
//   the *overflow* message, not the 38-digit one; we do the same for every
//   sum or difference that needs more than 38 digits.
// An empty text gets the sentence alone (dynalite's DynamoDB-checked tests).
constexpr std::string_view kNotNumeric = "The parameter cannot be converted to a numeric value";
constexpr std::string_view kTooPrecise = "Attempting to store more than 38 significant digits in a Number";
constexpr std::string_view kOverflow =
    "Number overflow. Attempting to store a number with magnitude larger than "
    "supported range";
constexpr std::string_view kUnderflow =
    "Number underflow. Attempting to store a number with magnitude smaller "
    "than supported range";

constexpr size_t kMaxDigits = 38;
// Exponent bounds in the 0.d1d2... * 10^e form: 1E-130 is 0.1E-129 and
// 9.99...E+125 is 0.999...E+126.
constexpr int64_t kMinExponent = -129;
constexpr int64_t kMaxExponent = 126;
// Exponents in text saturate here: far beyond the valid range, yet adding a
// digit count (bounded by the text length) can never overflow int64. This
// also keeps parsing "1e999999999999999999999" linear and exact in outcome.
constexpr int64_t kExponentCap = int64_t{1} << 50;

// Key encoding. DO NOT CHANGE: embedded in on-disk data.
//
//   zero:      0x02
//   positive:  0x03  E  P1 .. Pk  0x00
//   negative:  0x01 ~E ~P1 .. ~Pk 0xFF          (~x is 0xFF - x)
//
// E is exponent_ - kMinExponent, one byte (0..255 covers the whole range),
// so a larger magnitude has a larger E. P1..Pk are the digits_ in pairs, the
// pair "ab" stored as the byte 1 + 10a + b (1..100); an odd last digit is
// paired with a 0, which is harmless as trailing zeros carry no value. Since
// digits_ has no leading or trailing zeros, every number has exactly one
// encoding. For equal E, pair bytes compare like the digit strings, and the
// 0x00 terminator sorts below every pair byte, so a digit string that is a
// prefix of a longer one (a smaller magnitude) sorts first. Negative numbers
// complement every byte after the class byte, which reverses their order,
// and the class bytes order negative < zero < positive. The terminator makes
// the encoding self-delimiting.
constexpr uint8_t kKeyNegative = 0x01;
constexpr uint8_t kKeyZero = 0x02;
constexpr uint8_t kKeyPositive = 0x03;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Compares |a| and |b| of two non-zero normalized numbers.
int CompareMagnitude(int32_t ea, const std::string& da, int32_t eb, const std::string& db) {
  if (ea != eb) return ea < eb ? -1 : 1;
  // With no trailing zeros, plain string order is numeric order: a proper
  // prefix is the smaller value.
  int c = da.compare(db);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

Result<Decimal> Decimal::Normalize(bool negative, std::string_view digits, int64_t point, bool arithmetic) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return Decimal();  // any zero is 0
  size_t last = digits.find_last_not_of('0');
  point -= static_cast<int64_t>(first);
  if (point > kMaxExponent) return Error::Validation(std::string(kOverflow));
  if (point < kMinExponent) return Error::Validation(std::string(kUnderflow));
  if (last - first + 1 > kMaxDigits) {
    return Error::Validation(std::string(arithmetic ? kOverflow : kTooPrecise));
  }
  Decimal d;
  d.negative_ = negative;
  d.digits_.assign(digits.substr(first, last - first + 1));
  d.exponent_ = static_cast<int32_t>(point);
  return d;
}

// Grammar: [+-]? (D+ ('.' D*)? | '.' D+) ([eE] [+-]? D+)?, nothing else (no
// spaces, no NaN/Infinity, no hex). Linear in the text length.
Result<Decimal> Decimal::Parse(std::string_view text) {
  auto not_numeric = [&] {
    std::string m(kNotNumeric);
    if (!text.empty()) m.append(": ").append(text);
    return Error::Validation(std::move(m));
  };
  size_t i = 0;
  const size_t n = text.size();
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';

  std::string digits;  // all mantissa digits, the point removed
  int64_t point = 0;   // how many of them precede the point
  bool seen_point = false;
  for (; i < n; ++i) {
    if (IsDigit(text[i])) {
      digits.push_back(text[i]);
      if (!seen_point) ++point;
    } else if (text[i] == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return not_numeric();

  int64_t exponent = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exponent_negative = text[i++] == '-';
    }
    const size_t start = i;
    for (; i < n && IsDigit(text[i]); ++i) {
      exponent = std::min(exponent * 10 + (text[i] - '0'), kExponentCap);
    }
    if (i == start) return not_numeric();
    if (exponent_negative) exponent = -exponent;
  }
  if (i != n) return not_numeric();
  return Normalize(negative, digits, point + exponent, /*arithmetic=*/false);
}

std::string Decimal::ToString() const {
  if (digits_.empty()) return "0";
  std::string s = negative_ ? "-" : "";
  const int64_t len = static_cast<int64_t>(digits_.size());
  const int64_t e = exponent_;
  if (e <= 0) {  // 0.000ddd
    s += "0.";
    s.append(static_cast<size_t>(-e), '0');
    s += digits_;
  } else if (e < len) {  // dd.ddd
    s.append(digits_, 0, static_cast<size_t>(e));
    s += '.';
    s.append(digits_, static_cast<size_t>(e));
  } else {  // ddd000
    s += digits_;
    s.append(static_cast<size_t>(e - len), '0');
  }
  return s;
}

bool Decimal::IsZero() const { return digits_.empty(); }
bool Decimal::IsNegative() const { return negative_ && !digits_.empty(); }

int Decimal::Compare(const Decimal& other) const {
  auto sign = [](const Decimal& d) { return d.IsZero() ? 0 : (d.negative_ ? -1 : 1); };
  const int sa = sign(*this), sb = sign(other);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  const int m = CompareMagnitude(exponent_, digits_, other.exponent_, other.digits_);
  return sa > 0 ? m : -m;
}

Result<Decimal> Decimal::Add(const Decimal& a, const Decimal& b) {
  if (a.IsZero()) return b;
  if (b.IsZero()) return a;
  const bool subtract = a.negative_ != b.negative_;
  const Decimal* big = &a;
  const Decimal* small = &b;
  if (subtract) {
    const int m = CompareMagnitude(a.exponent_, a.digits_, b.exponent_, b.digits_);
    if (m == 0) return Decimal();
    if (m < 0) std::swap(big, small);
  }
  // Lay both on one grid of digit positions: slot k weighs 10^(top-1-k), so
  // the result is 0.<slots> * 10^top. The extra slot on top takes a carry.
  // Operands are in range, so the grid spans at most ~300 slots.
  const int64_t top = std::max(a.exponent_, b.exponent_) + 1;
  const int64_t bottom = std::min<int64_t>(a.exponent_ - static_cast<int64_t>(a.digits_.size()),
                                           b.exponent_ - static_cast<int64_t>(b.digits_.size()));
  const size_t width = static_cast<size_t>(top - bottom);
  std::string x(width, 0), y(width, 0);
  auto place = [&](const Decimal& d, std::string* slots) {
    const size_t offset = static_cast<size_t>(top - d.exponent_);
    for (size_t j = 0; j < d.digits_.size(); ++j) {
      (*slots)[offset + j] = static_cast<char>(d.digits_[j] - '0');
    }
  };
  place(*big, &x);
  place(*small, &y);

  // |big| >= |small| when subtracting, so no borrow leaves the top slot.
  std::string sum(width, '0');
  int carry = 0;
  for (size_t k = width; k-- > 0;) {
    int v = x[k] + (subtract ? -y[k] : y[k]) + carry;
    carry = 0;
    if (v < 0) {
      v += 10;
      carry = -1;
    } else if (v >= 10) {
      v -= 10;
      carry = 1;
    }
    sum[k] = static_cast<char>('0' + v);
  }
  return Normalize(big->negative_, sum, top, /*arithmetic=*/true);
}

Result<Decimal> Decimal::Subtract(const Decimal& a, const Decimal& b) {
  Decimal negated = b;
  if (!negated.IsZero()) negated.negative_ = !negated.negative_;
  return Add(a, negated);
}

void Decimal::AppendKeyEncoding(std::string* out) const {
  if (IsZero()) {
    out->push_back(static_cast<char>(kKeyZero));
    return;
  }
  const uint8_t flip = negative_ ? 0xFF : 0x00;
  auto put = [&](uint8_t b) { out->push_back(static_cast<char>(b ^ flip)); };
  out->push_back(static_cast<char>(negative_ ? kKeyNegative : kKeyPositive));
  put(static_cast<uint8_t>(exponent_ - kMinExponent));
  for (size_t j = 0; j < digits_.size(); j += 2) {
    const int hi = digits_[j] - '0';
    const int lo = j + 1 < digits_.size() ? digits_[j + 1] - '0' : 0;
    put(static_cast<uint8_t>(1 + 10 * hi + lo));
  }
  put(0x00);
}

bool Decimal::DecodeKey(std::string_view* in, Decimal* out) {
  const std::string_view s = *in;
  if (s.empty()) return false;
  const uint8_t cls = static_cast<uint8_t>(s[0]);
  if (cls == kKeyZero) {
    *out = Decimal();
    in->remove_prefix(1);
    return true;
  }
  if (cls != kKeyNegative && cls != kKeyPositive) return false;
  const uint8_t flip = cls == kKeyNegative ? 0xFF : 0x00;
  if (s.size() < 2) return false;
  Decimal d;
  d.negative_ = cls == kKeyNegative;
  d.exponent_ = static_cast<int32_t>((static_cast<uint8_t>(s[1]) ^ flip) + kMinExponent);
  size_t i = 2;
  for (;; ++i) {
    if (i >= s.size()) return false;  // no terminator
    const uint8_t b = static_cast<uint8_t>(s[i]) ^ flip;
    if (b == 0) break;
    if (b > 100 || d.digits_.size() >= kMaxDigits) return false;
    d.digits_.push_back(static_cast<char>('0' + (b - 1) / 10));
    d.digits_.push_back(static_cast<char>('0' + (b - 1) % 10));
  }
  // Drop the pad of an odd digit count, then insist on the one canonical
  // form so that decoding never yields a number with two encodings.
  if (!d.digits_.empty() && d.digits_.back() == '0') d.digits_.pop_back();
  if (d.digits_.empty() || d.digits_.front() == '0' || d.digits_.back() == '0') {
    return false;
  }
  *out = std::move(d);
  in->remove_prefix(i + 1);
  return true;
}

}  // namespace pogi::value
