// Server reflection (grpc.reflection.v1alpha) on gRPC's callback API: each
// request of a ServerReflectionInfo stream answered from protobuf's generated
// descriptor pool.
#include "service/rpc/reflection_service.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <grpcpp/grpcpp.h>

#include <set>

#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "pogi/v1/admin.pb.h"
#include "pogi/v1/control_state.pb.h"
#include "pogi/v1/dynamodb.pb.h"
#include "pogi/v1/streams.pb.h"

namespace pogi::rpc {
namespace {

namespace refl = grpc::reflection::v1alpha;
using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

// The generated pool with every .proto of pogi in it. The build strips the
// generated code's start-up registration (parsing every descriptor before
// main cost 4.3 M instructions and the pages of the parser), so a file joins
// the pool when one of its messages is first used; a lookup by name needs
// them joined first: asking for one message's descriptor of each file
// registers and builds that file and its imports.
const DescriptorPool* Pool() {
  static const DescriptorPool* pool = [] {
    v1::AttributeValue::descriptor();
    v1::StatusRequest::descriptor();
    v1::Stream::descriptor();
    v1::ContributorInsightsState::descriptor();
    refl::ServerReflectionRequest::descriptor();
    return DescriptorPool::generated_pool();
  }();
  return pool;
}

void SetError(grpc::StatusCode code, const char* message, refl::ServerReflectionResponse* resp) {
  resp->mutable_error_response()->set_error_code(code);
  resp->mutable_error_response()->set_error_message(message);
}

// The file and, depth first, every file it imports, each once: a client
// needs them all to build the descriptors.
void AddFile(const FileDescriptor* file, std::set<const FileDescriptor*>* seen,
             refl::FileDescriptorResponse* out) {
  if (!seen->insert(file).second) return;
  google::protobuf::FileDescriptorProto proto;
  file->CopyTo(&proto);
  file->CopyJsonNameTo(&proto);  // pogi's JSON member names live in json_name
  proto.SerializeToString(out->add_file_descriptor_proto());
  for (int i = 0; i < file->dependency_count(); ++i) AddFile(file->dependency(i), seen, out);
}

// Messages are gRPC's reflection service's own ("File not found." ...).
void AnswerFile(const FileDescriptor* file, const char* not_found, refl::ServerReflectionResponse* resp) {
  if (!file) return SetError(grpc::StatusCode::NOT_FOUND, not_found, resp);
  std::set<const FileDescriptor*> seen;
  AddFile(file, &seen, resp->mutable_file_descriptor_response());
}

void Answer(const std::vector<std::string>& services, const refl::ServerReflectionRequest& req,
            refl::ServerReflectionResponse* resp) {
  resp->set_valid_host(req.host());
  *resp->mutable_original_request() = req;
  const DescriptorPool* pool = Pool();
  switch (req.message_request_case()) {
    case refl::ServerReflectionRequest::kListServices:
      for (const std::string& name : services) {
        resp->mutable_list_services_response()->add_service()->set_name(name);
      }
      return;
    case refl::ServerReflectionRequest::kFileByFilename:
      return AnswerFile(pool->FindFileByName(req.file_by_filename()), "File not found.", resp);
    case refl::ServerReflectionRequest::kFileContainingSymbol:
      return AnswerFile(pool->FindFileContainingSymbol(req.file_containing_symbol()), "Symbol not found.",
                        resp);
    case refl::ServerReflectionRequest::kFileContainingExtension: {
      const auto& ext = req.file_containing_extension();
      const Descriptor* type = pool->FindMessageTypeByName(ext.containing_type());
      const FieldDescriptor* field =
          type ? pool->FindExtensionByNumber(type, ext.extension_number()) : nullptr;
      return AnswerFile(field ? field->file() : nullptr, "Extension not found.", resp);
    }
    case refl::ServerReflectionRequest::kAllExtensionNumbersOfType: {
      const Descriptor* type = pool->FindMessageTypeByName(req.all_extension_numbers_of_type());
      if (!type) return SetError(grpc::StatusCode::NOT_FOUND, "Type not found.", resp);
      std::vector<const FieldDescriptor*> extensions;
      pool->FindAllExtensions(type, &extensions);
      auto* out = resp->mutable_all_extension_numbers_response();
      out->set_base_type_name(type->full_name());
      for (const FieldDescriptor* e : extensions) out->add_extension_number(e->number());
      return;
    }
    default:
      return SetError(grpc::StatusCode::UNIMPLEMENTED, "The server does not support the request.", resp);
  }
}

// One ServerReflectionInfo stream: read a request, write its answer, until
// the client half-closes.
class ReflectionReactor final
    : public grpc::ServerBidiReactor<refl::ServerReflectionRequest, refl::ServerReflectionResponse> {
 public:
  explicit ReflectionReactor(const std::vector<std::string>& services) : services_(services) {
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return Finish(grpc::Status::OK);  // the client is done asking
    response_.Clear();
    Answer(services_, request_, &response_);
    StartWrite(&response_);
  }

  void OnWriteDone(bool ok) override {
    if (!ok) return Finish(grpc::Status(grpc::StatusCode::CANCELLED, "the client went away"));
    StartRead(&request_);
  }

  void OnDone() override { delete this; }

 private:
  const std::vector<std::string>& services_;
  refl::ServerReflectionRequest request_;
  refl::ServerReflectionResponse response_;
};

class ReflectionService final : public refl::ServerReflection::CallbackService {
 public:
  explicit ReflectionService(std::vector<std::string> services) : services_(std::move(services)) {}

  grpc::ServerBidiReactor<refl::ServerReflectionRequest, refl::ServerReflectionResponse>*
  ServerReflectionInfo(grpc::CallbackServerContext*) override {
    return new ReflectionReactor(services_);
  }

 private:
  const std::vector<std::string> services_;
};

}  // namespace

std::unique_ptr<grpc::Service> NewReflectionService(std::vector<std::string> services) {
  return std::make_unique<ReflectionService>(std::move(services));
}

}  // namespace pogi::rpc
