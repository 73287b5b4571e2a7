// A small RAII layer over SQLite's C API: a connection, prepared statements that are
// reset and reused, and transactions that roll back unless committed.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace qipu::db {

// The one exception type of the db module: SQLite said no, with its message and its
// result code, or qipu found the database wrong (a damaged game, a newer schema), code 0.
class DbError : public std::runtime_error {
 public:
  explicit DbError(const std::string& what, int sqlite_code = 0) : std::runtime_error(what), code_(sqlite_code) {}
  // SQLite's extended result code (SQLITE_FULL, SQLITE_IOERR_WRITE, ...), or 0.
  [[nodiscard]] int code() const noexcept { return code_; }
  // A stable name for programs: "sqlite_full", "sqlite_busy", ... from the primary code,
  // "sqlite_error" for one this build does not know, "db_invalid" for qipu's own.
  [[nodiscard]] std::string_view code_name() const noexcept;

 private:
  int code_;
};

class Statement;

class Connection {
 public:
  // Immutable: read-only, and nothing can change the file while it is open (a read-only
  // folder or file system): SQLite then takes no locks and makes no -wal or -shm file.
  enum class Mode { ReadOnly, Immutable, ReadWrite };
  Connection(const std::string& path, Mode mode);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void exec(const std::string& sql);
  [[nodiscard]] Statement prepare(std::string_view sql);
  [[nodiscard]] std::int64_t last_insert_id() const;
  [[nodiscard]] sqlite3* handle() const { return db_; }
  // Whether a transaction is open (BEGIN without its COMMIT or ROLLBACK yet).
  [[nodiscard]] bool in_transaction() const;
  [[nodiscard]] const std::string& path() const { return path_; }

  // Work on this connection past `deadline` fails with a DbError of code SQLITE_INTERRUPT:
  // its SQL (through SQLite's progress handler) and the replays that position searches do
  // between rows, which SQLite does not see (they call check_deadline).
  void set_deadline(std::chrono::steady_clock::time_point deadline);
  [[nodiscard]] bool past_deadline() const;
  // Throws that DbError when past the deadline; does nothing when none is set.
  void check_deadline() const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& o) noexcept;
  Statement& operator=(Statement&& o) noexcept;
  Statement(const Statement&) = delete;

  // Binding is 1-based, as in SQLite.
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, std::int64_t(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view text);
  Statement& bind_blob(int i, const void* data, std::size_t size);
  // The same without SQLite's copy, for a writer's hot path: the bytes must stay as they
  // are until the statement has run (run() or reset() drops them).
  Statement& bind_static(int i, std::string_view text);
  Statement& bind_blob_static(int i, std::string_view data);
  Statement& bind_null(int i);

  // True while a row is available.
  bool step();
  // Steps to the end, for statements that return no rows.
  void run();
  void reset();

  [[nodiscard]] std::int64_t int64(int col) const;
  [[nodiscard]] double real(int col) const;
  [[nodiscard]] std::string_view text(int col) const;
  [[nodiscard]] std::string_view blob(int col) const;
  [[nodiscard]] bool is_null(int col) const;

 private:
  void check(int rc, const char* what) const;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// Rolls back unless commit() was called.
class Transaction {
 public:
  explicit Transaction(Connection& c, bool immediate = true);
  ~Transaction();
  void commit();
  Transaction(const Transaction&) = delete;

 private:
  Connection& c_;
  bool done_ = false;
};

}  // namespace qipu::db
