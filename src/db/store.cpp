#include "qipu/db/store.hpp"

#include <sqlite3.h>

#include <array>
#include <cstdlib>
#include <filesystem>

#include "qipu/db/codec.hpp"
#include "qipu/db/search.hpp"

namespace qipu::db {

extern const char* const kSchemaV1;

namespace {

constexpr std::int64_t ApplicationId = 0x71697075;  // "qipu"
constexpr std::array<std::string_view, 7> Roster = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
// Tags kept in columns besides the roster, with the letter tag_layout uses for each.
constexpr std::array<std::string_view, 3> ColumnTags = {"WhiteElo", "BlackElo", "ECO"};
constexpr char LayoutLetters[] = "WBE";

std::int64_t pragma_int(Connection& db, const char* name) {
  auto st = db.prepare(std::string("PRAGMA ") + name);
  return st.step() ? st.int64(0) : 0;
}

bool has_tables(Connection& db) {
  auto st = db.prepare("SELECT count(*) FROM sqlite_master");
  return st.step() && st.int64(0) > 0;
}

// Checks that the file is a qipu database this program can read.
void check_identity(Connection& db, const std::string& path) {
  std::int64_t app, version;
  try {
    app = pragma_int(db, "application_id");
    version = pragma_int(db, "user_version");
  } catch (const DbError& e) {
    throw DbError(path + " is not a qipu database (" + e.what() + ")");
  }
  if (app != ApplicationId && has_tables(db)) throw DbError(path + " is an SQLite database of another program, not qipu's");
  if (version > SchemaVersion)
    throw DbError(path + " was made by a newer qipu (schema version " + std::to_string(version) + "); this qipu reads up to version " +
                  std::to_string(SchemaVersion) + ": upgrade qipu");
}

// Creates the schema in a new file, or runs the migrations an older file needs.
void create_or_upgrade(Connection& db) {
  std::int64_t version = pragma_int(db, "user_version");
  if (version == SchemaVersion) return;
  Transaction tx(db);
  if (version == 0) {
    db.exec(kSchemaV1);
    db.exec("PRAGMA application_id = " + std::to_string(ApplicationId));
  }
  // Later schema versions add their migrations here, each from the version before.
  db.exec("PRAGMA user_version = " + std::to_string(SchemaVersion));
  tx.commit();
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
  if (std::to_string(v) != s) return std::nullopt;  // "0100" would not come back the same
  return v;
}

bool clean_eco(std::string_view s) {
  return s.size() == 3 && s[0] >= 'A' && s[0] <= 'E' && std::isdigit(static_cast<unsigned char>(s[1])) &&
         std::isdigit(static_cast<unsigned char>(s[2]));
}

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return (h ^ 0xff) * 0x100000001b3ULL;  // a separator, so "ab","c" differs from "a","bc"
}

bool is_first_roster(const game::GameRecord& rec, std::size_t i) {
  const auto& name = rec.tags[i].first;
  if (std::find(Roster.begin(), Roster.end(), name) == Roster.end()) return false;
  for (std::size_t j = 0; j < i; ++j)
    if (rec.tags[j].first == name) return false;
  return true;
}

}  // namespace

std::string database_path(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("QIPU_DB"); env && *env) return env;
  return "qipu.db";
}

std::unique_ptr<Connection> open_database(const std::string& path, Connection::Mode mode) {
  if (mode == Connection::Mode::ReadOnly && !std::filesystem::exists(path))
    throw DbError("no database at " + path + " (make one with: qipu import --db " + path + " FILE.pgn)");
  auto db = std::make_unique<Connection>(path, mode);
  check_identity(*db, path);
  if (mode == Connection::Mode::ReadWrite) {
    // Pages freed by merging index segments go back to the disk; this must be set
    // before the first table and before WAL mode writes the header.
    if (pragma_int(*db, "user_version") == 0 && !has_tables(*db)) db->exec("PRAGMA auto_vacuum = INCREMENTAL");
    db->exec("PRAGMA journal_mode = WAL");
    db->exec("PRAGMA synchronous = NORMAL");
    create_or_upgrade(*db);
  } else if (pragma_int(*db, "user_version") == 0) {
    throw DbError(path + " is empty: import games first (qipu import --db " + path + " FILE.pgn)");
  }
  db->exec("PRAGMA foreign_keys = ON");
  return db;
}

