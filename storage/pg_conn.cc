// PgConn: libpq's extended protocol with binary parameters and results
// (no quoting of values anywhere), one prepared statement per SQL text.
#include "storage/pg_conn.h"

#include <endian.h>
#include <poll.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "common/log.h"

namespace pogi::storage {
namespace {

// Type OIDs of PostgreSQL's catalog (pg_type.dat), fixed since 7.x.
constexpr Oid kInt8 = 20, kText = 25, kFloat8 = 701, kBytea = 17;

// libpq's messages end in a newline and may span lines: one line for a log
// or an error answer.
std::string OneLine(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (char& c : s) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return s;
}

}  // namespace

void PgParams::Add(Oid type, const char* data, int length, int fixed_slot) {
  types_.push_back(type);
  formats_.push_back(1);
  lengths_.push_back(length);
  data_.push_back(data);
  fixed_.push_back(fixed_slot);
}

PgParams& PgParams::Int(int64_t v) {
  fixed_values_.push_back(htobe64(static_cast<uint64_t>(v)));
  Add(kInt8, nullptr, 8, static_cast<int>(fixed_values_.size() - 1));
  return *this;
}

PgParams& PgParams::Double(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  fixed_values_.push_back(htobe64(bits));
  Add(kFloat8, nullptr, 8, static_cast<int>(fixed_values_.size() - 1));
  return *this;
}

PgParams& PgParams::Bytes(std::string_view v) {
  // A non-null pointer even for an empty value: null means SQL NULL.
  Add(kBytea, v.empty() ? "" : v.data(), static_cast<int>(v.size()), -1);
  return *this;
}

PgParams& PgParams::Text(std::string_view v) {
  Add(kText, v.empty() ? "" : v.data(), static_cast<int>(v.size()), -1);
  return *this;
}

PgParams& PgParams::OptionalBytes(const std::optional<std::string>& v) { return v ? Bytes(*v) : NullBytes(); }

PgParams& PgParams::NullBytes() {
  Add(kBytea, nullptr, 0, -1);
  return *this;
}

std::vector<const char*> PgParams::Values() const {
  std::vector<const char*> out(data_.size());
  for (size_t i = 0; i < data_.size(); i++) {
    out[i] = fixed_[i] >= 0 ? reinterpret_cast<const char*>(&fixed_values_[fixed_[i]]) : data_[i];
  }
  return out;
}

int64_t PgRows::Int(int row, int col) const {
  uint64_t v = 0;
  std::memcpy(&v, PQgetvalue(r_.get(), row, col), sizeof v);
  return static_cast<int64_t>(be64toh(v));
}

double PgRows::Double(int row, int col) const {
  uint64_t bits = 0;
  std::memcpy(&bits, PQgetvalue(r_.get(), row, col), sizeof bits);
  bits = be64toh(bits);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

int64_t PgRows::Affected() const {
  const char* n = PQcmdTuples(r_.get());
  return n && *n ? std::strtoll(n, nullptr, 10) : 0;
}

Result<std::unique_ptr<PgConn>> PgConn::Connect(const std::string& conninfo, const std::string& schema) {
  // Defaults go before the user's string, which overrides them: a connect
  // that cannot succeed fails in 2 s per host (libpq's least) instead of the
  // TCP timeout, so a host of a multi-host string that stopped answering
  // costs a reconnect 2 s before the next is tried; dead peers are noticed
  // by keepalives instead of hanging a request.
  const char* keys[] = {"connect_timeout",
                        "keepalives_idle",
                        "keepalives_interval",
                        "keepalives_count",
                        "application_name",
                        "dbname",
                        nullptr};
  const char* values[] = {"2", "10", "5", "3", "pogi", conninfo.c_str(), nullptr};
  PGconn* c = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (!c) return Error::Internal("cannot connect to PostgreSQL: out of memory");
  std::unique_ptr<PgConn> conn(new PgConn(c));
  if (PQstatus(c) != CONNECTION_OK) {
    return Error::Internal("cannot connect to PostgreSQL: " + OneLine(PQerrorMessage(c)));
  }
  // The server's notices ("relation ... already exists, skipping") are not
  // pogi's to print: libpq would write them to stderr.
  PQsetNoticeProcessor(
      c, [](void*, const char*) {}, nullptr);
  POGI_ASSIGN_OR_RETURN(std::string quoted, conn->QuoteIdentifier(schema));
  POGI_RETURN_IF_ERROR(conn->Run("SET search_path TO " + quoted));
  return conn;
}

Result<std::string> PgConn::QuoteIdentifier(std::string_view name) {
  char* quoted = PQescapeIdentifier(conn_, name.data(), name.size());
  if (!quoted)
    return Error::Internal("invalid PostgreSQL name " + std::string(name) + ": " +
                           OneLine(PQerrorMessage(conn_)));
  std::string out = quoted;
  PQfreemem(quoted);
  return out;
}

PgConn::~PgConn() { PQfinish(conn_); }

Status PgConn::EnterPipeline() {
  if (PQpipelineStatus(conn_) != PQ_PIPELINE_OFF) return Status::Ok();
  if (!PQenterPipelineMode(conn_)) return Fail("pipeline", nullptr);
  return Status::Ok();
}

Status PgConn::Send(const char* sql, const PgParams& params) {
  POGI_RETURN_IF_ERROR(EnterPipeline());
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    std::string name = "p" + std::to_string(next_name_++);
    if (!PQsendPrepare(conn_, name.c_str(), sql, params.size(), params.types()))
      return Fail("prepare", nullptr);
    due_.push_back({Due::kPrepare, sql});
    it = prepared_.emplace(sql, std::move(name)).first;
  }
  std::vector<const char*> values = params.Values();
  if (!PQsendQueryPrepared(conn_, it->second.c_str(), params.size(), values.data(), params.lengths(),
                           params.formats(), /*resultFormat=*/1)) {
    return Fail("statement", nullptr);
  }
  due_.push_back({Due::kStatement, sql});
  unsynced_ = true;
  return Status::Ok();
}

Status PgConn::Queue(const char* sql, const PgParams& params) { return Send(sql, params); }

Result<PgRows> PgConn::Exec(const char* sql, const PgParams& params, int patience) {
  POGI_RETURN_IF_ERROR(Send(sql, params));
  if (open_batch_) {
    // The answers now, the implicit transaction still open.
    if (!PQsendFlushRequest(conn_) || PQflush(conn_) != 0) return Fail("statement", nullptr);
    due_.push_back({Due::kFlush});
  } else {
    POGI_RETURN_IF_ERROR(PushSync());
  }
  PGresult* rows = nullptr;
  POGI_RETURN_IF_ERROR(ReadDue(patience, &rows));
  return PgRows(rows);
}

Status PgConn::PushSync() {
  if (!PQpipelineSync(conn_)) return Fail("statement", nullptr);
  due_.push_back({Due::kSync});
  unsynced_ = false;
  return Status::Ok();
}

Status PgConn::Sync(int patience) {
  if (unsynced_) POGI_RETURN_IF_ERROR(PushSync());
  if (due_.empty()) return Status::Ok();
  return ReadDue(patience, nullptr);
}

void PgConn::SyncLater() {
  if (!unsynced_) return;
  if (!PushSync().ok()) return;
  for (auto it = due_.rbegin(); it != due_.rend(); ++it) {
    if (it != due_.rbegin() && it->kind == Due::kSync) break;
    it->dropped = true;
  }
}

void PgConn::RollbackLater() {
  if (Broken()) return;
  SyncLater();
  if (Queue("ROLLBACK").ok()) SyncLater();
}

bool PgConn::Wait(std::chrono::steady_clock::time_point deadline, int patience) {
  while (PQisBusy(conn_)) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
            .count();
    if (left <= 0) {
      timed_out_ = patience;
      return false;
    }
    pollfd p{PQsocket(conn_), POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) < 0 && errno != EINTR) return false;
    if (!PQconsumeInput(conn_)) return false;  // the connection failed
  }
  return true;
}

