#include "qipu/db/sqlite.hpp"

#include <sqlite3.h>

namespace qipu::db {

namespace {

// A file: URI for the path, so that read-only opens can say mode=ro and immutable=1.
std::string file_uri(const std::string& path, Connection::Mode mode) {
  std::string uri = path.substr(0, 1) == "/" ? "file://" : "file:";  // an absolute path after an empty authority
  for (char c : path) {
    if (c == '%')
      uri += "%25";
    else if (c == '?')
      uri += "%3f";
    else if (c == '#')
      uri += "%23";
    else
      uri += c;
  }
  return uri + (mode == Connection::Mode::Immutable ? "?mode=ro&immutable=1" : "?mode=ro");
}

}  // namespace

std::string_view DbError::code_name() const noexcept {
  // SQLite's primary result codes, which its documentation promises never to change.
  static constexpr std::string_view names[] = {
      "sqlite_ok",        "sqlite_error",    "sqlite_internal", "sqlite_perm",     "sqlite_abort",
      "sqlite_busy",      "sqlite_locked",   "sqlite_nomem",    "sqlite_readonly", "sqlite_interrupt",
      "sqlite_ioerr",     "sqlite_corrupt",  "sqlite_notfound", "sqlite_full",     "sqlite_cantopen",
      "sqlite_protocol",  "sqlite_empty",    "sqlite_schema",   "sqlite_toobig",   "sqlite_constraint",
      "sqlite_mismatch",  "sqlite_misuse",   "sqlite_nolfs",    "sqlite_auth",     "sqlite_format",
      "sqlite_range",     "sqlite_notadb",   "sqlite_notice",   "sqlite_warning"};
  if (code_ == 0) return "db_invalid";
  std::size_t primary = std::size_t(code_ & 0xff);
  return primary < std::size(names) ? names[primary] : "sqlite_error";
}

Connection::Connection(const std::string& path, Mode mode) : path_(path) {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  std::string name = path;
  if (mode != Mode::ReadWrite) {
    flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    name = file_uri(path, mode);
  }
  int rc = sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if (db_) rc = sqlite3_extended_errcode(db_);
    sqlite3_close(db_);
    db_ = nullptr;
    throw DbError("cannot open database " + path + ": " + msg, rc);
  }
  sqlite3_extended_result_codes(db_, 1);
  // Another writer holds the lock: wait for it rather than fail at once.
  sqlite3_busy_timeout(db_, 10000);
}

Connection::~Connection() { sqlite3_close_v2(db_); }

void Connection::exec(const std::string& sql) {
  char* err = nullptr;
  if (int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw DbError(path_ + ": " + msg, sqlite3_extended_errcode(db_));
  }
}

Statement Connection::prepare(std::string_view sql) { return Statement(db_, sql); }

std::int64_t Connection::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

namespace {
int stop_if_past(void* connection) { return static_cast<const Connection*>(connection)->past_deadline() ? 1 : 0; }
}  // namespace

void Connection::set_deadline(std::chrono::steady_clock::time_point deadline) {
  deadline_ = deadline;
  sqlite3_progress_handler(db_, 10000, stop_if_past, this);
}

bool Connection::past_deadline() const { return deadline_ && std::chrono::steady_clock::now() > *deadline_; }

void Connection::check_deadline() const {
  if (past_deadline()) throw DbError(path_ + ": interrupted: past the time allowed", SQLITE_INTERRUPT);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  int rc = sqlite3_prepare_v3(db, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK)
    throw DbError(std::string("SQL error: ") + sqlite3_errmsg(db) + " in: " + std::string(sql), sqlite3_extended_errcode(db));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    sqlite3_finalize(stmt_);
    db_ = o.db_;
    stmt_ = o.stmt_;
    o.stmt_ = nullptr;
  }
  return *this;
}

void Statement::check(int rc, const char* what) const {
  if (rc != SQLITE_OK) throw DbError(std::string(what) + ": " + sqlite3_errmsg(db_), sqlite3_extended_errcode(db_));
}

Statement& Statement::bind(int i, std::int64_t v) {
  check(sqlite3_bind_int64(stmt_, i, v), "bind");
  return *this;
}
Statement& Statement::bind(int i, double v) {
  check(sqlite3_bind_double(stmt_, i, v), "bind");
  return *this;
}
Statement& Statement::bind(int i, std::string_view text) {
  check(sqlite3_bind_text(stmt_, i, text.data(), int(text.size()), SQLITE_TRANSIENT), "bind");
  return *this;
}
Statement& Statement::bind_blob(int i, const void* data, std::size_t size) {
  check(sqlite3_bind_blob(stmt_, i, data, int(size), SQLITE_TRANSIENT), "bind");
  return *this;
}
Statement& Statement::bind_static(int i, std::string_view text) {
  check(sqlite3_bind_text(stmt_, i, text.data(), int(text.size()), SQLITE_STATIC), "bind");
  return *this;
}
Statement& Statement::bind_blob_static(int i, std::string_view data) {
  check(sqlite3_bind_blob(stmt_, i, data.data(), int(data.size()), SQLITE_STATIC), "bind");
  return *this;
}
Statement& Statement::bind_null(int i) {
  check(sqlite3_bind_null(stmt_, i), "bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string msg = sqlite3_errmsg(db_);
  rc = sqlite3_extended_errcode(db_);  // sqlite3_step already gives it; read before reset
  sqlite3_reset(stmt_);
  throw DbError(msg, rc);
}

void Statement::run() {
  while (step()) {}
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }
std::string_view Statement::text(int col) const {
  auto p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  return p ? std::string_view(p, std::size_t(sqlite3_column_bytes(stmt_, col))) : std::string_view();
}
std::string_view Statement::blob(int col) const {
  auto p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  return p ? std::string_view(p, std::size_t(sqlite3_column_bytes(stmt_, col))) : std::string_view();
}
bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

bool Connection::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

Transaction::Transaction(Connection& c, bool immediate) : c_(c) { c_.exec(immediate ? "BEGIN IMMEDIATE" : "BEGIN"); }

Transaction::~Transaction() {
  if (!done_) {
    try {
      c_.exec("ROLLBACK");
    } catch (...) {  // nothing more to do in a destructor
    }
  }
}

void Transaction::commit() {
  c_.exec("COMMIT");
  done_ = true;
}

}  // namespace qipu::db