EncodedGame encode_game(const game::GameRecord& rec) {
  EncodedGame e;
  e.moves = encode_moves(rec.start_position, rec.mainline);
  e.notes = encode_annotations(rec);
  e.keys.reserve(rec.mainline.size() + 1);
  e.keys.push_back(rec.start_position.key());
  Position last = rec.start_position;
  game::for_each_move(rec.start_position, rec.mainline, [&](const Position&, const game::MoveNode&, const Position& after) {
    e.keys.push_back(after.key());
    last = after;
  });
  e.material = material_signature(last);
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (auto name : Roster) h = fnv1a(h, rec.tag(name));
  h = fnv1a(h, rec.start_fen.value_or(""));
  e.hash = fnv1a(h, e.moves) >> 1;  // 63 bits: SQLite integers are signed
  return e;
}

struct Importer::Statements {
  Statement find_player, add_player, find_event, add_event, find_site, add_site, find_source, add_source;
  Statement add_game, find_opening, add_opening, add_tag, add_reject;
  explicit Statements(Connection& db)
      : find_player(db.prepare("SELECT id FROM player WHERE name = ?")),
        add_player(db.prepare("INSERT INTO player(name) VALUES (?)")),
        find_event(db.prepare("SELECT id FROM event WHERE name = ?")),
        add_event(db.prepare("INSERT INTO event(name) VALUES (?)")),
        find_site(db.prepare("SELECT id FROM site WHERE name = ?")),
        add_site(db.prepare("INSERT INTO site(name) VALUES (?)")),
        find_source(db.prepare("SELECT id FROM source WHERE path = ?")),
        add_source(db.prepare("INSERT INTO source(path) VALUES (?)")),
        add_game(db.prepare(
            "INSERT INTO game(white, black, event, site, date, date_sort, round, result, white_elo, black_elo, eco, "
            "plies, termination, start_fen, moves, notes, movetext_result, tag_layout, source, offset, hash, "
            "eco_guessed, opening_id, material) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")),
        find_opening(db.prepare("SELECT id FROM opening WHERE name = ? AND variation = ?")),
        add_opening(db.prepare("INSERT INTO opening(name, variation) VALUES (?, ?)")),
        add_tag(db.prepare("INSERT INTO tag(game, seq, name, value) VALUES (?,?,?,?)")),
        add_reject(db.prepare(
            "INSERT OR IGNORE INTO reject(source, offset, game_index, white, black, text, errors) VALUES (?,?,?,?,?,?,?)")) {}
};

Importer::Importer(Connection& db, ImportOptions options) : db_(db), opt_(options) {
  st_ = std::make_unique<Statements>(db_);
  if (!opt_.allow_duplicates) {
    auto st = db_.prepare("SELECT hash FROM game");
    while (st.step()) hashes_.insert(std::uint64_t(st.int64(0)));
  }
  begin();
}

Importer::~Importer() = default;

void Importer::begin() { tx_ = std::make_unique<Transaction>(db_); }

std::int64_t Importer::intern(std::unordered_map<std::string, std::int64_t>& cache, Statement& find, Statement& insert,
                              std::string_view name) {
  if (auto it = cache.find(std::string(name)); it != cache.end()) return it->second;
  std::int64_t id;
  find.bind(1, name);
  if (find.step()) {
    id = find.int64(0);
    find.reset();
  } else {
    find.reset();
    insert.bind(1, name).run();
    id = db_.last_insert_id();
  }
  cache.emplace(name, id);
  return id;
}

// Opening names repeat across thousands of games: one row each, referred to by id.
std::int64_t Importer::intern_opening(const std::string& name, const std::string& variation) {
  std::string key = name + '\x1f' + variation;
  if (auto it = openings_.find(key); it != openings_.end()) return it->second;
  Statements& s = *st_;
  std::int64_t id;
  s.find_opening.bind(1, name).bind(2, variation);
  if (s.find_opening.step()) {
    id = s.find_opening.int64(0);
    s.find_opening.reset();
  } else {
    s.find_opening.reset();
    s.add_opening.bind(1, name).bind(2, variation).run();
    id = db_.last_insert_id();
  }
  openings_.emplace(key, id);
  return id;
}

