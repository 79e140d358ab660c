// gRPC's plugin registry as the static pogi binary needs it: a smaller link.
//
// gRPC 1.51 builds its configuration (filters, handshakers, resolvers, load
// balancing policies) in grpc_core::BuildCoreConfiguration, which its
// grpc_plugin_registry.cc defines and grpc_init calls once. The static link
// takes this definition instead of that object file, so what only the
// registrations left out below reference (the RLS, grpclb, ring-hash,
// priority, weighted-target, outlier-detection and round-robin policies, the
// fault-injection filter, the fake resolver) is not linked at all: about
// 0.5 MB of the stripped binary (docs/performance.md, "Sizes").
//
// pogi needs a server (the gRPC door) and clients that dial one address
// (`pogi gateway`, the admin commands) with the default pick-first policy;
// nothing of pogi sends a service config naming another policy, and gRPC
// answers a channel whose config names a policy it does not know with an
// error, not a crash. Everything else is registered as gRPC does, in its
// order. Only for Debian 12's gRPC 1.51 (pinned, DESIGN.md): the functions
// are gRPC's internal ones, declared here by their signatures alone (a
// pointer to the builder is all they take). A gRPC that renames or drops
// one fails to link; one that adds a registration links without it, so a
// gRPC upgrade must compare this list with its grpc_plugin_registry.cc
// (`nm -C` of that object in libgrpc.a lists the calls). Linked
// into the static binary only (CMakeLists.txt): the shared builds (tests,
// sanitizers) keep gRPC's own registry.

namespace grpc_core {
class CoreConfiguration {
 public:
  class Builder;
};
using Builder = CoreConfiguration::Builder;

void RegisterHttpConnectHandshaker(Builder*);
void RegisterTCPConnectHandshaker(Builder*);
void RegisterPickFirstLbPolicy(Builder*);
void BuildClientChannelConfiguration(Builder*);
void SecurityRegisterHandshakerFactories(Builder*);
void RegisterClientAuthorityFilter(Builder*);
void RegisterChannelIdleFilters(Builder*);
void RegisterHttpFilters(Builder*);
void RegisterDeadlineFilter(Builder*);
void RegisterMessageSizeFilter(Builder*);
void RegisterServiceConfigChannelArgFilter(Builder*);
void RegisterResourceQuota(Builder*);
void RegisterAresDnsResolver(Builder*);
void RegisterNativeDnsResolver(Builder*);
void RegisterSockaddrResolver(Builder*);
void RegisterHttpProxyMapper(Builder*);
void RegisterSecurityFilters(Builder*);
void RegisterExtraFilters(Builder*);
void RegisterBuiltins(Builder*);
}  // namespace grpc_core

namespace grpc_event_engine::experimental {
void RegisterEventEngineChannelArgPreconditioning(grpc_core::Builder*);
}  // namespace grpc_event_engine::experimental

namespace grpc_core {

// gRPC 1.51's list (src/core/plugin_registry/grpc_plugin_registry.cc), in
// its order, less the load balancing policies, filter and resolver above.
void BuildCoreConfiguration(Builder* builder) {
  grpc_event_engine::experimental::RegisterEventEngineChannelArgPreconditioning(builder);
  RegisterHttpConnectHandshaker(builder);
  RegisterTCPConnectHandshaker(builder);
  RegisterPickFirstLbPolicy(builder);
  BuildClientChannelConfiguration(builder);
  SecurityRegisterHandshakerFactories(builder);
  RegisterClientAuthorityFilter(builder);
  RegisterChannelIdleFilters(builder);
  RegisterHttpFilters(builder);
  RegisterDeadlineFilter(builder);
  RegisterMessageSizeFilter(builder);
  RegisterServiceConfigChannelArgFilter(builder);
  RegisterResourceQuota(builder);
  // c-ares resolves names itself (/etc/hosts included): the image, FROM
  // scratch, has no NSS modules for glibc's getaddrinfo.
  RegisterAresDnsResolver(builder);
  RegisterNativeDnsResolver(builder);
  RegisterSockaddrResolver(builder);
  RegisterHttpProxyMapper(builder);
  RegisterSecurityFilters(builder);
  RegisterExtraFilters(builder);
  RegisterBuiltins(builder);
}

}  // namespace grpc_core
