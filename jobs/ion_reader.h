// Amazon Ion, read (ImportTable's and StartBulkPutItems' InputFormat ION):
// the text and the binary form (Ion 1.0), each a stream of top-level
// values, mapped to DynamoDB's attribute values as DynamoDB's import
// documents it:
//   string -> S, decimal (and int) -> N, blob -> B, bool -> BOOL,
//   struct -> M, list -> L, a list annotated $dynamodb_SS, $dynamodb_NS or
//   $dynamodb_BS -> SS, NS, BS, null (of any type) -> NULL.
// Everything else Ion has (floats, timestamps, symbols as values, clobs,
// s-expressions) is read, so the stream goes on after it, and makes its
// value an error: DynamoDB has no such type. Numbers keep their digits
// (never a double). No Ion library is packaged for Debian 12, so this is
// pogi's own reader of that subset (fuzzed: tests/fuzz/ion_fuzz.cc).
//
// Both parsers work on a buffer holding the stream from the value on and
// say when it ends inside the value (kNeedMore), so a caller reads an object
// in pieces without ever holding more than one value.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::jobs {

enum class IonStep {
  kValue,     // *out holds the value (or *error why it is no DynamoDB value)
  kNeedMore,  // the buffer ends inside the value: call again with more
  kEnd,       // nothing but white space and comments (text) is left
  kBad,       // the bytes are not Ion (or break pogi's bounds): *error says why
};

// The deepest nesting either parser reads (DynamoDB allows 32 levels in an
// item; the Item wrapper and some slack above that).
inline constexpr int kMaxIonDepth = 40;
// The largest top-level value either parser holds.
inline constexpr size_t kMaxIonValueBytes = 32 << 20;

// Whether `data` starts with the binary form's version marker (E0 01 00 EA).
bool IsIonBinary(std::string_view data);

// Ion text. Version markers ($ion_1_0) and symbol tables
// ($ion_symbol_table::{...}) at the top level are skipped; symbol ids ($10)
// are not resolved (an error), as a text writer has no need of them.
class IonTextParser {
 public:
  // Reads the next top-level value from the start of `data`; `final`: no
  // more bytes follow. On kValue and kEnd, *consumed is how many bytes of
  // `data` it took. On kValue, *error is empty, or says why the value is no
  // DynamoDB value.
  IonStep Next(std::string_view data, bool final, v1::AttributeValue* out, size_t* consumed,
               std::string* error);
};

// Ion binary: version markers, local symbol tables (imports of the system
// table only; a shared table is refused), NOP padding.
class IonBinaryParser {
 public:
  IonBinaryParser();
  IonStep Next(std::string_view data, bool final, v1::AttributeValue* out, size_t* consumed,
               std::string* error);

 private:
  // Takes in the local symbol table `value` (a whole annotated struct);
  // false, with *why, when it cannot.
  bool SymbolTable(std::string_view value, std::string* why);

  std::vector<std::string> symbols_;  // by symbol id; 1-9 the system symbols
};

// What the two share (ion_values.cc) -------------------------------------

// Applies a value's annotations: $dynamodb_SS, $dynamodb_NS or
// $dynamodb_BS turn a list of strings, numbers or binaries into the set;
// other annotations change nothing. Sets *error when the value cannot be
// that set.
void ApplyIonAnnotations(const std::vector<std::string>& annotations, v1::AttributeValue* v,
                         std::string* error);
// The decimal digits of a big-endian unsigned magnitude.
std::string MagnitudeToDecimal(std::string_view big_endian);

}  // namespace pogi::jobs
