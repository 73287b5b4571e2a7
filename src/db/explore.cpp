// The explorer: from the aggregate where it can answer (db/explore.hpp), else by the scan
// over the position index (db::explore_scan in search.cpp).
#include "qipu/db/explore.hpp"

#include <algorithm>
#include <array>

#include "qipu/db/codec.hpp"
#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"
#include "deep_positions.hpp"
#include "runs.hpp"

namespace qipu::db {

namespace {

struct Top {
  std::int64_t game;
  std::int32_t elo2;
};
// Higher rating first, then the older game, as explore_scan ranks them.
bool better(const Top& a, const Top& b) { return a.elo2 != b.elo2 ? a.elo2 > b.elo2 : a.game < b.game; }

// One row of the aggregate: a position and a move played from it, over many games.
struct AggEntry {
  std::uint64_t key = 0;
  std::uint8_t move = 0;
  std::uint64_t games = 0, white_wins = 0, draws = 0, black_wins = 0, elo_games = 0, elo2_sum = 0;
  std::uint32_t last_year = 0, ntop = 0;
  std::array<Top, TopKept> top{};

  // Keeps the TopKept best of the list and t, in order: most games that reach a popular
  // position are not among its best and cost one comparison.
  void add_top(const Top& t) {
    if (ntop == TopKept && !better(t, top[ntop - 1])) return;
    std::uint32_t at = std::min<std::uint32_t>(ntop, TopKept - 1);
    for (; at > 0 && better(t, top[at - 1]); --at) top[at] = top[at - 1];
    top[at] = t;
    ntop = std::min<std::uint32_t>(ntop + 1, TopKept);
  }
  void add(const AggEntry& e) {
    games += e.games;
    white_wins += e.white_wins;
    draws += e.draws;
    black_wins += e.black_wins;
    elo_games += e.elo_games;
    elo2_sum += e.elo2_sum;
    last_year = std::max(last_year, e.last_year);
    for (std::uint32_t i = 0; i < e.ntop; ++i) add_top(e.top[i]);
  }
};

// Full 64-bit keys in SQLite's signed integers, in the same order.
std::int64_t signed_key(std::uint64_t k) { return std::int64_t(k ^ (std::uint64_t(1) << 63)); }

// Chunk layout, per row: key delta from the previous row (the chunk's first key for the
// first), move, games, white wins, draws, black wins, games with an Elo, sum of twice the
// mean Elos, last year, then the top games' count and each game's id and twice its Elo.
struct AggCodec {
  using Entry = AggEntry;
  static constexpr std::size_t MinEntryBytes = 10;  // key delta, move, 8 counts
  static std::int64_t sql_key(const Entry& e) { return signed_key(e.key); }
  static bool less(const Entry& a, const Entry& b) { return a.key != b.key ? a.key < b.key : a.move < b.move; }
  static bool combine(Entry& into, const Entry& e) {
    if (into.key != e.key || into.move != e.move) return false;
    into.add(e);
    return true;
  }

  static const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out) {
    // A row at most: the key delta, the move, 8 counts and 2 values per top game.
    constexpr std::size_t RowBytes = (9 + 2 * TopKept) * MaxVarint + 1;
    return runs::encode_chunk(begin, end, bytes, out, RowBytes, [](const Entry& e, const Entry* prev, char* q) {
      q = put_varint(q, e.key - (prev ? prev->key : e.key));
      *q++ = char(e.move);
      for (std::uint64_t v : {e.games, e.white_wins, e.draws, e.black_wins, e.elo_games, e.elo2_sum,
                              std::uint64_t(e.last_year), std::uint64_t(e.ntop)})
        q = put_varint(q, v);
      for (std::size_t i = 0; i < e.ntop; ++i) {
        q = put_varint(q, std::uint64_t(e.top[i].game));
        q = put_varint(q, std::uint64_t(e.top[i].elo2));
      }
      return q;
    });
  }

