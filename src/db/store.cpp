#include "qipu/db/store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <thread>
#include <utility>

#include "qipu/db/codec.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/db/search.hpp"
#include "qipu/game/duplicate.hpp"
#include "deep_positions.hpp"
#include "opening_symbols.hpp"

namespace qipu::db {

extern const char* const kSchema;

namespace {

constexpr std::int64_t ApplicationId = 0x71697075;  // "qipu"
// The page size of the databases qipu makes (SQLite's default is 4,096): the position
// index's runs are written and merged a page-sized chunk at a time, and half the rows
// and reads took the 1 M-game step into 2 M from 31.0 s to 29.1 (16 KB: 27.5). But a
// query reads whole pages for rows of a few hundred bytes: the Breyer's explore at 1 M
// games took 10.9 ms in 4 KB pages, 13.8 in 8 KB and 15.9 in 16 KB (bench_import.md,
// 2026-12-05). Databases made before keep their pages, and chunks to fit them.
constexpr int NewPageSize = 8192;
constexpr std::array<std::string_view, 7> Roster = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
// Tags kept in columns besides the roster, with the letter tag_layout uses for each.
constexpr std::array<std::string_view, 3> ColumnTags = {"WhiteElo", "BlackElo", "ECO"};
constexpr char LayoutLetters[] = "WBE";

std::int64_t pragma_int(Connection& db, const char* name) {
  auto st = db.prepare(std::string("PRAGMA ") + name);
  return st.step() ? st.int64(0) : 0;
}

// What a file says it is, read in one statement and so from one snapshot: a database
// another process is creating shows all of its schema or none of it (the tables, the
// application id and the version are written in one transaction), never tables
// without the id, which would look like another program's database.
struct Identity {
  std::int64_t app = 0, version = 0, tables = 0;
  [[nodiscard]] bool empty() const { return app == 0 && version == 0 && tables == 0; }
};

Identity read_identity(Connection& db, const std::string& path) {
  try {
    auto st = db.prepare(
        "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), "
        "(SELECT count(*) FROM sqlite_master)");
    if (!st.step()) return {};
    return {st.int64(0), st.int64(1), st.int64(2)};
  } catch (const DbError& e) { throw DbError(path + " is not a qipu database (" + e.what() + ")", e.code()); }
}

// Checks that the file is a qipu database this program can read (or an empty file).
void check_identity(const Identity& id, const std::string& path) {
  if (id.empty()) return;
  if (id.app != ApplicationId) throw DbError(path + " is an SQLite database of another program, not qipu's");
  if (id.version <= 0)
    throw DbError(path + " has an unknown schema version (" + std::to_string(id.version) +
                  "): it is damaged, or not qipu's");
  if (id.version > SchemaVersion)
    throw DbError(path + " was made by a newer qipu (schema version " + std::to_string(id.version) +
                  "); this qipu reads up to version " + std::to_string(SchemaVersion) + ": upgrade qipu");
  // Version 1 coded moves differently; its games cannot be read without the old code.
  if (id.version < 2)
    throw DbError(path + " was made by an older qipu (schema version " + std::to_string(id.version) +
                  ") whose move code this qipu does not read: import the PGN files again into a new database");
}

// What a path that is not a regular file is, for the message refusing it ("" when it
// is one, or is missing). Opening a FIFO would wait for a writer for ever.
std::string not_regular(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return {};
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a file";
}

// True when nothing can change the database while a reader has it open, so that it can
// be read without locks and without the -wal and -shm files SQLite would otherwise make
// (or need) beside it: its folder or file system is read-only to us (no writer could make
// a -wal there either), or the file is writable by nobody (root aside). Only when no -wal
// or rollback journal holds pages the file itself lacks.
bool unchangeable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const char* log : {"-wal", "-journal"})
    if (fs::exists(path + log, ec) && fs::file_size(path + log, ec) != 0) return false;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return false;
  fs::path dir = fs::path(path).parent_path();
  return access(dir.empty() ? "." : dir.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0;
}

// True while `qipu import` holds its lock on the file (src/cli/import.cpp, ImportLock).
bool import_running(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  bool locked = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd);  // also drops the shared lock, if it was taken
  return locked;
}

// Opens a database for reading and reads its identity. An import makes the file
// (empty), then locks it, then writes the schema: a reader that comes in between waits
// for the schema while the import holds its lock, up to SQLite's busy timeout, rather
// than call the file empty. (The first 200 ms cover the moment between making the file
// and locking it.) The connection is closed while the lock is probed: closing any
// descriptor of a file drops the process's fcntl locks on it, SQLite's among them.
std::unique_ptr<Connection> open_reader(const std::string& path, Connection::Mode mode, Identity& id) {
  for (int waited = 0;; waited += 50) {
    auto db = std::make_unique<Connection>(path, mode);
    id = read_identity(*db, path);
    if (!id.empty()) return db;
    db.reset();
    bool importing = import_running(path);
    if (importing && waited >= 10000)
      throw DbError(path + " is being created by an import that is still running: try again in a moment");
    if (!importing && waited >= 200)
      throw DbError(path + " is empty: import games first (qipu import --db " + path + " FILE.pgn)");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// The schema's statements from one marker line to the next (or to the end).
std::string schema_section(std::string_view marker) {
  std::string_view all = kSchema;
  auto at = all.find(marker);
  if (at == std::string_view::npos) return {};
  auto end = all.find("-- @", at + marker.size());
  return std::string(all.substr(at, end == std::string_view::npos ? end : end - at));
}

// What opening for writing runs each time (schema.sql's @every-open section).
std::string every_open_sql() { return schema_section("-- @every-open"); }

// The explorer's aggregate's tables (schema.sql's @explore section).
void create_aggregate(Connection& db) { db.exec(schema_section("-- @explore")); }

// Version 2 to 3: the explorer's aggregate, filled from the stored games.
void upgrade_to_3(Connection& db) {
  create_aggregate(db);
  build_aggregate(db);
  db.exec("PRAGMA user_version = 3");
}

// Version 3 to 4: the player index, filled from the stored games, replaces the SQLite
// indexes on game(white) and game(black).
void upgrade_to_4(Connection& db) {
  db.exec(schema_section("-- @players"));
  build_player_index(db);
  db.exec("PRAGMA user_version = 4");
}

// Version 4 to 5: the table of merges in progress, empty.
void upgrade_to_5(Connection& db) {
  db.exec(schema_section("-- @merges"));
  db.exec("PRAGMA user_version = 5");
}

// Version 5 to 6: nothing to convert, as chunks written before still decode; from now on
// new chunks code game ids from the chunk's first, which a qipu before 6 must not read.
void upgrade_to_6(Connection& db) { db.exec("PRAGMA user_version = 6"); }

// Creates the schema in a new file, or upgrades an older one (a version 2 database made
// before the unindexed table gets that too); then adds the tables of @every-open.
void create_schema(Connection& db) {
  Transaction tx(db);
  if (pragma_int(db, "user_version") == 0) {
    db.exec(kSchema);
    db.exec("PRAGMA application_id = " + std::to_string(ApplicationId));
    db.exec("PRAGMA user_version = " + std::to_string(SchemaVersion));
  }
  add_unindexed_table(db);  // a database made before that table
  if (pragma_int(db, "user_version") == 2) upgrade_to_3(db);
  if (pragma_int(db, "user_version") == 3) upgrade_to_4(db);
  if (pragma_int(db, "user_version") == 4) upgrade_to_5(db);
  if (pragma_int(db, "user_version") == 5) upgrade_to_6(db);
  tx.commit();
  db.exec(every_open_sql());
}

// Date as YYYYMMDD with unknown month or day as 00; nullopt without a year.
std::optional<std::int64_t> sortable_date(std::string_view d) {
  if (d.size() < 4) return std::nullopt;
  auto num = [&](std::size_t at, std::size_t n) -> int {
    if (d.size() < at + n) return 0;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (d[i] < '0' || d[i] > '9') return -1;
      v = v * 10 + (d[i] - '0');
    }
    return v;
  };
  int y = num(0, 4);
  if (y <= 0) return std::nullopt;
  int m = num(5, 2), day = num(8, 2);
  return std::int64_t(y) * 10000 + std::max(m, 0) * 100 + std::max(day, 0);
}

std::optional<std::int64_t> clean_int(std::string_view s) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (s.size() > 1 && s[0] == '0') return std::nullopt;  // "0100" would not come back the same
  return v;
}

