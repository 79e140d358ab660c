// Every bound pogi puts on what a client sends, in one place: connections,
// the HTTP request line, header and body, timeouts, JSON nesting and
// expression sizes. Each has a test at the limit and one past it
// (docs/reliability.md, "Connections and limits", lists them with their tests).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace pogi::limits {

// ---- HTTP connections (gateway/http_server.cc)

// HTTP connections open at once. One more is answered 503 and closed, so
// that a flood of idle or slow clients cannot take every file descriptor;
// `pogi start --max-connections` lowers it, and pogi lowers it to what
// RLIMIT_NOFILE allows (less kReservedFiles). 10,000 bad clients at once
// leave room for the good ones (tests/e2e/test_connection_load.py).
inline constexpr int kMaxConnections = 16384;
// File descriptors kept for everything but HTTP connections: SQLite's
// database, WAL and journal files, gRPC's sockets, the log file.
inline constexpr int kReservedFiles = 256;

// The longest pogi waits for a whole request: on a kept-alive connection
// from the previous answer, on a new one from its accept. Idle clients,
// half-open connections and slow senders (a header line a second) are all
// closed after it. `pogi start --idle-timeout` changes it.
inline constexpr std::chrono::seconds kIdleTimeout{60};

// The request line ("POST /path?query HTTP/1.1"). DynamoDB answers 400 Bad
// Request to a 17,000-character URL (ScyllaDB's Alternator tests, run
// against DynamoDB, record it); 16 KB is also what AWS load balancers allow.
inline constexpr size_t kMaxRequestLineBytes = 16 * 1024;
// The request's header fields in total, each counted as "Name: value" and
// its CRLF (the request line and the empty line ending the section are not
// counted). DynamoDB answers 400 Bad Request past 16 KB.
inline constexpr size_t kMaxHeaderBytes = 16 * 1024;
// DynamoDB's request size limit, before and after Content-Encoding: past
// it, 413 "Request size exceeded 16777216 bytes".
inline constexpr uint64_t kMaxBodyBytes = 16 * 1024 * 1024;

// ---- request content

// Levels of nesting inside one attribute value (DynamoDB: 32). The JSON
// tape itself is iterative, so no depth exhausts its stack; deeper values
// are refused before decoding (gateway/json_codec.cc).
inline constexpr int kMaxAttributeDepth = 32;
// Expressions (service/expr/parser.h): DynamoDB's limits.
inline constexpr size_t kMaxExpressionBytes = 4096;  // "Expression size has exceeded..."
inline constexpr size_t kMaxPathDepth = 32;          // nesting levels of a document path
inline constexpr size_t kMaxInOperands = 100;        // right-hand operands of IN
inline constexpr size_t kMaxOperators = 300;         // operators and functions per expression
// pogi's own bound on nested parentheses/NOTs (DynamoDB's is not documented;
// a 4 KB expression could otherwise nest ~4000 levels).
inline constexpr size_t kMaxExpressionNesting = 200;

}  // namespace pogi::limits