  template <class F>
  static bool decode(std::int64_t first_key, std::string_view data, F&& f) {
    std::uint64_t key = std::uint64_t(first_key) ^ (std::uint64_t(1) << 63), delta, v[8];
    while (!data.empty()) {
      Entry e;
      if (!get_varint(data, delta) || data.empty()) return false;
      e.key = key += delta;
      e.move = std::uint8_t(data[0]);
      data.remove_prefix(1);
      for (auto& x : v)
        if (!get_varint(data, x)) return false;
      if (v[7] > TopKept) return false;
      e.games = v[0], e.white_wins = v[1], e.draws = v[2], e.black_wins = v[3], e.elo_games = v[4];
      e.elo2_sum = v[5], e.last_year = std::uint32_t(v[6]), e.ntop = std::uint32_t(v[7]);
      for (std::size_t i = 0; i < e.ntop; ++i) {
        std::uint64_t game, elo2;
        if (!get_varint(data, game) || !get_varint(data, elo2)) return false;
        e.top[i] = {std::int64_t(game), std::int32_t(elo2)};
      }
      if (!f(e)) return true;
    }
    return true;
  }
};

constexpr runs::Tables AggTables{"explore_segment", "explore_posting"};
constexpr runs::Tables DeepTables{"deep_segment", "deep_posting"};
runs::Tables tables_of(ExploreRows rows) { return rows == ExploreRows::deep ? DeepTables : AggTables; }

// The start squares of each side's pawns, knights, bishops, rooks, queen and king.
constexpr std::array<std::array<Bitboard, 7>, 2> StartSquares = {{
    {0, 0xff00ULL, 0x42ULL, 0x24ULL, 0x81ULL, 0x08ULL, 0x10ULL},
    {0, 0xffULL << 48, 0x42ULL << 56, 0x24ULL << 56, 0x81ULL << 56, 0x08ULL << 56, 0x10ULL << 56},
}};

char result_code(std::string_view result) {
  return result == "1-0" ? 'w' : result == "0-1" ? 'b' : result == "1/2-1/2" ? 'd' : '?';
}

ExploreWriter::Game game_of(std::int64_t id, const GameOutcome& o) {
  ExploreWriter::Game g{id, result_code(o.result), -1, o.date_sort ? std::int32_t(*o.date_sort / 10000) : 0};
  if (o.elo[0] && o.elo[1])
    g.elo2 = std::int32_t(*o.elo[0] + *o.elo[1]);
  else if (o.elo[0] || o.elo[1])
    g.elo2 = std::int32_t(2 * (o.elo[0] ? *o.elo[0] : *o.elo[1]));
  return g;
}

// One game's contribution to a row.
void count(AggEntry& e, const ExploreWriter::Game& g) {
  ++e.games;
  e.white_wins += g.result == 'w';
  e.draws += g.result == 'd';
  e.black_wins += g.result == 'b';
  if (g.elo2 >= 0) {
    ++e.elo_games;
    e.elo2_sum += std::uint64_t(g.elo2);
    e.add_top({g.id, g.elo2});
  }
  e.last_year = std::max(e.last_year, std::uint32_t(g.year));
}

MoveStats stats_of(const AggEntry& e) {
  MoveStats s;
  s.games = e.games;
  s.white_wins = e.white_wins;
  s.draws = e.draws;
  s.black_wins = e.black_wins;
  s.elo_games = e.elo_games;
  s.elo_sum = double(e.elo2_sum) / 2;
  s.last_year = int(e.last_year);
  return s;
}

// The rows of one position in the runs of `t`, added to by_move (by move symbol).
void add_rows(Connection& db, runs::Tables t, Key k, std::array<AggEntry, 256>& by_move) {
  runs::for_each_of_key<AggCodec>(db, t, signed_key(k), [&](const AggEntry& e) {
    by_move[e.move].add(e);
    return true;
  });
}

// Whether rows can count only games of `counted`: no more games than it holds, and best
// games within it (a damaged or forged file's may not).
bool plausible(const std::array<AggEntry, 256>& by_move, IdRange counted) {
  std::uint64_t games = 0;
  for (const auto& e : by_move) {
    games += e.games;
    for (std::uint32_t i = 0; i < e.ntop; ++i)
      if (e.top[i].game < counted.first || e.top[i].game > counted.last) return false;
  }
  return games == 0 || (counted.last >= counted.first && games <= std::uint64_t(counted.last - counted.first + 1));
}

// A deep position's rows, and the games they do not count, scanned (adding to `replayed` the
// games without index entries replayed); false when they cannot answer: the scan then does,
// as before there were rows (a damaged chunk too, where the aggregate's is an error).
bool add_deep_rows(Connection& db, const Position& pos, std::array<AggEntry, 256>& by_move, std::uint64_t& replayed) {
  auto counted = deep_range(db, pos.key());
  if (!counted || !has_aggregate(db)) return false;
  try {
    add_rows(db, DeepTables, pos.key(), by_move);
  } catch (const DbError&) {  // a chunk that does not decode: the scan answers
    return false;
  }
  if (!plausible(by_move, *counted)) return false;
  replayed += for_each_game_at(db, pos, *counted, [&](std::int64_t id, std::uint8_t symbol, const GameOutcome& o) {
    count(by_move[symbol], game_of(id, o));
  });
  return true;
}

// The rows that answer for a position, by move symbol; false when none can.
bool read_rows(Connection& db, const Position& pos, std::array<AggEntry, 256>& by_move, std::uint64_t& replayed) {
  if (!aggregated(pos)) return add_deep_rows(db, pos, by_move, replayed);
  if (!has_aggregate(db)) return false;
  add_rows(db, AggTables, pos.key(), by_move);
  return true;
}

}  // namespace