bool clean_eco(std::string_view s) {
  return s.size() == 3 && s[0] >= 'A' && s[0] <= 'E' && std::isdigit(static_cast<unsigned char>(s[1])) &&
         std::isdigit(static_cast<unsigned char>(s[2]));
}

// The Date tag a date_sort value stands for, in 10 characters ("1990.05.??"); years are
// 1 to 9999 (sortable_date reads four digits), months and days below 100.
void format_date(std::int64_t date_sort, char* out) {
  auto two = [](char* p, int v) {
    p[0] = v == 0 ? '?' : char('0' + v / 10);
    p[1] = v == 0 ? '?' : char('0' + v % 10);
  };
  int year = int(date_sort / 10000);
  for (int i = 3; i >= 0; --i, year /= 10) out[i] = char('0' + year % 10);
  out[4] = out[7] = '.';
  two(out + 5, int(date_sort / 100 % 100));
  two(out + 8, int(date_sort % 100));
}

}  // namespace

std::string database_path(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("QIPU_DB"); env && *env) return env;
  return "qipu.db";
}

std::unique_ptr<Connection> open_database(const std::string& path, Connection::Mode mode) {
  if (auto what = not_regular(path); !what.empty())
    throw DbError("--db " + path + ": not a regular file (" + what + ")");
  bool reading = mode != Connection::Mode::ReadWrite;
  if (reading && !std::filesystem::exists(path))
    throw DbError("no database at " + path + " (make one with: qipu import --db " + path + " FILE.pgn)");
  Identity id;
  std::unique_ptr<Connection> db;
  if (reading) {
    db = open_reader(path, unchangeable(path) ? Connection::Mode::Immutable : Connection::Mode::ReadOnly, id);
  } else {
    db = std::make_unique<Connection>(path, mode);
    id = read_identity(*db, path);
  }
  check_identity(id, path);
  if (!reading) {
    // Pages freed by merging index segments go back to the disk; this must be set
    // before the first table and before WAL mode writes the header. Full mode is what a
    // crash in the middle of give_back_free_pages leaves: every commit would move pages.
    if (id.empty()) db->exec("PRAGMA page_size = " + std::to_string(NewPageSize));
    if (id.empty() || pragma_int(*db, "auto_vacuum") == 1) db->exec("PRAGMA auto_vacuum = INCREMENTAL");
    db->exec("PRAGMA journal_mode = WAL");
    db->exec("PRAGMA synchronous = NORMAL");
    create_schema(*db);
  }
  db->exec("PRAGMA foreign_keys = ON");
  return db;
}

void GameEncoder::move(const Position& before, Move m, bool aggregate) {
  if (!error_.empty()) return;
  if (plies_ == 0) {
    past_aggregate_ = !aggregate;
    opening_ = OpeningSymbols::for_this_thread().start(before);
  }
  if (plies_ == keys_.size()) make_room();
  try {
    auto symbol = opening_ ? OpeningSymbols::for_this_thread().symbol(opening_, before, m) : move_symbol(before, m);
    symbols_[plies_] = char(symbol);
    keys_[plies_++] = before.key();
    if (!past_aggregate_ && !(past_aggregate_ = past_aggregate(before)))
      add_aggregate_position(explore_, before, std::uint8_t(symbol));
  } catch (const DbError& err) { error_ = err.what(); }
}

// Room for most games at once, then twice as much: growing by doubling from nothing cost
// ~1,500 instructions a game; appending (push_back, not inlined) ~50 a ply (bench_import.md, codec3).
void GameEncoder::make_room() {
  std::size_t n = std::max(ReservedPlies, 2 * keys_.size());
  symbols_.resize(n);
  keys_.resize(n);
}

Result<EncodedGame> GameEncoder::finish(const game::GameRecord& rec, const Position& final_position, bool aggregate) {
  if (!error_.empty()) return Failure{error_};
  EncodedGame e;
  try {
    keys_.resize(plies_);
    e.keys = std::move(keys_);
    e.keys.push_back(final_position.key());
    if (aggregate && !past_aggregate_) add_aggregate_position(explore_, final_position, EndSymbol);
    e.explore = std::move(explore_);
    e.material = material_signature(final_position);
    e.moves = pack_symbols(std::string_view(symbols_).substr(0, plies_));
    e.notes = encode_annotations(rec);  // variations are encoded here, and may throw too
  } catch (const DbError& err) { return Failure{err.what()}; }
  return e;
}

