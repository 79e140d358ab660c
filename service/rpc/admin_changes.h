// Admin WatchChanges: the server-streaming reactor that writes the change
// feed's events to one watcher. gRPC headers are included.
#pragma once

#include <grpcpp/grpcpp.h>

#include <string>

#include "pogi/v1/admin.pb.h"
#include "service/write/change_feed.h"

namespace pogi::rpc {

// A reactor (it deletes itself when done) streaming the committed changes
// of `table` (empty: every table) from now on.
grpc::ServerWriteReactor<v1::ChangeEvent>* NewWatchReactor(service::ChangeFeed& feed,
                                                           const std::string& table);

}  // namespace pogi::rpc
