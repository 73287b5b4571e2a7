// Database errors keep SQLite's result code (issue #15), so that a program can tell a
// full disk from a locked database from a file that is not a database. The codes expected
// here are the ones SQLite's documentation gives for each situation.
#include <sqlite3.h>

#include "cli_util.hpp"
#include "qipu/db/sqlite.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_db_errors {

using namespace cli_test;
using qipu::db::Connection;
using qipu::db::DbError;

namespace {

// The DbError that running `sql` on the database at `path` throws (code -1: none thrown).
DbError error_of(const fs::path& path, Connection::Mode mode, const std::string& sql) {
  try {
    Connection c(path.string(), mode);
    c.exec(sql);
  } catch (const DbError& e) {
    return e;
  }
  return DbError("nothing thrown", -1);
}

}  // namespace

TEST_CASE("db errors: a file that is not a database is SQLITE_NOTADB", "[db][errors]") {
  fs::path dir = temp_dir("db_errors");
  fs::path notes = dir / "notes.txt";
  std::ofstream(notes) << std::string(4096, 'x');
  DbError e = error_of(notes, Connection::Mode::ReadOnly, "SELECT count(*) FROM sqlite_master");
  CHECK((e.code() & 0xff) == SQLITE_NOTADB);
  CHECK(e.code_name() == "sqlite_notadb");

  // The program names it too, after its message, and fails with exit 2.
  Run r = run_qipu("search --db " + notes.string() + " --player x");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "[sqlite_notadb]"));
  fs::remove_all(dir);
}

TEST_CASE("db errors: writing through a read-only connection is SQLITE_READONLY", "[db][errors]") {
  fs::path dir = temp_dir("db_errors_ro");
  fs::path db = dir / "t.db";
  {
    Connection c(db.string(), Connection::Mode::ReadWrite);
    c.exec("CREATE TABLE t(x INTEGER)");
  }
  DbError e = error_of(db, Connection::Mode::ReadOnly, "INSERT INTO t VALUES (1)");
  CHECK((e.code() & 0xff) == SQLITE_READONLY);
  CHECK(e.code_name() == "sqlite_readonly");

  // A constraint, through a prepared statement rather than exec.
  Connection c(db.string(), Connection::Mode::ReadWrite);
  c.exec("CREATE TABLE u(x INTEGER PRIMARY KEY)");
  c.exec("INSERT INTO u VALUES (1)");
  try {
    c.prepare("INSERT INTO u VALUES (1)").run();
    FAIL("a duplicate primary key was stored");
  } catch (const DbError& err) {
    CHECK(err.code() == SQLITE_CONSTRAINT_PRIMARYKEY);
    CHECK(err.code_name() == "sqlite_constraint");
  }
  fs::remove_all(dir);
}

TEST_CASE("db errors: qipu's own findings carry code 0 and no SQLite name", "[db][errors]") {
  fs::path dir = temp_dir("db_errors_own");
  fs::path db = dir / "other.db";
  {
    Connection c(db.string(), Connection::Mode::ReadWrite);
    c.exec("CREATE TABLE t(x INTEGER)");  // an SQLite database, but not qipu's
  }
  Run r = run_qipu("search --db " + db.string() + " --player x");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "another program"));
  CHECK_FALSE(contains(r.err, "[sqlite_"));
  CHECK(DbError("game 3 is damaged").code_name() == "db_invalid");
  fs::remove_all(dir);
}

}  // namespace test_db_errors
