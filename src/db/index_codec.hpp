// The chunk codec of the position index and of the player index (src/db/runs.hpp):
// entries of (key, game, ply), delta-encoded.
#pragma once

#include <string>
#include <string_view>

#include "qipu/db/codec.hpp"
#include "qipu/db/position_index.hpp"
#include "runs.hpp"

namespace qipu::db {

// Chunk layout. The first entry: a mark (the key delta of a chunk's first entry, always 0
// before schema 6, now 1), its game id whole, its ply. Each entry after it: the key delta
// from the entry before; then, when the key repeats, the game delta from the entry before,
// shifted left one bit, its low bit set when the ply differs from that entry's, and the ply
// only then; for a new key, the game id as a zigzag difference from the chunk's first (a
// run holds the ids of consecutive batches: 3 varint bytes within 1 M games, where ids
// whole take 4 from 2 M games), and the ply. Chunks made before (mark 0) stored the game
// id whole for a new key and the ply always, and still decode. `E` is an Entry, or a
// batch's packed entry whose game is an offset from `base`.
constexpr std::uint64_t ChunkMarkBefore6 = 0, ChunkMark = 1;

// Differences in unsigned arithmetic: ids decoded from a damaged file may be any int64.
template <class E>
const E* encode_entries(const E* begin, const E* end, std::size_t bytes, std::string& out, std::int64_t base) {
  std::int64_t first = 0;
  return runs::encode_chunk(begin, end, bytes, out, 3 * MaxVarint, [base, &first](const E& e, const E* prev, char* q) {
    std::int64_t game = base + std::int64_t(e.game);
    if (!prev) {
      first = game;
      q = put_varint(q, ChunkMark);
      q = put_varint(q, std::uint64_t(game));
      return put_varint(q, std::uint64_t(e.ply));
    }
    q = put_varint(q, e.key - prev->key);
    if (e.key == prev->key) {
      bool new_ply = e.ply != prev->ply;
      q = put_varint(q, ((std::uint64_t(e.game) - std::uint64_t(prev->game)) << 1) | std::uint64_t(new_ply));
      return new_ply ? put_varint(q, std::uint64_t(e.ply)) : q;
    }
    q = put_varint(q, zigzag(std::int64_t(std::uint64_t(game) - std::uint64_t(first))));
    return put_varint(q, std::uint64_t(e.ply));
  });
}

struct IndexCodec {
  using Entry = PositionIndexWriter::Entry;
  static constexpr std::size_t MinEntryBytes = 2;  // a repeated key and ply
  static std::int64_t sql_key(const Entry& e) { return std::int64_t(e.key); }
  static bool less(const Entry& a, const Entry& b) { return a < b; }
  static bool combine(Entry&, const Entry&) { return false; }
  static const Entry* encode(const Entry* begin, const Entry* end, std::size_t bytes, std::string& out) {
    return encode_entries(begin, end, bytes, out, 0);
  }

  // Sums in unsigned arithmetic: a damaged chunk's fields wrap, never overflow.
  template <class F>
  static bool decode(std::int64_t first_key, std::string_view data, F&& f) {
    if (data.empty()) return true;
    std::uint64_t key = std::uint64_t(first_key), mark, first, field, ply;
    if (!get_varint(data, mark) || mark > ChunkMark || !get_varint(data, first) || !get_varint(data, ply)) return false;
    if (!f(Entry{key, std::int64_t(first), int(ply)})) return true;
    std::uint64_t game = first;
    while (!data.empty()) {
      std::uint64_t delta;
      if (!get_varint(data, delta) || !get_varint(data, field)) return false;
      key += delta;
      if (mark == ChunkMarkBefore6) {
        game = delta == 0 ? game + field : field;
        if (!get_varint(data, ply)) return false;
      } else if (delta == 0) {
        game += field >> 1;
        if ((field & 1) && !get_varint(data, ply)) return false;
      } else {
        game = first + std::uint64_t(unzigzag(field));
        if (!get_varint(data, ply)) return false;
      }
      if (!f(Entry{key, std::int64_t(game), int(ply)})) return true;
    }
    return true;
  }
};

}  // namespace qipu::db