void encode_while_replaying(game::PipelineCallbacks<GameEncoding>& cb, const EcoTable* eco, bool aggregate) {
  cb.move = [aggregate](game::GameRecord&, GameEncoding& g, const Position& before, Move m) {
    g.encoder.move(before, m, aggregate);
  };
  cb.prepare = [eco, aggregate](game::GameRecord& rec, GameEncoding& g) {
    if (!rec.valid()) return;
    Result<EncodedGame>& rows = g.rows.emplace(g.encoder.finish(rec, rec.final_position, aggregate));
    if (const Opening* op = eco && rows ? eco->classify(rows->keys) : nullptr) {
      rows->eco = op->eco;
      rows->opening = op->name;
      rows->variation = op->variation;
    }
  };
}

Result<EncodedGame> encode_game(const game::GameRecord& rec) {
  GameEncoder encoder;
  Position pos = rec.start_position;
  for (const auto& node : rec.mainline) {
    if (node.move.is_none()) break;
    encoder.move(pos, node.move);
    pos.play(node.move);
  }
  return encoder.finish(rec, pos);
}

std::string written_date(std::int64_t date_sort) {
  char buf[10];
  format_date(date_sort, buf);
  return std::string(buf, sizeof buf);
}

// Where the first tag of each roster name is in a record's tags (npos: none), found in
// one pass: the roster's values and the other tags are both read from it.
struct RosterTags {
  std::array<std::size_t, Roster.size()> at;
  explicit RosterTags(const game::GameRecord& rec) {
    at.fill(std::string::npos);
    for (std::size_t i = 0; i < rec.tags.size(); ++i) {
      auto k = std::size_t(std::find(Roster.begin(), Roster.end(), rec.tags[i].first) - Roster.begin());
      if (k < Roster.size() && at[k] == std::string::npos) at[k] = i;
    }
  }
  [[nodiscard]] bool is_first(std::size_t i) const { return std::find(at.begin(), at.end(), i) != at.end(); }
  [[nodiscard]] std::optional<std::string_view> value(const game::GameRecord& rec, std::size_t k) const {
    if (at[k] == std::string::npos) return std::nullopt;
    return rec.tags[at[k]].second;
  }
};

// The roster as one game row stores it: names as interned ids, the date as date_sort
// plus its text only when written_date does not give it back.
struct RosterRow {
  std::optional<std::int64_t> white, black, event, site, date_sort;
  std::optional<std::string_view> date_text, round, result, start_fen;
};

namespace {

std::optional<std::string_view> column_text(Statement& st, int col) {
  return st.is_null(col) ? std::nullopt : std::optional(st.text(col));
}

// The tags besides the roster: the first clean WhiteElo, BlackElo and ECO go to
// columns, the rest to the tag table with their place (seq) among the other tags.
struct OtherTags {
  std::optional<std::int64_t> elo[2];
  bool empty_elo[2] = {false, false};             // [WhiteElo ""]: common, kept as a letter
  std::string eco, layout;                        // layout: the column tags' order, as W B E (w b: empty)
  std::vector<std::pair<int, std::size_t>> rows;  // seq, index in rec.tags
};

OtherTags split_other_tags(const game::GameRecord& rec, const RosterTags& roster) {
  OtherTags o;
  int seq = 0;
  for (std::size_t i = 0; i < rec.tags.size(); ++i) {
    if (roster.is_first(i)) continue;
    const auto& [name, value] = rec.tags[i];
    int col = int(std::find(ColumnTags.begin(), ColumnTags.end(), name) - ColumnTags.begin());
    bool taken = col == 2 ? !o.eco.empty() : col < 2 && (o.elo[col] || o.empty_elo[col]);
    if (col < 2 && !taken && clean_int(value)) {
      o.elo[col] = clean_int(value);
      o.layout += LayoutLetters[col];
    } else if (col < 2 && !taken && value.empty()) {
      o.empty_elo[col] = true;
      o.layout += char(std::tolower(LayoutLetters[col]));
    } else if (col == 2 && !taken && clean_eco(value)) {
      o.eco = value;
      o.layout += 'E';
    } else {
      o.rows.emplace_back(seq, i);
    }
    ++seq;
  }
  // Column tags in W, B, E order are the usual case; only other orders, and empty Elos,
  // are recorded.
  auto place = [](char c) { return std::string_view(LayoutLetters).find(c); };
  bool usual = std::is_sorted(o.layout.begin(), o.layout.end(), [&](char a, char b) { return place(a) < place(b); }) &&
               o.layout.find_first_of("wb") == std::string::npos;
  if (usual) o.layout.clear();
  return o;
}

// The row's text is bound without a copy (Statement::bind_static): every view points
// into the record or the encoded game, which outlive the insert.
void bind_opt(Statement& st, int col, std::optional<std::int64_t> v) {
  if (v)
    st.bind(col, *v);
  else
    st.bind_null(col);
}

void bind_opt(Statement& st, int col, std::optional<std::string_view> v) {
  if (v)
    st.bind_static(col, *v);
  else
    st.bind_null(col);
}

void bind_nonempty(Statement& st, int col, std::string_view v, bool blob = false) {
  if (v.empty())
    st.bind_null(col);
  else if (blob)
    st.bind_blob_static(col, v);
  else
    st.bind_static(col, v);
}

// Each side's first FIDE id among the tags the tag table keeps, as db/player_totals.cpp
// reads them back.
std::array<std::string_view, 2> fide_ids(const game::GameRecord& rec, const OtherTags& other) {
  std::array<std::string_view, 2> out;
  for (auto [seq, i] : other.rows) {
    const auto& [name, value] = rec.tags[i];
    int side = name == "WhiteFideId" ? 0 : name == "BlackFideId" ? 1 : -1;
    if (side >= 0 && out[std::size_t(side)].empty() && is_fide_id(value)) out[std::size_t(side)] = value;
  }
  return out;
}

}  // namespace

