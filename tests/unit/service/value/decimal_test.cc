// Tests for value::Decimal: parsing, canonical text, DynamoDB's error
// messages, exact arithmetic and the order-preserving key encoding.
#include "service/value/decimal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace pogi::value {
namespace {

const char kNotNumeric[] = "The parameter cannot be converted to a numeric value: ";
const char kTooPrecise[] = "Attempting to store more than 38 significant digits in a Number";
const char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than "
    "supported range";
const char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller "
    "than supported range";

Decimal D(std::string_view text) {
  Result<Decimal> r = Decimal::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.error().message();
  return r.ok() ? *r : Decimal();
}

std::string Canon(std::string_view text) { return D(text).ToString(); }

// The message of a failed Parse, or "(ok)".
std::string ParseError(std::string_view text) {
  Result<Decimal> r = Decimal::Parse(text);
  if (r.ok()) return "(ok)";
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation);
  return r.error().message();
}

std::string Enc(const Decimal& d) {
  std::string s;
  d.AppendKeyEncoding(&s);
  return s;
}

std::string Sum(std::string_view a, std::string_view b) {
  Result<Decimal> r = Decimal::Add(D(a), D(b));
  return r.ok() ? r->ToString() : r.error().message();
}

std::string Diff(std::string_view a, std::string_view b) {
  Result<Decimal> r = Decimal::Subtract(D(a), D(b));
  return r.ok() ? r->ToString() : r.error().message();
}

std::string Zeros(size_t n) { return std::string(n, '0'); }

// ---- Parsing and canonical text --------------------------------------------