int units_off_start(const Position& pos) {
  int home = 0;
  for (Color c : {White, Black})
    for (PieceType t : {Pawn, Knight, Bishop, Rook, Queen, King})
      home += popcount(pos.pieces(c, t) & StartSquares[c][t]);
  return 32 - home;
}

bool aggregated(const Position& pos) {
  // Units on their start squares stand on their side's first two ranks: most positions of
  // a game are past the depth, and this bound tells them for a popcount, where the full
  // count takes twelve.
  constexpr Bitboard HomeRanks = 0xffff00000000ffffULL;
  return 32 - popcount(pos.pieces() & HomeRanks) <= AggregateDepth && units_off_start(pos) <= AggregateDepth;
}

bool past_aggregate(const Position& pos) {
  int pawns_home = popcount(pos.pieces(White, Pawn) & StartSquares[White][Pawn]) +
                   popcount(pos.pieces(Black, Pawn) & StartSquares[Black][Pawn]);
  return std::max(16 - pawns_home, 32 - popcount(pos.pieces())) > AggregateDepth;
}

void add_aggregate_position(AggregatePositions& list, const Position& pos, std::uint8_t symbol) {
  if (!aggregated(pos)) return;
  Key k = pos.key();
  auto back = std::ptrdiff_t(std::min<std::size_t>(list.size(), pos.halfmove_clock()));
  for (auto p = list.end() - back; p != list.end(); ++p)
    if (p->first == k) return;
  list.emplace_back(k, symbol);
}

void ExploreWriter::add(std::int64_t game, const AggregatePositions& positions, const GameOutcome& o) {
  if (positions.empty()) return;
  auto index = std::uint32_t(games_.size());
  games_.push_back(game_of(game, o));
  for (const auto& [key, move] : positions) occurrences_.push_back({key, index, move});
}

