// The chunk codec of the position index and of the player index (src/db/runs.hpp):
// entries of (key, game, ply), delta-encoded.
#pragma once

#include <string>
#include <string_view>

#include "qipu/db/codec.hpp"
#include "qipu/db/position_index.hpp"
#include "runs.hpp"

namespace qipu::db {

// Chunk layout, per entry: key delta from the previous entry (the chunk's first key
// for the first); then the game id, as a delta from the previous entry's when the key
// repeats, else whole; then the ply. `E` is an Entry, or a batch's packed entry whose game
// is an offset from `base`.
template <class E>
const E* encode_entries(const E* begin, const E* end, std::size_t bytes, std::string& out, std::int64_t base) {
  return runs::encode_chunk(begin, end, bytes, out, 3 * MaxVarint, [base](const E& e, const E* prev, char* q) {
    std::int64_t game = base + std::int64_t(e.game);
    bool same_key = prev && e.key == prev->key;
    q = put_varint(q, prev ? e.key - prev->key : 0);
    q = put_varint(q, std::uint64_t(same_key ? game - (base + std::int64_t(prev->game)) : game));
    return put_varint(q, std::uint64_t(e.ply));
  });
}

struct IndexCodec {
  using Entry = PositionIndexWriter::Entry;
  static constexpr std::size_t MinEntryBytes = 3;
  static std::int64_t sql_key(const Entry& e) { return std::int64_t(e.key); }
  static bool less(const Entry& a, const Entry& b) { return a < b; }
  static bool combine(Entry&, const Entry&) { return false; }
  static const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out) {
    return encode_entries(begin, end, bytes, out, 0);
  }

  template <class F>
  static bool decode(std::int64_t first_key, std::string_view data, F&& f) {
    std::uint64_t key = std::uint64_t(first_key), delta, game_field, ply;
    std::int64_t prev_game = -1;
    while (!data.empty()) {
      if (!get_varint(data, delta) || !get_varint(data, game_field) || !get_varint(data, ply)) return false;
      key += delta;
      std::int64_t game =
          (delta == 0 && prev_game >= 0) ? prev_game + std::int64_t(game_field) : std::int64_t(game_field);
      if (!f(Entry{key, game, int(ply)})) return true;
      prev_game = game;
    }
    return true;
  }
};

}  // namespace qipu::db
