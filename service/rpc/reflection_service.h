// The gRPC server reflection service (grpc.reflection.v1alpha), so that
// grpcurl and friends list, describe and call pogi's services with no .proto
// file at hand. gRPC headers stay out of this header.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace grpc {
class Service;
}

namespace pogi::rpc {

// A callback service answering ServerReflectionInfo streams from protobuf's
// generated pool; `services` is what list_services names. pogi's .proto files
// are registered with that pool on the first reflection request, not at
// start-up (see CMakeLists.txt, "lazy descriptors").
std::unique_ptr<grpc::Service> NewReflectionService(std::vector<std::string> services);

}  // namespace pogi::rpc
