#include "qipu/db/player_index.hpp"

#include <algorithm>
#include <string>

#include "index_codec.hpp"
#include "runs.hpp"

namespace qipu::db {

namespace {

using Entry = PositionIndexWriter::Entry;

constexpr runs::Tables PlayerTables{"player_segment", "player_posting"};

// Runs below MergeFanout times this many entries are of level 0: a batch of 20,000 games
// (40,000 entries at most) is, and the merge of eight such is a run of level 1.
constexpr std::uint64_t PlayerRunBase = 1u << 15;

// An entry's key: the player's id and the side, White's games first.
std::uint64_t key_of(std::int64_t player, int side) { return std::uint64_t(player) * 2 + std::uint64_t(side); }

std::vector<std::uint64_t> keys_of(const std::vector<std::int64_t>& players, Sides sides) {
  std::vector<std::uint64_t> keys;
  for (auto p : players) {
    if (p < 0) continue;  // no such row: player ids are positive
    if (sides.white) keys.push_back(key_of(p, 0));
    if (sides.black) keys.push_back(key_of(p, 1));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// An entry's ply field: its game's Result tag. Unrecorded: written before results were kept
// (the game's row says).
enum ResultCode : int { Unrecorded = 0, WhiteWon = 1, BlackWon = 2, Drawn = 3, OtherResult = 4 };

int index_result(std::optional<std::string_view> result) {
  if (result == "1-0") return WhiteWon;
  if (result == "0-1") return BlackWon;
  if (result == "1/2-1/2") return Drawn;
  return OtherResult;
}

// Which entries of the wanted keys are the wanted games: by their result code, or, for
// entries without one, by the game's row afterwards (`unchecked`: game and side).
struct Want {
  explicit Want(Outcome o) : outcome(o) {
    if (o != Outcome::Any)
      for (bool white : {true, false}) code[white ? 0 : 1] = index_result(outcome_result(o, white));
  }

  bool take(const Entry& e) {
    if (outcome == Outcome::Any) return true;
    bool white = e.key % 2 == 0;
    if (e.ply == Unrecorded) {
      unchecked.emplace_back(e.game, white);
      return false;
    }
    return e.ply == code[white ? 0 : 1];
  }

  Outcome outcome;
  int code[2] = {};  // the wanted result code of White's entries and of Black's
  std::vector<std::pair<std::int64_t, bool>> unchecked;
};

// The games of sorted `keys` in one run: a seek to the first chunk that may hold the next
// key, then the chunks that follow while they hold wanted keys, so that a key costs one
// seek and a key of many games reads only its own chunks.
void games_in_run(Statement& st, std::int64_t run, const std::vector<std::uint64_t>& keys, Want& want,
                  std::vector<std::int64_t>& out) {
  std::size_t next = 0;  // the first key not yet looked up in this run
  while (next < keys.size()) {
    st.reset();
    st.bind(1, run).bind(2, std::int64_t(keys[next]));
    bool seek_again = false;
    while (st.step()) {
      auto first = std::uint64_t(st.int64(0)), last = std::uint64_t(st.int64(1));
      while (next < keys.size() && keys[next] < first) ++next;  // keys this run does not hold
      if (next == keys.size()) return;
      if (keys[next] > last) {  // a gap: seek the next key
        seek_again = true;
        break;
      }
      if (!IndexCodec::decode(std::int64_t(first), st.blob(2), [&](const Entry& e) {
            if (std::binary_search(keys.begin() + std::ptrdiff_t(next), keys.end(), e.key) && want.take(e))
              out.push_back(e.game);
            return true;
          }))
        throw DbError("the player index is damaged (a chunk of run " + std::to_string(run) +
                      " does not decode): import the games into a new database");
      // A key that ends this chunk may go on in the next; keys before it are done.
      while (next < keys.size() && keys[next] < last) ++next;
    }
    if (!seek_again) return;  // no chunk reaches the next key
  }
}

// The games among `want.unchecked` whose rows give the wanted outcome.
void check_rows(Connection& db, const Want& want, std::vector<std::int64_t>& out) {
  if (want.unchecked.empty()) return;
  auto st = db.prepare("SELECT result FROM game WHERE id = ?");
  for (auto [game, white] : want.unchecked) {
    st.reset();
    st.bind(1, game);
    if (st.step() && !st.is_null(0) && st.text(0) == outcome_result(want.outcome, white)) out.push_back(game);
  }
}

// A version 3 database: its SQLite indexes on game(white) and game(black).
std::vector<std::int64_t> games_from_sql_indexes(Connection& db, const std::vector<std::uint64_t>& keys,
                                                 Outcome outcome) {
  std::string result = outcome == Outcome::Any ? "" : " AND result = ?";
  auto white = db.prepare("SELECT id FROM game WHERE white = ?" + result);
  auto black = db.prepare("SELECT id FROM game WHERE black = ?" + result);
  std::vector<std::int64_t> out;
  for (auto k : keys) {
    bool is_white = k % 2 == 0;
    Statement& st = is_white ? white : black;
    st.reset();
    st.bind(1, std::int64_t(k / 2));
    if (outcome != Outcome::Any) st.bind(2, std::string(outcome_result(outcome, is_white)));
    while (st.step()) out.push_back(st.int64(0));
  }
  return out;
}

}  // namespace

const char* outcome_result(Outcome outcome, bool white) {
  switch (outcome) {
    case Outcome::Won: return white ? "1-0" : "0-1";
    case Outcome::Lost: return white ? "0-1" : "1-0";
    case Outcome::Drew: return "1/2-1/2";
    case Outcome::Any: break;
  }
  return nullptr;
}

void PlayerIndexWriter::add_game(std::int64_t game, std::optional<std::int64_t> white,
                                 std::optional<std::int64_t> black, std::optional<std::string_view> result) {
  int code = index_result(result);
  if (white) entries_.push_back({key_of(*white, 0), game, code});
  if (black) entries_.push_back({key_of(*black, 1), game, code});
}

void PlayerIndexWriter::flush(Connection& db) {
  if (entries_.empty()) return;
  // Games came in id order: a stable sort by key leaves each key's games in order.
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  runs::Writer<IndexCodec> w(db, PlayerTables);
  w.add(entries_.data(), entries_.data() + entries_.size());
  w.finish();
  entries_.clear();
  runs::merge_by_size<IndexCodec>(db, PlayerTables, PlayerRunBase);
}

bool has_player_index(Connection& db) {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_posting'").step();
}

std::vector<std::int64_t> player_games(Connection& db, const std::vector<std::int64_t>& players, Sides sides,
                                       Outcome outcome) {
  auto keys = keys_of(players, sides);
  std::vector<std::int64_t> out;
  if (keys.empty()) return out;
  runs::Snapshot snapshot(db);
  if (!has_player_index(db)) {
    out = games_from_sql_indexes(db, keys, outcome);
  } else {
    auto st = db.prepare(
        "SELECT first_key, last_key, data FROM player_posting WHERE segment = ? AND last_key >= ?"
        " ORDER BY last_key, id");
    Want want(outcome);
    for (auto run : runs::list(db, PlayerTables).ids) games_in_run(st, run, keys, want, out);
    check_rows(db, want, out);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void build_player_index(Connection& db) {
  // Written in runs of this many games, so that memory stays bounded at any size.
  constexpr std::int64_t GamesPerRun = 250000;
  PlayerIndexWriter w;
  auto st = db.prepare("SELECT id, white, black, result FROM game ORDER BY id");
  std::int64_t n = 0;
  auto opt = [&](int col) { return st.is_null(col) ? std::nullopt : std::optional(st.int64(col)); };
  while (st.step()) {
    auto result = st.is_null(3) ? std::nullopt : std::optional(st.text(3));
    w.add_game(st.int64(0), opt(1), opt(2), result);
    if (++n % GamesPerRun == 0) w.flush(db);
  }
  w.flush(db);
  db.exec("DROP INDEX IF EXISTS game_white; DROP INDEX IF EXISTS game_black");
}

}  // namespace qipu::db
