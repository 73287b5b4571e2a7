// The deep positions (src/db/deep_positions.hpp): import's side, and the range a position's
// rows count.
#include "deep_positions.hpp"

#include <algorithm>

#include "qipu/db/codec.hpp"
#include "kept_totals.hpp"

namespace qipu::db {

namespace {

constexpr std::int64_t MarkKey = -1;  // index keys are 48 bits: never negative

std::optional<std::int64_t> deep_first_game(Connection& db, std::int64_t key) {
  auto st = db.prepare("SELECT first_game FROM deep_position WHERE key = ?");
  st.bind(1, key);
  if (!st.step() || st.is_null(0)) return std::nullopt;
  return st.int64(0);
}

bool listed(const AggregatePositions& list, Key k) {
  return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.first == k; });
}

}  // namespace

bool deep_tables_ours(Connection& db) {
  return kept::has_columns(db, "deep_position", {"key", "first_game"}) &&
         kept::has_columns(db, "deep_segment", {"id", "entries"}) &&
         kept::has_columns(db, "deep_posting", {"segment", "first_key", "last_key", "data"});
}

std::optional<IdRange> deep_range(Connection& db, Key key) {
  if (!deep_tables_ours(db)) return std::nullopt;
  auto first = deep_first_game(db, std::int64_t(index_key(key)));
  auto mark = deep_first_game(db, MarkKey);
  // First 0: an aggregated position's key, whose rows stopped counting when that was seen.
  if (!first || !mark || *first < 1) return std::nullopt;
  return IdRange{*first, *mark};
}

void DeepPositions::load(Connection& db, std::int64_t last_game) {
  last_ = last_game;
  if (deep_first_game(db, MarkKey) != last_game) {
    db.exec("DELETE FROM deep_position; DELETE FROM deep_posting; DELETE FROM deep_segment");
    db.prepare("INSERT INTO deep_position(key, first_game) VALUES (?, ?)").bind(1, MarkKey).bind(2, last_game).run();
    return;
  }
  auto st = db.prepare("SELECT key, first_game FROM deep_position WHERE key >= 0");
  while (st.step()) {
    auto k = std::uint64_t(st.int64(0));
    if (st.int64(1) > 0)
      popular_.insert(k);
    else
      aggregated_.insert(k);
  }
  rebuild_filter();
}

void DeepPositions::add_game(std::int64_t id, const EncodedGame& enc, const GameOutcome& outcome) {
  last_ = id;
  if (popular_.size() == 0) return;
  game_.clear();
  plies_.clear();
  const auto& keys = enc.keys;  // keys[p]: the position before ply p; the last, the final one
  for (std::size_t p = 0; p < keys.size(); ++p) {
    std::uint64_t k = index_key(keys[p]);
    if (!maybe(k) || !popular_.contains(k)) continue;
    if (listed(enc.explore, keys[p])) {  // an aggregated position: the aggregate counts it
      popular_.erase(k);
      aggregated_.insert(k);
      newly_aggregated_.push_back(k);
      continue;
    }
    if (listed(game_, keys[p])) continue;  // a repetition: counted at its first occurrence
    game_.emplace_back(keys[p], EndSymbol);
    plies_.push_back(p);
  }
  if (game_.empty()) return;
  // The moves played from them, decoded as far as the last: popular positions come early.
  std::size_t moves = std::min(plies_.back() + 1, keys.size() - 1);
  if (!unpack_symbols(enc.moves, symbols_, moves) || symbols_.size() < moves)
    throw DbError("game " + std::to_string(id) + ": its moves do not decode");
  for (std::size_t i = 0; i < game_.size(); ++i)
    if (plies_[i] < moves) game_[i].second = std::uint8_t(symbols_[plies_[i]]);
  rows_.add(id, game_, outcome);
}

void DeepPositions::flush(Connection& db, const std::vector<std::uint64_t>& popular) {
  rows_.flush(db);
  bool changed = !newly_aggregated_.empty();
  auto stop = db.prepare("UPDATE deep_position SET first_game = 0 WHERE key = ?");
  for (auto k : newly_aggregated_) stop.bind(1, std::int64_t(k)).run();
  newly_aggregated_.clear();
  auto start = db.prepare("INSERT OR IGNORE INTO deep_position(key, first_game) VALUES (?, ?)");
  for (auto k : popular) {
    if (aggregated_.contains(k) || !popular_.insert(k)) continue;
    start.bind(1, std::int64_t(k)).bind(2, last_ + 1).run();
    changed = true;
  }
  db.prepare("UPDATE deep_position SET first_game = ? WHERE key = ?").bind(1, last_).bind(2, MarkKey).run();
  if (changed) rebuild_filter();
}

// At least 16 bits a key: at 10 M games (77,614 keys counted) a 32 KB filter of a bit a key
// was a quarter full, so a quarter of the other plies went on to the set, and add_game took
// 6.2 s of a 1 M-game step of 52 s on the importer's thread; this filter (256 KB there) passes
// 0.7 % of random keys, and add_game took 2.3 s with it and HashSet64 (bench_import.md).
void DeepPositions::rebuild_filter() {
  std::size_t words = 4096;
  while (words < popular_.size() / 4) words *= 2;
  filter_.assign(words, 0);
  popular_.for_each([&](std::uint64_t k) { filter_[k / 4096 & (words - 1)] |= filter_bits(k); });
}

}  // namespace qipu::db