// Every answer due is read in order. A statement's answer is one result
// and then a null; a sync's is one PGRES_PIPELINE_SYNC. After a failure the
// statements up to the next sync answer PGRES_PIPELINE_ABORTED. A prepare
// that did not happen is forgotten, so that the statement is prepared
// again at its next use.
Status PgConn::ReadDue(int patience, PGresult** rows) {
  sqlstate_.clear();
  failed_sql_ = nullptr;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(patience);
  const size_t last_statement = rows ? due_.size() - 2 : due_.size();
  PGresult* failure = nullptr;
  const char* failed_sql = nullptr;
  for (size_t i = 0; i < due_.size(); i++) {
    const Due& d = due_[i];
    if (d.kind == Due::kFlush) continue;  // no answer of its own
    PGresult* r = Wait(deadline, patience) ? PQgetResult(conn_) : nullptr;
    if (!r || Broken()) {
      if (r) PQclear(r);
      if (failure) PQclear(failure);
      if (rows && *rows) PQclear(*rows), *rows = nullptr;
      due_.clear();
      return Fail("statement", nullptr);
    }
    ExecStatusType st = PQresultStatus(r);
    if (d.kind == Due::kSync) {
      PQclear(r);
      continue;
    }
    bool ok = st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK;
    if (!ok && d.kind == Due::kPrepare) prepared_.erase(d.sql);
    if (st == PGRES_FATAL_ERROR && !d.dropped && !failure) {
      failure = r;
      failed_sql = d.sql;
    } else if (ok && i == last_statement) {
      *rows = r;
    } else {
      PQclear(r);
    }
    // The null that ends this statement's answer.
    while (PGresult* more = Wait(deadline, patience) ? PQgetResult(conn_) : nullptr) PQclear(more);
  }
  due_.clear();
  if (failure) {
    if (rows && *rows) PQclear(*rows), *rows = nullptr;
    Error e = Fail("statement", failure);
    failed_sql_ = failed_sql;
    return e;
  }
  if (rows && !*rows) return Error::Internal("PostgreSQL statement failed: no answer");
  answers_read_++;
  return Status::Ok();
}