struct Importer::Statements {
  Statement add_player, add_event, add_site, add_source, add_opening, add_material;
  Statement add_game, add_tag, add_reject, add_unindexed, add_hashes;
  explicit Statements(Connection& db)
      : add_player(db.prepare("INSERT INTO player(name) VALUES (?)")),
        add_event(db.prepare("INSERT INTO event(name) VALUES (?)")),
        add_site(db.prepare("INSERT INTO site(name) VALUES (?)")),
        add_source(db.prepare("INSERT INTO source(path) VALUES (?)")),
        add_opening(db.prepare("INSERT INTO opening(name, variation) VALUES (?, ?)")),
        add_material(db.prepare("INSERT INTO material(name) VALUES (?)")),
        add_game(db.prepare("INSERT INTO game(white, black, event, site, date_sort, date_text, round, result, "
                            "start_fen, white_elo, black_elo, "
                            "eco, eco_guessed, opening_id, material, plies, termination, moves, notes, "
                            "movetext_result, tag_layout, source, "
                            "offset) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")),
        add_tag(db.prepare("INSERT INTO tag(game, seq, name, value) VALUES (?,?,?,?)")),
        add_reject(
            db.prepare("INSERT OR IGNORE INTO reject(source, offset, game_index, white, black, text, errors, encoding) "
                       "VALUES (?,?,?,?,?,?,?,?)")),
        add_unindexed(db.prepare("INSERT INTO unindexed(first_game, last_game) VALUES (?, ?)")),
        add_hashes(db.prepare("INSERT INTO game_hash(first_game, last_game, hashes) VALUES (?, ?, ?)")) {}
};

namespace {

// About the number of games, read in one seek (no game is ever deleted).
std::int64_t max_game_id(Connection& db) {
  auto st = db.prepare("SELECT coalesce(max(id), 0) FROM game");
  return st.step() ? st.int64(0) : 0;
}

}  // namespace

// Copies the WAL's committed pages into the database file (a PASSIVE checkpoint) on a
// thread and connection of its own, after each batch's commit, while the importer's thread
// goes on with the next batch: done in the commit, as SQLite's automatic checkpoint does,
// it was about two thirds of the commit's time and 5 us a game on the thread that limits
// the import's speed (bench_import.md, 2026-12-02). What a killed import keeps is the
// same: a checkpoint copies only committed pages, and the WAL keeps them until it has.
class Importer::Checkpointer {
 public:
  explicit Checkpointer(const std::string& path) : db_(path, Connection::Mode::ReadWrite) {
    // A connection opens the WAL with its first read; until then a checkpoint does nothing.
    db_.exec("SELECT count(*) FROM sqlite_master");
    thread_ = std::thread([this] { run(); });
  }
  ~Checkpointer() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void request() {
    {
      std::lock_guard lock(mu_);
      pending_ = true;
    }
    cv_.notify_all();
  }
  // Waits until the requested checkpoints are done.
  void wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !pending_ && !busy_; });
  }

 private:
  void run() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return pending_ || stop_; });
      if (!pending_) return;
      pending_ = false;
      busy_ = true;
      lock.unlock();
      // Errors are not the import's: pages not copied now are copied by a later
      // checkpoint (the importer's last one, in finish), never lost.
      (void)sqlite3_wal_checkpoint_v2(db_.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }

  Connection db_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool pending_ = false, busy_ = false, stop_ = false;
  std::thread thread_;
};

namespace {

// True when the connection writes through a WAL to a file, so that another connection
// can checkpoint it (not an in-memory or temporary database, not another journal mode).
bool wal_file(Connection& db) {
  auto st = db.prepare("PRAGMA journal_mode");
  return st.step() && st.text(0) == "wal" && !db.path().empty() && db.path() != ":memory:" &&
         std::filesystem::exists(db.path());
}

// Every this many batches, or games, the importer waits for the checkpoint of the last
// batch before it goes on: SQLite starts the WAL again from its beginning only when a
// transaction begins with every page copied, so that without these pauses it would grow
// for ever.
constexpr std::size_t RestartWalEvery = 8, RestartWalGames = 160000;

// Games whose position index entries, aggregate and merges wait in memory: within a
// larger transaction they are written every this many (about 27 MB of entries).
constexpr std::size_t FlushGames = 20000;

// The importer's page cache, in SQLite's units (negative: KiB).
constexpr std::int64_t ImportCacheSize = -32768;

// Games per transaction when the caller leaves it to the importer: a fiftieth of the
// database, up to a quarter of RestartWalGames. The checkpointer can copy a transaction only
// once it is committed, so the importer's wait before the WAL restarts is the copy of the
// whole last one: with 200,000 games (the cap while the players were indexed by SQLite
// indexes, whose pages each commit rewrote) that was 5 s of a 1 M step into 10 M, with
// 40,000 it is 1.5 s (bench_import.md, 2026-12-05).
std::size_t batch_for(std::int64_t existing) {
  constexpr std::int64_t Least = 20000, Most = std::int64_t(RestartWalGames / 4);
  return std::size_t(std::clamp(existing / 50, Least, Most));
}

// Moves the pages in use at the end of the file into the free ones and shortens the file,
// in the commit of a switch to full auto-vacuum, then switches back to incremental (the
// mode open_database gives a database, and takes back to if a crash comes between the
// two). `PRAGMA incremental_vacuum` does the same but searches the free list for each page
// it moves: 20.6 CPU-s for 174,000 free pages (700 MB, after a level-2 merge of the
// position index) where the commit takes 4.3 (bench_import.md, 2026-12-02, scale4).
void give_back_free_pages(Connection& db) {
  if (pragma_int(db, "auto_vacuum") != 2) return;  // made before incremental auto-vacuum: nothing to give
  db.exec("PRAGMA auto_vacuum = FULL");
  db.exec("PRAGMA auto_vacuum = INCREMENTAL");
}

}  // namespace

// Opening names are kept as one key: name, unit separator, variation.
constexpr char OpeningSeparator = '\x1f';