void Importer::add(const std::string& source, const game::GameRecord& rec, const EncodedGame& enc) {
  if (!opt_.allow_duplicates && !hashes_.insert(enc.hash).second) {
    ++stats_.duplicates;
    return;
  }
  Statements& s = *st_;
  Statement& g = s.add_game;
  auto bind_name = [&](int col, std::string_view tag, auto& cache, Statement& find, Statement& insert) {
    bool present = false;
    for (const auto& t : rec.tags) present |= t.first == tag;
    if (present) g.bind(col, intern(cache, find, insert, rec.tag(tag)));
    else g.bind_null(col);
  };
  bind_name(1, "White", players_, s.find_player, s.add_player);
  bind_name(2, "Black", players_, s.find_player, s.add_player);
  bind_name(3, "Event", events_, s.find_event, s.add_event);
  bind_name(4, "Site", sites_, s.find_site, s.add_site);
  auto bind_tag = [&](int col, std::string_view tag) {
    bool present = false;
    for (const auto& t : rec.tags) present |= t.first == tag;
    if (present) g.bind(col, rec.tag(tag));
    else g.bind_null(col);
  };
  bind_tag(5, "Date");
  if (auto d = sortable_date(rec.tag("Date"))) g.bind(6, *d);
  else g.bind_null(6);
  bind_tag(7, "Round");
  bind_tag(8, "Result");

  // Other tags: the first clean WhiteElo, BlackElo and ECO go to columns, the rest to
  // the tag table with their place among the other tags.
  std::optional<std::int64_t> elo[2];
  std::string eco, layout;
  std::vector<std::pair<int, std::size_t>> table_tags;  // seq, index in rec.tags
  int seq = 0;
  for (std::size_t i = 0; i < rec.tags.size(); ++i) {
    if (is_first_roster(rec, i)) continue;
    const auto& [name, value] = rec.tags[i];
    int col = int(std::find(ColumnTags.begin(), ColumnTags.end(), name) - ColumnTags.begin());
    bool taken = col == 2 ? !eco.empty() : col < 2 && elo[col].has_value();
    if (col < 2 && !taken && clean_int(value)) {
      elo[col] = clean_int(value);
      layout += LayoutLetters[col];
    } else if (col == 2 && !taken && clean_eco(value)) {
      eco = value;
      layout += 'E';
    } else {
      table_tags.emplace_back(seq, i);
    }
    ++seq;
  }
  for (int c : {0, 1})
    if (elo[c]) g.bind(9 + c, *elo[c]);
    else g.bind_null(9 + c);
  // Without a clean ECO tag the classification fills the column, marked as guessed so
  // that export leaves it out.
  bool guessed = eco.empty() && !enc.eco.empty();
  if (!eco.empty() || guessed) g.bind(11, guessed ? enc.eco : eco);
  else g.bind_null(11);
  g.bind(22, std::int64_t(guessed));
  auto bind_text = [&](int col, const std::string& v) { v.empty() ? g.bind_null(col) : g.bind(col, v); };
  if (enc.opening.empty() && enc.variation.empty()) g.bind_null(23);
  else g.bind(23, intern_opening(enc.opening, enc.variation));
  bind_text(24, enc.material);
  g.bind(12, std::int64_t(enc.moves.size()));
  g.bind(13, std::int64_t(rec.termination));
  if (rec.start_fen) g.bind(14, *rec.start_fen);
  else g.bind_null(14);
  g.bind_blob(15, enc.moves.data(), enc.moves.size());
  if (enc.notes.empty()) g.bind_null(16);
  else g.bind_blob(16, enc.notes.data(), enc.notes.size());
  if (!rec.result.empty() && rec.result != rec.tag("Result")) g.bind(17, rec.result);
  else g.bind_null(17);
  // Column tags in W, B, E order are the usual case; only other orders are recorded.
  std::string sorted = layout;
  std::sort(sorted.begin(), sorted.end(), [](char a, char b) { return std::string_view("WBE").find(a) < std::string_view("WBE").find(b); });
  if (layout != sorted) g.bind(18, layout);
  else g.bind_null(18);
  g.bind(19, intern(sources_, s.find_source, s.add_source, source));
  g.bind(20, std::int64_t(rec.start.offset));
  g.bind(21, std::int64_t(enc.hash));
  g.run();
  std::int64_t id = db_.last_insert_id();
  for (auto [tseq, i] : table_tags)
    s.add_tag.bind(1, id).bind(2, tseq).bind(3, rec.tags[i].first).bind(4, rec.tags[i].second).run();
  if (opt_.position_index)
    for (std::size_t ply = 0; ply < enc.keys.size(); ++ply) index_.add(enc.keys[ply], id, int(ply));
  ++stats_.imported;
  if (++in_batch_ >= opt_.batch_games) commit_batch();
}