Status PgConn::Run(std::string_view sql, int patience) {
  POGI_RETURN_IF_ERROR(Sync(patience));
  if (PQpipelineStatus(conn_) != PQ_PIPELINE_OFF && !PQexitPipelineMode(conn_))
    return Fail("command", nullptr);
  sqlstate_.clear();
  failed_sql_ = nullptr;
  std::string text(sql);
  if (!PQsendQuery(conn_, text.c_str())) return Fail("command", nullptr);
  PGresult* r = Await(patience);
  if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
    return Fail("command", r);
  }
  PQclear(r);
  return Status::Ok();
}

namespace {

bool Failed(const PGresult* r) {
  ExecStatusType st = PQresultStatus(r);
  return st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK;
}

}  // namespace

// The results of a simple query (outside pipeline mode), waiting at most
// `patience` seconds: a server that stopped answering (a frozen primary, a
// network that drops packets while the peer's kernel still acknowledges)
// would otherwise hold the request, and the connection, for ever. A late
// connection is given up (Broken): the request fails and the next one
// reconnects, following a failover. Of several results (a simple query of
// several statements) the first failure, else the last; null when none came.
PGresult* PgConn::Await(int patience) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(patience);
  PGresult* kept = nullptr;
  for (;;) {
    if (!Wait(deadline, patience) && timed_out_) {
      if (kept) PQclear(kept);
      return nullptr;
    }
    PGresult* r = PQgetResult(conn_);
    if (!r) return kept;
    if (kept && Failed(kept)) {
      PQclear(r);
    } else {
      if (kept) PQclear(kept);
      kept = r;
    }
  }
}

Error PgConn::Fail(std::string_view what, PGresult* r) {
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  sqlstate_ = state ? state : "";
  std::string message =
      timed_out_ ? "no answer in " + std::to_string(timed_out_) + " s"
                 : OneLine(r && *PQresultErrorMessage(r) ? PQresultErrorMessage(r) : PQerrorMessage(conn_));
  if (r) PQclear(r);
  if (Broken()) {
    // Prepared statements die with the connection; so does this object,
    // replaced by its owner.
    log::Warn("PostgreSQL connection lost: " + message);
    return Error::Internal("PostgreSQL connection lost: " + message);
  }
  return Error::Internal("PostgreSQL " + std::string(what) + " failed: " + message);
}

}  // namespace pogi::storage