TEST(DecimalTest, CanonicalForms) {
  const std::pair<const char*, std::string> cases[] = {
      {"0", "0"},
      {"-0", "0"},
      {"+0", "0"},
      {"-0.0", "0"},
      {"0e1000", "0"},
      {"000.000e-5", "0"},
      {"12", "12"},
      {"+3", "3"},
      {"-7.1234", "-7.1234"},
      {"1.50", "1.5"},
      {"1.0", "1"},
      {"00042", "42"},
      {"0001.23", "1.23"},
      {"1e3", "1000"},
      {"1E3", "1000"},
      {"1e+5", "100000"},
      {"1.5E2", "150"},
      {"-17e5", "-1700000"},
      {"1E-5", "0.00001"},
      {".5", "0.5"},
      {"-.5", "-0.5"},
      {"+.5", "0.5"},
      {"5.", "5"},
      {"5.e1", "50"},
      {".5e1", "5"},
      {"-.000120", "-0.00012"},
      {"123.456e2", "12345.6"},
      {"123.456e-2", "1.23456"},
      {"123.456e3", "123456"},
      {"0.1", "0.1"},
      {"10", "10"},
      {"-17.4E37", "-174" + Zeros(36)},
      {"1e125", "1" + Zeros(125)},
      {"1e-130", "0." + Zeros(129) + "1"},
      // boto/boto3#4636: DynamoDB stored this and returned it plainly.
      {"1.00000000000000007629769841092E+50", "100000000000000007629769841092000000000000000000000"},
      {"1234567895171680000000000000000000000000", "1234567895171680000000000000000000000000"},
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(Canon(in), want) << in;
}

TEST(DecimalTest, OnlySignificantDigitsCount) {
  EXPECT_EQ(Canon("0.000000000000000000000000000000000000000000001"),
            "0.000000000000000000000000000000000000000000001");
  EXPECT_EQ(Canon("1000000000000000000000000000000000000000000"),
            "1000000000000000000000000000000000000000000");
  EXPECT_EQ(Canon("1234567890123456789012345678901234567800000"),
            "1234567890123456789012345678901234567800000");
  // Exactly 38 significant digits, in several positions.
  EXPECT_EQ(Canon("12345678901234567890123456789012345678"), "12345678901234567890123456789012345678");
  EXPECT_EQ(Canon("3.1415926535897932384626433832795028841"), "3.1415926535897932384626433832795028841");
  EXPECT_EQ(Canon("314159265358979323846.26433832795028841"), "314159265358979323846.26433832795028841");
  EXPECT_EQ(Canon("31415926535897932384626433832795028841e30"),
            "31415926535897932384626433832795028841" + Zeros(30));
  EXPECT_EQ(Canon("-0000.0012345678901234567890123456789012345678000"),
            "-0.0012345678901234567890123456789012345678");
}

TEST(DecimalTest, SignAndZero) {
  EXPECT_TRUE(Decimal().IsZero());
  EXPECT_EQ(Decimal().ToString(), "0");
  EXPECT_TRUE(D("-0").IsZero());
  EXPECT_FALSE(D("-0").IsNegative());
  EXPECT_TRUE(D("-0.1").IsNegative());
  EXPECT_FALSE(D("0.1").IsNegative());
  EXPECT_EQ(D("-0"), Decimal());
  EXPECT_EQ(Enc(D("-0.000")), Enc(Decimal()));
}

TEST(DecimalTest, NotNumericMessagesQuoteTheText) {
  const char* cases[] = {
      "abc",      ".",     "1e",    "1E",    "1e+",   "1e-", "--1",      "+-1",       "-+1",
      "+",        "-",     " 1",    "1 ",    "1 0",   "\t1", "Infinity", "-Infinity", "inf",
      "NaN",      "-NaN",  "0x10",  "0X1F",  "1.2.3", "..1", "e5",       "E5",        ".e5",
      "1e5.5",    "1e5e5", "1,000", "1_000", "1f",    "1d",  "12a",
      "\xd9\xa1",  // ARABIC-INDIC DIGIT ONE
      "1e 5",     "1e++5", "- 1",
  };
  for (const char* text : cases) {
    EXPECT_EQ(ParseError(text), std::string(kNotNumeric) + text) << text;
  }
  // The empty text gets the sentence alone.
  EXPECT_EQ(ParseError(""), "The parameter cannot be converted to a numeric value");
  // Embedded NUL is not a number either, and is quoted as sent.
  EXPECT_EQ(ParseError(std::string_view("1\0", 2)), std::string(kNotNumeric) + std::string("1\0", 2));
}

TEST(DecimalTest, PrecisionLimit) {
  EXPECT_EQ(ParseError("123456789012345678901234567890123456789"), kTooPrecise);
  EXPECT_EQ(ParseError("-1.23456789012345678901234567890123456789"), kTooPrecise);
  EXPECT_EQ(ParseError("3.14159265358979323846264338327950288419"), kTooPrecise);
  EXPECT_EQ(ParseError("314159265358979323846264338327950288419e30"), kTooPrecise);
  EXPECT_EQ(ParseError("1234567890123456789012345678901234567890"), kTooPrecise);
  EXPECT_EQ(ParseError("10000000000000000000000000000000000000001"), kTooPrecise);
  EXPECT_EQ(ParseError("0.0000100000000000000000000000000000000000001"), kTooPrecise);
}

TEST(DecimalTest, MagnitudeLimits) {
  EXPECT_EQ(ParseError("1e-130"), "(ok)");
  EXPECT_EQ(ParseError("-1e-130"), "(ok)");
  EXPECT_EQ(ParseError("1.5e-130"), "(ok)");
  EXPECT_EQ(ParseError("9.9999999999999999999999999999999999999e125"), "(ok)");
  EXPECT_EQ(ParseError("-9.9999999999999999999999999999999999999e125"), "(ok)");
  EXPECT_EQ(ParseError("1e125"), "(ok)");
  EXPECT_EQ(ParseError("1e126"), kOverflow);
  EXPECT_EQ(ParseError("-1e126"), kOverflow);
  EXPECT_EQ(ParseError("11e125"), kOverflow);
  EXPECT_EQ(ParseError("1" + Zeros(126)), kOverflow);
  EXPECT_EQ(ParseError("1e-131"), kUnderflow);
  EXPECT_EQ(ParseError("-1e-131"), kUnderflow);
  EXPECT_EQ(ParseError("0.9e-130"), kUnderflow);
  EXPECT_EQ(ParseError("0." + Zeros(130) + "1"), kUnderflow);
  // The range is checked before the digit count.
  EXPECT_EQ(ParseError("1234567890123456789012345678901234567890e200"), kOverflow);
  EXPECT_EQ(ParseError("1234567890123456789012345678901234567890e-200"), kUnderflow);
}

TEST(DecimalTest, HugeExponentsAreBoundedNotWrapped) {
  EXPECT_EQ(ParseError("1e2147483647"), kOverflow);
  EXPECT_EQ(ParseError("1e2147483648"), kOverflow);
  EXPECT_EQ(ParseError("1e-2147483648"), kUnderflow);
  EXPECT_EQ(ParseError("1e99999999999"), kOverflow);
  EXPECT_EQ(ParseError("-1e99999999999"), kOverflow);
  EXPECT_EQ(ParseError("1e-99999999999"), kUnderflow);
  EXPECT_EQ(ParseError("1e999999999999999999"), kOverflow);
  EXPECT_EQ(ParseError("1e-9999999999999999999999999999999999999999"), kUnderflow);
  EXPECT_EQ(ParseError("1e" + std::string(100000, '9')), kOverflow);
  EXPECT_EQ(Canon("0e99999999999999999999"), "0");
  EXPECT_EQ(Canon("1e00000000000000000000000000000000005"), "100000");
}

TEST(DecimalTest, LongZeroRunsAreLinearAndExact) {
  const std::string zeros = Zeros(1000000);
  EXPECT_EQ(Canon("0." + zeros + "1e1000000"), "0.1");
  EXPECT_EQ(Canon("1" + zeros + "e-1000000"), "1");
  EXPECT_EQ(Canon(zeros + "7"), "7");
  EXPECT_EQ(Canon("7." + zeros), "7");
  EXPECT_EQ(Canon(zeros), "0");
  EXPECT_EQ(ParseError("0." + zeros + "1"), kUnderflow);
  EXPECT_EQ(ParseError("1" + zeros), kOverflow);
}

// ---- Comparison ------------------------------------------------------------

TEST(DecimalTest, CompareIsNumeric) {
  EXPECT_EQ(D("1e3").Compare(D("1000")), 0);
  EXPECT_EQ(D("1000").Compare(D("1000.00")), 0);
  EXPECT_EQ(D("-0").Compare(D("0")), 0);
  EXPECT_LT(D("9"), D("10"));
  EXPECT_LT(D("-10"), D("-9"));
  EXPECT_LT(D("-1"), D("0"));
  EXPECT_LT(D("0"), D("1e-130"));
  EXPECT_LT(D("-1e-130"), D("0"));
  EXPECT_LT(D("1"), D("1.0000000000000000000000000000000000001"));
  EXPECT_LT(D("-1.0000000000000000000000000000000000001"), D("-1"));
  EXPECT_LT(D("0.99"), D("1"));
  EXPECT_LT(D("1.2"), D("1.21"));
  EXPECT_LT(D("1.21"), D("1.3"));
  EXPECT_EQ(D("2").Compare(D("1")), 1);
  EXPECT_EQ(D("1").Compare(D("2")), -1);
}

// ---- Arithmetic ------------------------------------------------------------

TEST(DecimalTest, AddAndSubtract) {
  EXPECT_EQ(Sum("1", "2"), "3");
  EXPECT_EQ(Sum("1", "10000000000000000000000"), "10000000000000000000001");
  EXPECT_EQ(Diff("10000000000000000000000", "1"), "9999999999999999999999");
  EXPECT_EQ(Sum("999", "1"), "1000");
  EXPECT_EQ(Sum("0.999", "0.001"), "1");
  EXPECT_EQ(Sum("9.9999999999999999999999999999999999999", "0.0000000000000000000000000000000000001"), "10");
  EXPECT_EQ(Sum("99999999999999999999999999999999999999", "1"), "1" + Zeros(38));
  EXPECT_EQ(Sum("12345678901234567890123456789012345678", "1"), "12345678901234567890123456789012345679");
  EXPECT_EQ(Diff("1000", "0.001"), "999.999");
  EXPECT_EQ(Diff("1", "0.0000000000000000000000000000000000001"), "0.9999999999999999999999999999999999999");
  EXPECT_EQ(Sum("1.5", "2.25"), "3.75");
  EXPECT_EQ(Sum("1e100", "1e100"), "2" + Zeros(100));
  EXPECT_EQ(Sum("1e-130", "1e-130"), "0." + Zeros(129) + "2");
}

TEST(DecimalTest, SignsAndCancellation) {
  EXPECT_EQ(Diff("1.5", "1.5"), "0");
  EXPECT_EQ(Sum("-5", "5"), "0");
  EXPECT_EQ(Diff("-5", "-5"), "0");
  EXPECT_TRUE(Decimal::Subtract(D("1e125"), D("1e125"))->IsZero());
  EXPECT_EQ(Enc(*Decimal::Subtract(D("7.25"), D("7.25"))), Enc(Decimal()));
  EXPECT_EQ(Diff("1", "3"), "-2");
  EXPECT_EQ(Sum("-1", "3"), "2");
  EXPECT_EQ(Sum("-1.5", "0.25"), "-1.25");
  EXPECT_EQ(Sum("-1.5", "-0.25"), "-1.75");
  EXPECT_EQ(Diff("-1.5", "0.25"), "-1.75");
  EXPECT_EQ(Diff("0.25", "-1.5"), "1.75");
  EXPECT_EQ(Diff("0", "4"), "-4");
  EXPECT_EQ(Diff("4", "0"), "4");
  EXPECT_EQ(Sum("0", "-4"), "-4");
  EXPECT_EQ(Sum("0", "0"), "0");
  EXPECT_EQ(Diff("0", "0"), "0");
  EXPECT_EQ(Diff("0.001", "1000"), "-999.999");
}

TEST(DecimalTest, ArithmeticLimits) {
  // DynamoDB answers an inexact sum with the overflow message (see decimal.cc).
  EXPECT_EQ(Sum("1e50", "1"), kOverflow);
  EXPECT_EQ(Diff("1e50", "1"), kOverflow);
  EXPECT_EQ(Sum("1", "1e-50"), kOverflow);
  EXPECT_EQ(Sum("99999999999999999999999999999999999999", "2"), kOverflow);
  EXPECT_EQ(Sum("9e125", "9e125"), kOverflow);
  EXPECT_EQ(Diff("9e125", "-9e125"), kOverflow);
  EXPECT_EQ(Sum("-9e125", "-9e125"), kOverflow);
  EXPECT_EQ(Sum("9.9999999999999999999999999999999999999e125", "0.0000000000000000000000000000000000001e125"),
            kOverflow);
  // Cancellation can leave a result below 1E-130.
  EXPECT_EQ(Diff("1.0000000000000000000000000000000000001e-120", "1e-120"), kUnderflow);
  EXPECT_EQ(Diff("1.1e-130", "1e-130"), kUnderflow);
  // Far-apart exponents are bounded work, and exact when they cancel.
  EXPECT_EQ(Sum("1e125", "1e-130"), kOverflow);
  Result<Decimal> up = Decimal::Add(D("1e-130"), D("5e125"));
  EXPECT_FALSE(up.ok());
  EXPECT_EQ(Diff("5e125", "4e125"), "1" + Zeros(125));
  EXPECT_EQ(Sum("-1e-130", "1e-130"), "0");
}

// Integer sums checked against __int128 arithmetic, at random scales.
TEST(DecimalTest, RandomSumsMatchIntegerArithmetic) {
  std::mt19937_64 rng(20240607);
  auto to_string = [](__int128 v) {
    if (v == 0) return std::string("0");
    bool neg = v < 0;
    unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : v;
    std::string s;
    while (u) {
      s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
      u /= 10;
    }
    if (neg) s.push_back('-');
    std::reverse(s.begin(), s.end());
    return s;
  };
  auto random_int = [&](int max_digits) {
    int digits = 1 + static_cast<int>(rng() % max_digits);
    __int128 v = 0;
    for (int i = 0; i < digits; ++i) v = v * 10 + static_cast<int>(rng() % 10);
    return (rng() & 1) ? -v : v;
  };
  int checked = 0;
  for (int i = 0; i < 5000; ++i) {
    const __int128 a = random_int(36), b = random_int(36);
    const int scale = static_cast<int>(rng() % 260) - 130;
    const std::string e = "e" + std::to_string(scale);
    // Write b at a shifted scale to exercise alignment: b*10^k e(scale-k).
    const int k = static_cast<int>(rng() % 4);
    const std::string b_text = to_string(b) + (b == 0 ? "" : Zeros(k)) + "e" + std::to_string(scale - k);
    Result<Decimal> da = Decimal::Parse(to_string(a) + e);
    Result<Decimal> db = Decimal::Parse(b_text);
    if (!da.ok() || !db.ok()) continue;  // out of range at this scale
    Result<Decimal> want_sum = Decimal::Parse(to_string(a + b) + e);
    Result<Decimal> want_diff = Decimal::Parse(to_string(a - b) + e);
    Result<Decimal> sum = Decimal::Add(*da, *db);
    Result<Decimal> diff = Decimal::Subtract(*da, *db);
    ASSERT_EQ(sum.ok(), want_sum.ok()) << to_string(a) << e << " + " << b_text;
    ASSERT_EQ(diff.ok(), want_diff.ok()) << to_string(a) << e << " - " << b_text;
    if (sum.ok()) {
      EXPECT_EQ(sum->ToString(), want_sum->ToString());
      EXPECT_EQ(Decimal::Add(*db, *da)->ToString(), sum->ToString());
    }
    if (diff.ok()) {
      EXPECT_EQ(diff->ToString(), want_diff->ToString());
    }
    ++checked;
  }
  EXPECT_GT(checked, 2000);  // most scales keep both operands in range
}

// ---- Key encoding ----------------------------------------------------------

TEST(DecimalTest, KeyEncodingIsPinned) {
  // DO NOT CHANGE: these bytes are on disk.
  EXPECT_EQ(Enc(D("0")), std::string("\x02", 1));
  EXPECT_EQ(Enc(D("1")), std::string("\x03\x82\x0b\x00", 4));
  EXPECT_EQ(Enc(D("-1")), std::string("\x01\x7d\xf4\xff", 4));
  EXPECT_EQ(Enc(D("123")), std::string("\x03\x84\x0d\x1f\x00", 5));
  EXPECT_EQ(Enc(D("1e-130")), std::string("\x03\x00\x0b\x00", 4));
  EXPECT_EQ(Enc(D("9e125")), std::string("\x03\xff\x5b\x00", 4));
}

TEST(DecimalTest, EqualNumbersEncodeIdentically) {
  const std::string e = Enc(D("1000"));
  EXPECT_EQ(Enc(D("1e3")), e);
  EXPECT_EQ(Enc(D("1000.00")), e);
  EXPECT_EQ(Enc(D("+0001000")), e);
  EXPECT_EQ(Enc(D("0.1e4")), e);
  EXPECT_NE(Enc(D("-1000")), e);
}

TEST(DecimalTest, DecodeKeyIsSelfDelimiting) {
  std::string buf;
  const char* values[] = {"-12.5",         "0",      "1e-130",
                          "123456789.123", "-0.001", "9.9999999999999999999999999999999999999e125"};
  for (const char* v : values) D(v).AppendKeyEncoding(&buf);
  buf += "tail";
  std::string_view in = buf;
  for (const char* v : values) {
    Decimal d;
    ASSERT_TRUE(Decimal::DecodeKey(&in, &d)) << v;
    EXPECT_EQ(d.ToString(), D(v).ToString());
  }
  EXPECT_EQ(in, "tail");
}

TEST(DecimalTest, DecodeKeyRejectsMalformedInput) {
  const std::string bad[] = {
      std::string(""),
      std::string("\x00", 1),
      std::string("\x04", 1),
      std::string("\x03", 1),                  // no exponent
      std::string("\x03\x82", 2),              // no terminator
      std::string("\x03\x82\x0b", 3),          // no terminator
      std::string("\x03\x82\x00", 3),          // no digits
      std::string("\x03\x82\x65\x00", 4),      // pair byte 101
      std::string("\x03\x82\x02\x00", 4),      // leading zero ("01")
      std::string("\x03\x82\x0b\x01\x00", 5),  // last pair "00"
      std::string("\x01\x7d\xf4", 3),          // negative without terminator
      std::string("\x01\x7d\xff", 3),          // negative without digits
  };
  for (const std::string& b : bad) {
    std::string_view in = b;
    Decimal d;
    EXPECT_FALSE(Decimal::DecodeKey(&in, &d)) << testing::PrintToString(b);
    EXPECT_EQ(in.size(), b.size());  // nothing consumed
  }
  // 20 pairs is more than 38 digits.
  std::string too_long = "\x03\x82";
  too_long.append(20, '\x0c');
  too_long.push_back('\0');
  std::string_view in = too_long;
  Decimal d;
  EXPECT_FALSE(Decimal::DecodeKey(&in, &d));
  // 19 pairs is fine.
  std::string longest = "\x03\x82";
  longest.append(19, '\x0c');
  longest.push_back('\0');
  in = longest;
  ASSERT_TRUE(Decimal::DecodeKey(&in, &d));
  EXPECT_EQ(d.ToString(), "1.1111111111111111111111111111111111111");
}

// ---- Property test ---------------------------------------------------------

// A number as generated: an oracle independent of Decimal's own code.
struct Sample {
  bool negative = false;
  std::string digits;  // no leading/trailing zeros; empty for zero
  int lead = 0;        // power of ten of the first digit
  std::string text;    // one of many spellings
};

// Oracle order: sign, then leading power, then digit strings.
int OracleCompare(const Sample& a, const Sample& b) {
  auto sign = [](const Sample& s) { return s.digits.empty() ? 0 : (s.negative ? -1 : 1); };
  if (sign(a) != sign(b)) return sign(a) < sign(b) ? -1 : 1;
  if (sign(a) == 0) return 0;
  int m = a.lead != b.lead ? (a.lead < b.lead ? -1 : 1)
                           : (a.digits < b.digits ? -1 : (a.digits > b.digits ? 1 : 0));
  return a.negative ? -m : m;
}

// Spells the sample in a random but equivalent way.
std::string Spell(const Sample& s, std::mt19937& rng) {
  if (s.digits.empty()) {
    const char* zeros[] = {"0", "-0", "0.000", "+0e55", "00", ".0", "0."};
    return zeros[rng() % 7];
  }
  std::string out;
  if (s.negative)
    out = "-";
  else if (rng() % 4 == 0)
    out = "+";
  // Put the point after `k` digits (k may be <= 0 or beyond the end) and
  // compensate with an explicit exponent when needed.
  const int n = static_cast<int>(s.digits.size());
  int k = (rng() % 3 == 0) ? s.lead + 1 : static_cast<int>(rng() % (n + 6)) - 3;
  const int exponent = s.lead + 1 - k;
  std::string body;
  if (k <= 0) {
    body = "0." + Zeros(-k) + s.digits;
  } else if (k >= n) {
    body = s.digits + Zeros(k - n);
  } else {
    body = s.digits.substr(0, k) + "." + s.digits.substr(k);
  }
  if (rng() % 3 == 0) body = Zeros(rng() % 3) + body;
  if (rng() % 3 == 0) {
    if (body.find('.') == std::string::npos) body += ".";
    body += Zeros(rng() % 3);
  }
  out += body;
  if (exponent != 0 || rng() % 5 == 0) {
    out += (rng() & 1) ? "e" : "E";
    if (exponent >= 0 && rng() % 2 == 0) out += "+";
    out += std::to_string(exponent);
  }
  return out;
}

Sample RandomSample(std::mt19937& rng) {
  Sample s;
  if (rng() % 50 == 0) return s;  // zero
  s.negative = rng() & 1;
  const int n = 1 + static_cast<int>(rng() % 38);
  for (int i = 0; i < n; ++i) {
    s.digits.push_back(static_cast<char>('0' + rng() % 10));
  }
  s.digits[0] = static_cast<char>('1' + rng() % 9);
  s.digits.back() = static_cast<char>('1' + rng() % 9);
  s.lead = static_cast<int>(rng() % 256) - 130;  // -130 .. 125
  return s;
}

// A neighbour of `s`: last digit nudged, a digit appended or dropped, the
// exponent moved by one, or the sign flipped; invalid neighbours are skipped.
bool Neighbour(Sample* s, std::mt19937& rng) {
  if (s->digits.empty()) return false;
  switch (rng() % 5) {
    case 0: {
      char& c = s->digits.back();
      c = static_cast<char>(c + ((c == '9' || (c != '1' && rng() % 2)) ? -1 : 1));
      break;
    }
    case 1:
      if (s->digits.size() >= 38) return false;
      s->digits.push_back(static_cast<char>('1' + rng() % 9));
      break;
    case 2:
      if (s->digits.size() < 2) return false;
      s->digits.pop_back();
      while (s->digits.back() == '0') s->digits.pop_back();
      break;
    case 3:
      s->lead += (rng() & 1) ? 1 : -1;
      if (s->lead < -130 || s->lead > 125) return false;
      break;
    case 4:
      s->negative = !s->negative;
      break;
  }
  return true;
}

TEST(DecimalTest, PropertyEncodingOrderMatchesNumericOrder) {
  std::mt19937 rng(42);
  std::vector<Sample> samples;
  std::vector<Decimal> values;
  while (samples.size() < 20000) {
    Sample s;
    const unsigned pick = samples.empty() ? 0 : rng() % 4;
    if (pick == 0) {
      s = RandomSample(rng);
    } else {
      s = samples[rng() % samples.size()];  // same value, new spelling
      if (pick == 1 && !Neighbour(&s, rng)) continue;
    }
    s.text = Spell(s, rng);
    Result<Decimal> d = Decimal::Parse(s.text);
    ASSERT_TRUE(d.ok()) << s.text << ": " << d.error().message();
    samples.push_back(s);
    values.push_back(*d);
  }

  std::vector<std::string> enc(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    enc[i] = Enc(values[i]);
    // DecodeKey and ToString -> Parse round-trip.
    std::string_view in = enc[i];
    Decimal back;
    ASSERT_TRUE(Decimal::DecodeKey(&in, &back)) << samples[i].text;
    EXPECT_TRUE(in.empty());
    EXPECT_EQ(Enc(back), enc[i]);
    EXPECT_EQ(back.ToString(), values[i].ToString());
    Result<Decimal> reparsed = Decimal::Parse(values[i].ToString());
    ASSERT_TRUE(reparsed.ok()) << values[i].ToString();
    EXPECT_EQ(Enc(*reparsed), enc[i]) << samples[i].text;
    EXPECT_EQ(values[i].IsZero(), samples[i].digits.empty());
  }

  auto check_pair = [&](size_t i, size_t j) {
    const int want = OracleCompare(samples[i], samples[j]);
    const int by_enc = enc[i] < enc[j] ? -1 : (enc[i] > enc[j] ? 1 : 0);
    ASSERT_EQ(values[i].Compare(values[j]), want) << samples[i].text << " vs " << samples[j].text;
    ASSERT_EQ(by_enc, want) << samples[i].text << " vs " << samples[j].text;
  };
  // Adjacent pairs in oracle order cover every near-duplicate boundary.
  std::vector<size_t> order(samples.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return OracleCompare(samples[a], samples[b]) < 0; });
  size_t equal_neighbours = 0;
  for (size_t k = 0; k + 1 < order.size(); ++k) {
    check_pair(order[k], order[k + 1]);
    if (enc[order[k]] == enc[order[k + 1]]) ++equal_neighbours;
  }
  // Re-spelled duplicates must be present for the test to mean something.
  EXPECT_GT(equal_neighbours, 2000u);
  // And random pairs across the whole range.
  for (int k = 0; k < 200000; ++k) {
    check_pair(rng() % samples.size(), rng() % samples.size());
  }
}

}  // namespace
}  // namespace pogi::value