void ExploreWriter::flush(Connection& db) {
  if (occurrences_.empty()) return;
  // By position, then move: the rows in order, each row's games together (in game order,
  // although what a row keeps does not depend on it).
  runs::sort_by_key(
      occurrences_, [](const Occurrence& o) { return std::uint64_t(o.key); },
      [](const Occurrence& a, const Occurrence& b) {
        return a.key != b.key ? a.key < b.key : a.move != b.move ? a.move < b.move : a.game < b.game;
      });
  {
    runs::Writer<AggCodec> w(db, tables_of(rows_));
    for (std::size_t i = 0; i < occurrences_.size();) {
      AggEntry e;
      e.key = occurrences_[i].key;
      e.move = occurrences_[i].move;
      for (; i < occurrences_.size() && occurrences_[i].key == e.key && occurrences_[i].move == e.move; ++i)
        count(e, games_[occurrences_[i].game]);
      w.add(e);
    }
    w.finish();
  }
  occurrences_.clear();  // the memory is kept for the next batch
  games_.clear();
  runs::merge_by_size<AggCodec>(db, tables_of(rows_), AggregateRunBase);
}

bool has_aggregate(Connection& db) {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'explore_segment'").step();
}

void build_aggregate(Connection& db) {
  ExploreWriter w;
  auto row = db.prepare("SELECT result, white_elo, black_elo, date_sort FROM game WHERE id = ?");
  auto opt = [&](int col) { return row.is_null(col) ? std::nullopt : std::optional(row.int64(col)); };
  for_each_game(db, {}, [&](game::GameRecord& rec) {
    row.bind(1, std::int64_t(rec.index));
    Result<EncodedGame> enc = encode_game(rec);  // it was stored: it encodes
    if (!enc) throw DbError("game " + std::to_string(rec.index) + " cannot be aggregated: " + enc.error());
    if (row.step()) w.add(std::int64_t(rec.index), enc->explore, {row.text(0), {opt(1), opt(2)}, opt(3)});
    row.reset();
    if (w.pending() > 1000000) w.flush(db);
    return true;
  });
  w.flush(db);
  // Paid once, when a version 2 database is upgraded: its level-0 runs become one run to read.
  runs::merge_small<AggCodec>(db, AggTables, AggregateRunBase);
}

std::optional<Exploration> explore_aggregate(Connection& db, const Position& pos, std::size_t top) {
  if (top > TopKept) return std::nullopt;
  std::array<AggEntry, 256> by_move{};
  Exploration ex;
  if (!read_rows(db, pos, by_move, ex.replayed)) return std::nullopt;
  AggEntry total;
  for (int code = 0; code < 256; ++code) {
    const AggEntry& e = by_move[std::size_t(code)];
    if (e.games == 0) continue;
    total.add(e);
    if (code == EndSymbol) continue;
    Move m = move_of_symbol(pos, static_cast<unsigned char>(code));
    if (m.is_none()) continue;  // a symbol that does not fit: damaged row
    ex.moves.push_back(stats_of(e));
    ex.moves.back().move = m;
  }
  ex.total = stats_of(total);
  std::stable_sort(ex.moves.begin(), ex.moves.end(),
                   [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
  for (std::size_t i = 0; i < std::min<std::size_t>(top, total.ntop); ++i)
    ex.top_games.push_back({total.top[i].game, double(total.top[i].elo2) / 2});
  return ex;
}

std::optional<std::uint64_t> count_aggregate(Connection& db, const Position& pos) {
  std::array<AggEntry, 256> by_move{};
  std::uint64_t replayed = 0;
  if (!read_rows(db, pos, by_move, replayed)) return std::nullopt;
  std::uint64_t n = 0;
  for (const auto& e : by_move) n += e.games;
  return n;
}

Exploration explore(Connection& db, const Position& pos, const GameQuery& filter, std::size_t top,
                    const std::vector<std::int64_t>* player) {
  if (filter.where == "1" && filter.params.empty() && !player)
    if (auto ex = explore_aggregate(db, pos, top)) return *ex;
  return explore_scan(db, pos, filter, top, player);
}

}  // namespace qipu::db
