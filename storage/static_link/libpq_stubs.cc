// Only in the static pogi binary: Debian's libpq.a is built with GSSAPI
// (Kerberos) and LDAP support, whose libraries Debian ships as shared
// objects only. These stand-ins let libpq link statically without them and
// make both features report themselves unavailable: a GSSAPI credential is
// never found (so gssencmode=prefer goes on without GSSAPI encryption and a
// server that demands Kerberos authentication refuses the connection), and
// an ldap:// service lookup fails. Password, SCRAM, certificate and TLS
// connections are libpq's own code and work unchanged. The test and
// sanitizer builds link the real shared libraries instead.
#include <cstddef>

extern "C" {

// GSS-API: every call fails (GSS_S_FAILURE), releases succeed.
constexpr unsigned int kGssFailure = 13u << 16;
void* GSS_C_NT_HOSTBASED_SERVICE = nullptr;
unsigned int gss_acquire_cred(...) { return kGssFailure; }
unsigned int gss_import_name(...) { return kGssFailure; }
unsigned int gss_init_sec_context(...) { return kGssFailure; }
unsigned int gss_display_status(...) { return kGssFailure; }
unsigned int gss_wrap(...) { return kGssFailure; }
unsigned int gss_unwrap(...) { return kGssFailure; }
unsigned int gss_wrap_size_limit(...) { return kGssFailure; }
unsigned int gss_delete_sec_context(...) { return 0; }
unsigned int gss_release_buffer(...) { return 0; }
unsigned int gss_release_cred(...) { return 0; }
unsigned int gss_release_name(...) { return 0; }

// LDAP: no connection can be made, so libpq reports the lookup failed.
void* ldap_init(...) { return nullptr; }
int ldap_set_option(...) { return -1; }
int ldap_simple_bind(...) { return -1; }
int ldap_search_st(...) { return -1; }
int ldap_result(...) { return -1; }
int ldap_count_entries(...) { return 0; }
void* ldap_first_entry(...) { return nullptr; }
void* ldap_get_values_len(...) { return nullptr; }
void ldap_value_free_len(...) {}
int ldap_msgfree(...) { return 0; }
int ldap_unbind(...) { return 0; }
const char* ldap_err2string(...) { return "LDAP is not available in this pogi binary"; }

}  // extern "C"
