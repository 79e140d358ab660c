// The operation table.
#include "service/operations.h"

#include <array>

#include "service/engine.h"

namespace pogi::service {
namespace {

using google::protobuf::Message;

template <typename Req, typename Resp, Result<Resp> (Engine::*Method)(const Req&)>
Result<std::unique_ptr<Message>> Invoke(Engine& engine, const Message& request) {
  auto state = engine.LockState();  // a snapshot restore waits for us
  Result<Resp> r = (engine.*Method)(static_cast<const Req&>(request));
  if (!r.ok()) return std::move(r).error();
  return std::unique_ptr<Message>(new Resp(std::move(r).value()));
}

#define POGI_OP(Name)                                                                               \
  Operation {                                                                                       \
#Name, &v1::Name##Request::default_instance(), &Invoke < v1::Name##Request, v1::Name##Response, \
        &Engine::Name>                                                                              \
  }

const std::array kOperations = {
    POGI_OP(CreateTable),    POGI_OP(DeleteTable),        POGI_OP(DescribeTable),
    POGI_OP(GetItem),        POGI_OP(ListTables),         POGI_OP(PutItem),
    POGI_OP(DeleteItem),     POGI_OP(UpdateItem),         POGI_OP(Query),
    POGI_OP(Scan),           POGI_OP(UpdateTable),        POGI_OP(BatchGetItem),
    POGI_OP(BatchWriteItem), POGI_OP(TransactWriteItems), POGI_OP(TransactGetItems),
};

}  // namespace

const Operation* FindOperation(std::string_view name) {
  for (const auto& op : kOperations) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

}  // namespace pogi::service