Importer::Importer(Connection& db, ImportOptions options) : db_(db), opt_(options) {
  // Every id a game row refers to is one this importer read or inserted itself, so
  // SQLite's check of each reference (a B-tree lookup per column per row, a third of
  // the writer's time) is skipped while it runs; finish() and the destructor turn it
  // back on. (The pragma is a no-op inside a transaction, hence outside begin().)
  db_.exec("PRAGMA foreign_keys = OFF");
  if (!reject_encoding_column(db_)) db_.exec("ALTER TABLE reject ADD COLUMN encoding TEXT");
  st_ = std::make_unique<Statements>(db_);
  load_names(players_, "SELECT id, name FROM player");
  load_names(events_, "SELECT id, name FROM event");
  load_names(sites_, "SELECT id, name FROM site");
  load_names(sources_, "SELECT id, path FROM source");
  load_names(materials_, "SELECT id, name FROM material");
  load_names(openings_, "SELECT id, name || char(31) || variation FROM opening");
  existing_ = max_game_id(db_);
  batch_ = opt_.batch_games ? opt_.batch_games : batch_for(existing_);
  secure_delete_before_ = pragma_int(db_, "secure_delete");
  // Debian's SQLite zeroes every page a delete frees and writes it through the WAL into
  // the file; the importer deletes only what merges replace (runs of the position index
  // and the aggregate, made from games that stay), so FAST zeroes deleted entries only in
  // pages written anyway: a 1 M-game step into 6 M wrote 7.5 GB instead of 9.9, and its
  // wall time fell 10-20 % (bench_import.md, 2026-12-02, secure_delete).
  db_.exec("PRAGMA secure_delete = FAST");
  // With SQLite's default cache of 2 MB a 1 M step into 10 M games read 10.4 GB and wrote
  // 4.9; with 32 MB it reads 7 % and writes 6 % less, and took 7 % less CPU (peak RSS about
  // 30 MiB more, 476 at most; bench_import.md, 2026-12-05).
  cache_size_before_ = pragma_int(db_, "cache_size");
  db_.exec("PRAGMA cache_size = " + std::to_string(ImportCacheSize));
  if (existing_ == 0) choose_aggregate();
  aggregate_ = has_aggregate(db_);
  if (wal_file(db_)) {
    checkpointer_ = std::make_unique<Checkpointer>(db_.path());
    db_.exec("PRAGMA wal_autocheckpoint = 0");
  }
  begin();
  if (!opt_.allow_duplicates && existing_ != 0) load_hashes();
  if (aggregate_ && deep_tables_ours(db_)) {
    deep_ = std::make_unique<DeepPositions>();
    deep_->load(db_, existing_);
  }
}

// Gives the connection back as the importer found it (for its next user: serve's uploads
// keep theirs).
void Importer::restore_connection() {
  db_.exec("PRAGMA secure_delete = " + std::to_string(secure_delete_before_));
  db_.exec("PRAGMA cache_size = " + std::to_string(cache_size_before_));
  db_.exec("PRAGMA foreign_keys = ON");
  db_.exec("PRAGMA wal_autocheckpoint = 1000");  // SQLite's default
}

Importer::~Importer() {
  if (!tx_) return;  // finished
  tx_.reset();       // rolls back the unfinished batch
  checkpointer_.reset();
  try {
    restore_connection();
  } catch (...) {  // nothing more to do in a destructor
  }
}

// At most three quarters full: with linear probing a look-up still reads one or two cache
// lines, and ten million hashes take 128 MB, where half full took 256 (the 9 M step of the
// 10 M benchmark peaked at 557 MB, growing the set from 128 to 256 MB mid-import).
bool HashSet64::full_with(std::size_t n, std::size_t slots) { return 4 * n > 3 * slots; }

void HashSet64::reserve(std::size_t n) {
  std::size_t slots = 16;
  while (full_with(n, slots)) slots *= 2;
  if (slots > slot_count_) grow(slots);
}

void HashSet64::Free::operator()(std::uint64_t* p) const { std::free(p); }

// Zeroed slots, on the kernel's huge pages when large: zeroing 4 KB pages took a fault
// each, and each probe of a large set after that was a TLB miss.
HashSet64::Slots HashSet64::zeroed_slots(std::size_t n) {
  constexpr std::size_t Huge = std::size_t(1) << 21;
  // n is a power of two (grow's callers), so bytes is a multiple of the alignment.
  const std::size_t bytes = n * sizeof(std::uint64_t);
  Slots s(static_cast<std::uint64_t*>(std::aligned_alloc(std::min(bytes, Huge), bytes)));
  if (!s) throw std::bad_alloc();
  if (bytes >= Huge) madvise(s.get(), bytes, MADV_HUGEPAGE);  // advice only: without it, 4 KB pages
  std::memset(s.get(), 0, bytes);
  return s;
}

void HashSet64::grow(std::size_t slots) {
  Slots old = zeroed_slots(slots);
  std::size_t old_count = std::exchange(slot_count_, slots);
  old.swap(slots_);
  size_ = 0;
  for (std::size_t i = 0; i < old_count; ++i)
    if (old[i]) insert(old[i]);
}

// The slot where h's probe starts. FNV-1a's low bits depend on the input's low bits only:
// mixed first (Murmur3's finaliser).
std::size_t HashSet64::home(std::uint64_t h) const {
  std::uint64_t m = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  m ^= m >> 33;
  return std::size_t(m) & (slot_count_ - 1);
}

bool HashSet64::insert(std::uint64_t h) {
  if (h == 0) return !std::exchange(has_zero_, true);
  if (full_with(size_ + 1, slot_count_)) grow(std::max<std::size_t>(16, 2 * slot_count_));
  std::size_t i = slot_of(h);
  if (slots_[i] == h) return false;
  slots_[i] = h;
  ++size_;
  return true;
}

// The slot holding h, else the empty one where its probe ends (the set has slots, h is not 0).
std::size_t HashSet64::slot_of(std::uint64_t h) const {
  std::size_t mask = slot_count_ - 1, i = home(h);
  while (slots_[i] != h && slots_[i] != 0) i = (i + 1) & mask;
  return i;
}

bool HashSet64::contains(std::uint64_t h) const {
  if (h == 0) return has_zero_;
  return slot_count_ > 0 && slots_[slot_of(h)] == h;
}

