// libFuzzer target: the Ion reader of imports (jobs/ion_text_reader.cc,
// jobs/ion_binary_reader.cc, jobs/ion_values.cc), on Ion text or, when the
// input starts with the binary version marker, Ion binary.
//
// Input: the first byte picks the size of the pieces (1 to 64 bytes) the
// stream is handed over in, as an object arrives from S3; the rest is the
// stream.
//
// Oracles: (1) the stream read whole and read in pieces gives the same
// values, errors and end, in the same order; (2) a value read without error,
// written back as Ion text (jobs/ion_text.cc, the export writer), reads back
// equal.
#include <google/protobuf/util/message_differencer.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/ion_reader.h"
#include "jobs/ion_text.h"

namespace {

using pogi::jobs::IonBinaryParser;
using pogi::jobs::IonStep;
using pogi::jobs::IonTextParser;

struct Read {
  IonStep step;
  bool ok = false;   // a value with no error
  std::string text;  // the value as Ion text, or why it is no value
  pogi::v1::AttributeValue value;
};

// Every step to the end (or the first kBad), the stream given `piece`
// bytes more at a time (piece 0: whole).
std::vector<Read> ReadAll(std::string_view data, size_t piece) {
  bool binary = pogi::jobs::IsIonBinary(data);
  IonTextParser text;
  IonBinaryParser bin;
  std::vector<Read> out;
  size_t pos = 0, have = piece == 0 ? data.size() : std::min(piece, data.size());
  for (int guard = 0; guard < 100000; ++guard) {
    bool final = have == data.size();
    pogi::v1::AttributeValue v;
    size_t consumed = 0;
    std::string error;
    std::string_view window = data.substr(pos, have - pos);
    IonStep step = binary ? bin.Next(window, final, &v, &consumed, &error)
                          : text.Next(window, final, &v, &consumed, &error);
    if (consumed > window.size()) abort();  // took more than it was given
    pos += consumed;
    if (step == IonStep::kNeedMore) {
      if (final) abort();  // the whole stream was there
      have = std::min(data.size(), have + piece);
      continue;
    }
    Read r{step, step == IonStep::kValue && error.empty(), error, v};
    if (r.ok) {
      r.text.clear();
      pogi::jobs::AppendIonValue(v, &r.text);
    }
    out.push_back(std::move(r));
    if (step != IonStep::kValue) return out;
  }
  abort();  // no progress
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  size_t piece = 1 + bytes[0] % 64;
  std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  std::vector<Read> whole = ReadAll(data, 0);
  std::vector<Read> pieces = ReadAll(data, piece);
  if (whole.size() != pieces.size()) abort();
  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole[i].step != pieces[i].step) abort();
    // A kBad's reason may name where the bytes ran out; values must agree.
    if (whole[i].ok != pieces[i].ok || (whole[i].step == IonStep::kValue && whole[i].text != pieces[i].text))
      abort();
  }
  for (const Read& r : whole) {
    if (!r.ok) continue;
    IonTextParser again;
    pogi::v1::AttributeValue back;
    size_t consumed = 0;
    std::string error;
    if (again.Next(r.text, true, &back, &consumed, &error) != IonStep::kValue || !error.empty()) abort();
    if (!google::protobuf::util::MessageDifferencer::Equals(back, r.value)) abort();
  }
  return 0;
}
