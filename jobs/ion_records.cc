// Ion input (InputFormat ION): the object is Ion binary when it starts with
// the binary version marker, else Ion text; each top-level value is a
// record {Item:{...}} (ion_reader.h).
#include "jobs/input_records.h"
#include "jobs/ion_reader.h"

namespace pogi::jobs {
namespace {

class IonReader final : public RecordReader {
 public:
  explicit IonReader(std::unique_ptr<outbound::ObjectReader> in) : buf_(std::move(in)) {}

  Result<bool> Next(InputRecord* out) override {
    if (!started_) {
      while (buf_.data().size() < 4 && !buf_.at_end()) {
        POGI_ASSIGN_OR_RETURN(bool more, buf_.More());
        (void)more;
      }
      binary_ = IsIonBinary(buf_.data());
      started_ = true;
    }
    for (;;) {
      v1::AttributeValue value;
      size_t consumed = 0;
      std::string error;
      IonStep step = binary_ ? binary_parser_.Next(buf_.data(), buf_.at_end(), &value, &consumed, &error)
                             : text_parser_.Next(buf_.data(), buf_.at_end(), &value, &consumed, &error);
      buf_.Consume(consumed);
      switch (step) {
        case IonStep::kValue:
          *out = InputRecord();
          if (error.empty()) error = ConditionOfRecord(value, out);
          out->error = error.empty() ? ItemOfRecord(std::move(value), &out->item) : error;
          return true;
        case IonStep::kEnd:
          return false;
        case IonStep::kBad:
          return Error::Validation("the object is not valid Ion: " + error);
        case IonStep::kNeedMore: {
          if (buf_.at_end()) return Error::Validation("the object ends inside an Ion value");
          if (buf_.data().size() >= kMaxRecordBytes) {  // memory stays bounded
            return Error::Validation("an Ion value is longer than " + std::to_string(kMaxRecordBytes) + " bytes");
          }
          POGI_ASSIGN_OR_RETURN(bool more, buf_.More());
          (void)more;
          break;
        }
      }
    }
  }

  int64_t bytes() const override { return buf_.consumed(); }

 private:
  InputBuffer buf_;
  bool started_ = false;
  bool binary_ = false;
  IonTextParser text_parser_;
  IonBinaryParser binary_parser_;
};

}  // namespace

std::unique_ptr<RecordReader> MakeIonReader(std::unique_ptr<outbound::ObjectReader> in) {
  return std::make_unique<IonReader>(std::move(in));
}

}  // namespace pogi::jobs