// Linear probing's deletion without markers: each later hash of the run moves into the hole
// unless its probe starts after the hole (cyclically), where it would no longer be found.
bool HashSet64::erase(std::uint64_t h) {
  if (h == 0) return std::exchange(has_zero_, false);
  if (slot_count_ == 0) return false;
  std::size_t mask = slot_count_ - 1, hole = slot_of(h);
  if (slots_[hole] != h) return false;
  for (std::size_t j = (hole + 1) & mask; slots_[j] != 0; j = (j + 1) & mask) {
    std::size_t from_home = (j - home(slots_[j])) & mask, from_hole = (j - hole) & mask;
    if (from_home >= from_hole) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = 0;
  --size_;
  return true;
}

// Each probe of a large array is a cache miss; fetched a few inserts ahead, they overlap:
// an import of one game into a 10 M-game database, most of it this load before the first
// game, took 0.35 s instead of 0.67-0.75 (bench_import.md, 2026-12-03).
void HashSet64::insert(const std::uint64_t* begin, const std::uint64_t* end) {
  constexpr std::ptrdiff_t Ahead = 8;
  for (const std::uint64_t* h = begin; h != end; ++h) {
    if (end - h > Ahead && slot_count_ > 0) __builtin_prefetch(&slots_[home(h[Ahead])]);
    insert(*h);
  }
}

void Importer::load_names(NameIds& cache, const char* sql) {
  auto st = db_.prepare(sql);
  while (st.step()) cache.emplace(st.text(1), st.int64(0));
}

namespace {

// Games a row of game_hash holds at most (512 KB).
constexpr std::size_t HashesPerRow = std::size_t(1) << 16;

void put_hash(std::string& out, std::uint64_t h) {
  for (int i = 0; i < 8; ++i, h >>= 8) out += char(h & 0xff);
}

std::uint64_t get_hash(const char* p) {
  std::uint64_t h = 0;
  for (int i = 7; i >= 0; --i) h = h << 8 | static_cast<unsigned char>(p[i]);
  return h;
}

// The ids in [1, last] that no range covers, as ranges.
std::vector<IdRange> uncovered(std::vector<IdRange> covered, std::int64_t last) {
  std::sort(covered.begin(), covered.end(), [](const IdRange& a, const IdRange& b) { return a.first < b.first; });
  std::vector<IdRange> gaps;
  std::int64_t next = 1;  // the first id not yet known to be covered
  for (const auto& r : covered) {
    if (r.first > next) gaps.push_back({next, std::min(r.first - 1, last)});
    next = std::max(next, r.last + 1);
    if (next > last) return gaps;
  }
  if (next <= last) gaps.push_back({next, last});
  return gaps;
}

}  // namespace

void Importer::load_hashes() {
  // Room for the games coming too: growing holds the old array and the new one at once.
  hashes_.reserve(std::size_t(existing_ + opt_.expected_games));
  std::vector<IdRange> covered;
  auto rows = db_.prepare("SELECT first_game, last_game, hashes FROM game_hash");
  std::vector<std::uint64_t> row;
  while (rows.step()) {
    std::string_view blob = rows.blob(2);
    row.resize(blob.size() / 8);
    for (std::size_t i = 0; i < row.size(); ++i) row[i] = get_hash(blob.data() + 8 * i);
    hashes_.insert(row.data(), row.data() + row.size());
    covered.push_back({rows.int64(0), rows.int64(1)});
  }
  for (const auto& gap : uncovered(std::move(covered), existing_)) hash_stored_games(gap);
}

// Hashes the stored games of a range of ids from their rows, as an import hashes a new
// game from its record, and writes their game_hash rows.
void Importer::hash_stored_games(const IdRange& ids) {
  auto st = db_.prepare(
      "SELECT g.id, w.name, b.name, e.name, s.name, g.date_sort, g.date_text, g.round, g.result, g.start_fen, "
      "g.moves, g.movetext_result FROM game g LEFT JOIN player w ON w.id = g.white LEFT JOIN player b ON b.id = "
      "g.black LEFT JOIN event e ON e.id = g.event LEFT JOIN site s ON s.id = g.site WHERE g.id BETWEEN ? AND ? "
      "ORDER BY g.id");
  st.bind(1, ids.first).bind(2, ids.last);
  char date[10];
  while (st.step()) {
    game::GameIdentity g{column_text(st, 1), column_text(st, 2), column_text(st, 3), column_text(st, 4),
                         column_text(st, 6), column_text(st, 7), column_text(st, 8), column_text(st, 9),
                         st.text(11),        st.blob(10)};
    if (!g.date && !st.is_null(5)) {  // the Date tag as written, which written_date gives back
      format_date(st.int64(5), date);
      g.date = std::string_view(date, sizeof date);
    }
    std::uint64_t h = game::duplicate_key(g);
    hashes_.insert(h);
    keep_hash(st.int64(0), h);
  }
  flush_hashes();
}

// Adds a stored game's hash to the pending game_hash row; games come in id order.
void Importer::keep_hash(std::int64_t id, std::uint64_t hash) {
  if (pending_hashes_.first == 0) pending_hashes_.first = id;
  pending_hashes_.last = id;
  put_hash(pending_hashes_.bytes, hash);
  if (pending_hashes_.bytes.size() >= 8 * HashesPerRow) flush_hashes();
}

void Importer::flush_hashes() {
  if (pending_hashes_.first == 0) return;
  st_->add_hashes.bind(1, pending_hashes_.first).bind(2, pending_hashes_.last);
  st_->add_hashes.bind_blob_static(3, pending_hashes_.bytes).run();
  pending_hashes_.first = pending_hashes_.last = 0;
  pending_hashes_.bytes.clear();
}

// A database without games takes the explorer's aggregate with the position index and
// leaves it out without (--no-position-index: no position data at all); later imports
// keep that, so that the aggregate always covers every game (keeps_aggregate).
void Importer::choose_aggregate() {
  if (opt_.position_index == has_aggregate(db_)) return;
  if (opt_.position_index)
    create_aggregate(db_);
  else
    db_.exec("DROP TABLE explore_posting; DROP TABLE explore_segment");
}

void Importer::begin() { tx_ = std::make_unique<Transaction>(db_); }

std::int64_t Importer::intern(NameIds& cache, Statement& insert, std::string_view name) {
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  insert.bind_static(1, name).run();
  std::int64_t id = db_.last_insert_id();
  cache.emplace(name, id);
  return id;
}

// Opening names repeat across thousands of games: one row each, referred to by id.
std::int64_t Importer::intern_opening(const std::string& name, const std::string& variation) {
  std::string key = name + OpeningSeparator + variation;
  if (auto it = openings_.find(key); it != openings_.end()) return it->second;
  st_->add_opening.bind_static(1, name).bind_static(2, variation).run();
  std::int64_t id = db_.last_insert_id();
  openings_.emplace(key, id);
  return id;
}

RosterRow Importer::roster_row(const game::GameRecord& rec, const RosterTags& roster) {
  auto name = [&](std::size_t i, NameIds& cache, Statement& insert) -> std::optional<std::int64_t> {
    auto v = roster.value(rec, i);
    return v ? std::optional(intern(cache, insert, *v)) : std::nullopt;
  };
  auto text = [&](std::size_t i) { return roster.value(rec, i); };
  Statements& s = *st_;
  RosterRow r{name(4, players_, s.add_player),
              name(5, players_, s.add_player),
              name(0, events_, s.add_event),
              name(1, sites_, s.add_site),
              std::nullopt,
              std::nullopt,
              text(3),
              text(6),
              std::nullopt};
  if (auto date = text(2)) {
    r.date_sort = sortable_date(*date);
    char written[10];
    if (r.date_sort) format_date(*r.date_sort, written);
    if (!r.date_sort || std::string_view(written, sizeof written) != *date) r.date_text = date;
  }
  if (rec.start_fen) r.start_fen = *rec.start_fen;
  return r;
}

void Importer::add(const std::string& source, const game::GameRecord& rec, const EncodedGame& enc) {
  RosterTags roster(rec);
  RosterRow r = roster_row(rec, roster);
  std::uint64_t hash = game::duplicate_key(game::identity_of(rec, enc.moves));
  if (!opt_.allow_duplicates && !hashes_.insert(hash)) {
    ++stats_.duplicates;
    return;
  }
  Statements& s = *st_;
  Statement& g = s.add_game;
  int col = 1;
  for (auto v : {r.white, r.black, r.event, r.site, r.date_sort}) bind_opt(g, col++, v);
  for (auto v : {r.date_text, r.round, r.result, r.start_fen}) bind_opt(g, col++, v);
  OtherTags other = split_other_tags(rec, roster);
  bind_opt(g, 10, other.elo[0]);
  bind_opt(g, 11, other.elo[1]);
  // Without a clean ECO tag the classification fills the column, marked as guessed so
  // that export leaves it out.
  bool guessed = other.eco.empty() && !enc.eco.empty();
  bind_nonempty(g, 12, guessed ? enc.eco : other.eco);
  g.bind(13, std::int64_t(guessed));
  std::optional<std::int64_t> opening;
  if (!(enc.opening.empty() && enc.variation.empty())) opening = intern_opening(enc.opening, enc.variation);
  bind_opt(g, 14, opening);
  if (enc.material.empty())
    g.bind_null(15);
  else
    g.bind(15, intern(materials_, s.add_material, enc.material));
  g.bind(16, std::int64_t(rec.mainline.size()));
  g.bind(17, std::int64_t(rec.termination));
  g.bind_blob_static(18, enc.moves);
  bind_nonempty(g, 19, enc.notes, true);
  bind_nonempty(g, 20, rec.result != rec.tag("Result") ? std::string_view(rec.result) : std::string_view());
  bind_nonempty(g, 21, other.layout);
  g.bind(22, intern(sources_, s.add_source, source));
  g.bind(23, std::int64_t(rec.start.offset));
  g.run();
  std::int64_t id = db_.last_insert_id();
  keep_hash(id, hash);
  for (auto [seq, i] : other.rows)
    s.add_tag.bind(1, id).bind(2, seq).bind_static(3, rec.tags[i].first).bind_static(4, rec.tags[i].second).run();
  if (aggregate_) {
    GameOutcome outcome{r.result.value_or(std::string_view()), {other.elo[0], other.elo[1]}, r.date_sort};
    explore_.add(id, enc.explore, outcome);
    if (deep_) deep_->add_game(id, enc, outcome);
  }
  if (opt_.position_index)
    index_.add_game(enc.keys, id);
  else
    unindexed_ = {unindexed_.first ? unindexed_.first : id, id};  // one import's ids follow each other
  player_index_.add_game(id, r.white, r.black, r.result);
  summary_.add_game({id, r.result, std::int64_t(rec.termination), r.event, r.date_sort, opening});
  auto fide = fide_ids(rec, other);
  player_totals_.add_game(id, {r.white, other.elo[0], fide[0]}, {r.black, other.elo[1], fide[1]}, r.result,
                          r.date_sort);
  ++stats_.imported;
  next_game();
}

void Importer::reject(const std::string& source, const game::GameRecord& rec, const std::string& errors) {
  Statements& s = *st_;
  s.add_reject.bind(1, intern(sources_, s.add_source, source));
  s.add_reject.bind(2, std::int64_t(rec.start.offset)).bind(3, std::int64_t(rec.index));
  s.add_reject.bind(4, rec.tag("White")).bind(5, rec.tag("Black")).bind(6, rec.raw).bind(7, errors);
  if (std::string_view(rec.encoding) == "utf-8")
    s.add_reject.bind_null(8);
  else
    s.add_reject.bind(8, std::string_view(rec.encoding));
  s.add_reject.run();
  ++stats_.rejected;
  next_game();
}

void Importer::next_game() {
  if (++in_batch_ >= batch_)
    commit_batch();
  else if (in_batch_ % FlushGames == 0)
    flush();
}

bool reject_encoding_column(Connection& db) {
  return db.prepare("SELECT 1 FROM pragma_table_info('reject') WHERE name = 'encoding'").step();
}

// The batch's position index entries, or the range of its games that have none. The keys
// popular among them go to `popular`.
void Importer::flush_index(std::vector<std::uint64_t>* popular) {
  if (opt_.position_index) return index_.flush(db_, opt_.deep_positions, popular);
  if (unindexed_.first == 0) return;
  st_->add_unindexed.bind(1, unindexed_.first).bind(2, unindexed_.last).run();
  unindexed_ = {};
}

// What waits in memory for the transaction, written into it.
void Importer::flush() {
  std::size_t added = index_.pending();
  // The keys the deep positions count from the next game on.
  std::vector<std::uint64_t> popular;
  auto* found = deep_ && opt_.deep_positions.per ? &popular : nullptr;
  flush_index(found);
  // Runs are merged by size only, as after each batch: merging the import's level-0 runs
  // into one at its end rewrote its whole index and aggregate (up to 16 M entries) in every
  // import, half of the CPU of one into an empty database (bench_import.md, 2026-12-01).
  if (opt_.position_index) merge_position_index(db_, added, opt_.deep_positions, found);
  explore_.flush(db_);
  if (deep_) deep_->flush(db_, popular);
  player_index_.flush(db_);
  summary_.flush(db_);
  player_totals_.flush(db_);
}

void Importer::commit_batch() {
  flush();
  flush_hashes();
  tx_->commit();
  since_wait_.games += in_batch_;
  in_batch_ = 0;
  if (checkpointer_) {
    checkpointer_->request();
    if (++since_wait_.commits == RestartWalEvery || since_wait_.games >= RestartWalGames) {
      checkpointer_->wait();
      since_wait_ = {};
    }
  }
  begin();
}

void Importer::finish() {
  flush();
  flush_hashes();
  tx_->commit();
  tx_.reset();
  checkpointer_.reset();  // its last checkpoint done; the one below copies the rest
  restore_connection();
  // Merged-away pages are reused by the next batches and imports; only when they are a
  // large part of the file are they given back to the disk.
  if (pragma_int(db_, "freelist_count") * 4 > pragma_int(db_, "page_count")) give_back_free_pages(db_);
  db_.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}
namespace {

// The non-roster tags back in their original order: table rows at their seq, column
// tags in the gaps, in tag_layout's order (or W, B, E; w, b are empty Elos).
void restore_other_tags(Statement& tags, std::int64_t id, const std::optional<std::int64_t> elo[2],
                        std::string_view eco, std::string_view layout, game::GameRecord& rec) {
  std::vector<std::pair<std::string, std::string>> column;
  std::string order = layout.empty() ? "WBE" : std::string(layout);
  for (char c : order) {
    if (c == 'W' && elo[0]) column.emplace_back("WhiteElo", std::to_string(*elo[0]));
    if (c == 'B' && elo[1]) column.emplace_back("BlackElo", std::to_string(*elo[1]));
    if (c == 'w') column.emplace_back("WhiteElo", "");
    if (c == 'b') column.emplace_back("BlackElo", "");
    if (c == 'E' && !eco.empty()) column.emplace_back("ECO", std::string(eco));
  }
  std::size_t next_column = 0;
  int seq = 0;
  tags.bind(1, id);
  while (tags.step()) {
    int row_seq = int(tags.int64(0));
    for (; seq < row_seq && next_column < column.size(); ++seq) rec.tags.push_back(column[next_column++]);
    rec.tags.emplace_back(std::string(tags.text(1)), std::string(tags.text(2)));
    seq = row_seq + 1;
  }
  tags.reset();
  while (next_column < column.size()) rec.tags.push_back(column[next_column++]);
}

constexpr const char* GameColumns =
    "SELECT g.id, w.name, b.name, e.name, s.name, g.date, g.round, g.result, g.white_elo, g.black_elo, g.eco, "
    "g.start_fen, g.moves, g.notes, g.movetext_result, g.tag_layout, g.termination, g.white IS NOT NULL, "
    "g.black IS NOT NULL, g.event IS NOT NULL, g.site IS NOT NULL, g.eco_guessed FROM game g "
    "LEFT JOIN player w ON w.id = g.white LEFT JOIN player b ON b.id = g.black "
    "LEFT JOIN event e ON e.id = g.event LEFT JOIN site s ON s.id = g.site ";

// Reads one row into `rec`; what is damaged in it, or "" when it reads whole.
std::string read_row(Statement& row, Statement& tags, game::GameRecord& rec) {
  rec = game::GameRecord{};
  rec.index = std::uint64_t(row.int64(0));
  auto roster = [&](std::string_view name, int col, bool present) {
    if (present) rec.tags.emplace_back(std::string(name), std::string(row.text(col)));
  };
  roster("Event", 3, row.int64(19));
  roster("Site", 4, row.int64(20));
  roster("Date", 5, !row.is_null(5));
  roster("Round", 6, !row.is_null(6));
  roster("White", 1, row.int64(17));
  roster("Black", 2, row.int64(18));
  roster("Result", 7, !row.is_null(7));
  std::optional<std::int64_t> elo[2];
  if (!row.is_null(8)) elo[0] = row.int64(8);
  if (!row.is_null(9)) elo[1] = row.int64(9);
  std::string_view eco = row.int64(21) ? std::string_view() : row.text(10);
  restore_other_tags(tags, rec.index, elo, eco, row.text(15), rec);
  // Repairs were warned about at import; the game was stored as it was.
  if (auto start = game::set_up_start(rec); !start) return "start position: " + start.error();
  if (!decode_moves(rec.start_position, row.blob(12), rec.mainline))
    return "moves: they do not decode, or do not fit the position";
  if (auto notes = decode_annotations(row.blob(13), rec); !notes) return notes.error();
  std::int64_t termination = row.int64(16);
  if (termination < 0 || termination > std::int64_t(Termination::FiftyMoveRule))
    return "termination: unknown value " + std::to_string(termination);
  rec.result = row.is_null(14) ? std::string(row.text(7)) : std::string(row.text(14));
  rec.termination = Termination(termination);
  return {};
}

}  // namespace

void bind_params(Statement& st, const GameQuery& q, int first) {
  for (const auto& p : q.params) std::visit([&](const auto& v) { st.bind(first++, v); }, p);
}

void for_each_game(Connection& db, const GameQuery& q, const std::function<bool(game::GameRecord&)>& f,
                   const OnDamaged& damaged) {
  std::string sql = std::string(GameColumns) + "WHERE " + q.where + " ORDER BY " + q.order + " LIMIT ? OFFSET ?";
  auto row = db.prepare(sql);
  int i = 1;
  for (const auto& p : q.params) std::visit([&](const auto& v) { row.bind(i++, v); }, p);
  row.bind(i, q.limit);
  row.bind(i + 1, q.offset);
  auto tags = db.prepare("SELECT seq, name, value FROM tag WHERE game = ? ORDER BY seq");
  game::GameRecord rec;
  while (row.step()) {
    if (auto why = read_row(row, tags, rec); !why.empty()) {
      if (!damaged) throw DbError("game " + std::to_string(row.int64(0)) + " is damaged (" + why + ")");
      damaged(row.int64(0), why);
      continue;
    }
    if (!f(rec)) break;
  }
}

bool load_game(Connection& db, std::int64_t id, game::GameRecord& rec) {
  bool found = false;
  GameQuery q;
  q.where = "g.id = ?";
  q.params.emplace_back(id);  // no initializer_list temporary: GCC 12 took it for uninitialised (-fprofile-use)
  for_each_game(db, q, [&](game::GameRecord& r) {
    rec = std::move(r);
    found = true;
    return false;
  });
  return found;
}

}  // namespace qipu::db