void Importer::reject(const std::string& source, const game::GameRecord& rec, const std::string& errors) {
  Statements& s = *st_;
  s.add_reject.bind(1, intern(sources_, s.find_source, s.add_source, source));
  s.add_reject.bind(2, std::int64_t(rec.start.offset)).bind(3, std::int64_t(rec.index));
  s.add_reject.bind(4, rec.tag("White")).bind(5, rec.tag("Black")).bind(6, rec.raw).bind(7, errors).run();
  ++stats_.rejected;
  if (++in_batch_ >= opt_.batch_games) commit_batch();
}

void Importer::commit_batch() {
  if (opt_.position_index) index_.flush(db_);
  tx_->commit();
  in_batch_ = 0;
  begin();
}

void Importer::finish() {
  if (opt_.position_index) index_.flush(db_);
  tx_->commit();
  tx_.reset();
  // Lookups read every segment, so many small ones are merged; a few are cheaper to
  // read than to rewrite, and leaving them spares each import a second write.
  if (opt_.position_index && position_index_stats(db_).segments > MaxSegments) {
    Transaction tx(db_);
    compact_position_index(db_);
    tx.commit();
    db_.exec("PRAGMA incremental_vacuum");  // give the merged-away pages back to the disk
  }
  db_.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

namespace {

// The non-roster tags back in their original order: table rows at their seq, column
// tags in the gaps, in tag_layout's order (or W, B, E).
void restore_other_tags(Statement& tags, std::int64_t id, const std::optional<std::int64_t> elo[2],
                        std::string_view eco, std::string_view layout, game::GameRecord& rec) {
  std::vector<std::pair<std::string, std::string>> column;
  std::string order = layout.empty() ? "WBE" : std::string(layout);
  for (char c : order) {
    if (c == 'W' && elo[0]) column.emplace_back("WhiteElo", std::to_string(*elo[0]));
    if (c == 'B' && elo[1]) column.emplace_back("BlackElo", std::to_string(*elo[1]));
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

bool read_row(Statement& row, Statement& tags, game::GameRecord& rec) {
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
  std::string repairs;  // warned about at import; the game was stored as it was
  if (!game::set_up_start(rec, &repairs).empty()) return false;
  if (!decode_moves(rec.start_position, row.blob(12), rec.mainline)) return false;
  if (!decode_annotations(row.blob(13), rec)) return false;
  rec.result = row.is_null(14) ? std::string(row.text(7)) : std::string(row.text(14));
  rec.termination = Termination(row.int64(16));
  return true;
}

}  // namespace

void for_each_game(Connection& db, const GameQuery& q, const std::function<bool(game::GameRecord&)>& f) {
  std::string sql = std::string(GameColumns) + "WHERE " + q.where + " ORDER BY " + q.order + " LIMIT ? OFFSET ?";
  auto row = db.prepare(sql);
  int i = 1;
  for (const auto& p : q.params) std::visit([&](const auto& v) { row.bind(i++, v); }, p);
  row.bind(i, q.limit);
  row.bind(i + 1, q.offset);
  auto tags = db.prepare("SELECT seq, name, value FROM tag WHERE game = ? ORDER BY seq");
  game::GameRecord rec;
  while (row.step()) {
    if (!read_row(row, tags, rec)) throw DbError("game " + std::to_string(row.int64(0)) + " is damaged in the database");
    if (!f(rec)) break;
  }
}

bool load_game(Connection& db, std::int64_t id, game::GameRecord& rec) {
  bool found = false;
  GameQuery q;
  q.where = "g.id = ?";
  q.params = {id};
  for_each_game(db, q, [&](game::GameRecord& r) {
    rec = std::move(r);
    found = true;
    return false;
  });
  return found;
}

}  // namespace qipu::db
