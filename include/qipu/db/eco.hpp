// ECO classification: a table from the Polyglot key of every position an ECO file names
// to its code and names, so that a game is classified by the positions it reaches, not
// by its move order, and the deepest named position wins.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qipu/core/types.hpp"

namespace qipu {
class Position;
}
namespace qipu::game {
struct GameRecord;
}

namespace qipu::db {

class Connection;

// Installed by Debian's pgn-extract package.
inline constexpr const char* DefaultEcoFile = "/usr/share/pgn-extract/eco.pgn";

struct Opening {
  std::string eco, name, variation;  // "B90", "Sicilian", "Najdorf"
};

class EcoTable {
 public:
  // Reads a PGN file whose games each name, in ECO/Opening/Variation tags, the position
  // their moves reach (pgn-extract's eco.pgn). Throws DbError when it cannot be read.
  static EcoTable load(const std::string& path);

  // The opening of exactly this position, or nullptr.
  [[nodiscard]] const Opening* find(Key key) const;
  // The opening of the latest of these positions (a game's keys from ply 0) that the
  // table names, or nullptr.
  [[nodiscard]] const Opening* classify(const std::vector<Key>& keys) const;
  // The same for a replayed game's mainline, from its start: the answer classify gives
  // for game::position_keys(rec), replaying no further than the longest named line.
  [[nodiscard]] const Opening* classify(const game::GameRecord& rec) const;

  // A game's positions given one at a time, the start first (a replay's own, so that the
  // opening is not played a second time); opening(walk) is then classify's answer.
  struct Walk {
    // The keys the table may name (its bit filter lets them through), looked up only at
    // the end and latest first: the table's slots are seldom in cache, and the latest
    // key it names is usually the last of these.
    std::array<Key, 40> held{};
    std::size_t count = 0;            // keys in `held`
    const Opening* latest = nullptr;  // of the keys looked up already
    std::size_t ply = 0;              // positions visited, the start included
    Key last = 0;                     // the position visited last
    bool done = false;                // no later position can be named
  };
  // Takes the game's next mainline position; false once the walk is done, when the
  // positions that follow need not be given. A position given twice in a row counts
  // once (a replay shows the position again after a token that was no move).
  bool visit(Walk& walk, const Position& now) const;
  // The opening of the latest position visited that the table names, or nullptr.
  const Opening* opening(Walk& walk) const;

  [[nodiscard]] std::size_t size() const { return count_; }

  // Keeps the table's lines in the database (schema.sql's eco_line), in place of those
  // kept before, in a transaction of its own; nothing is written when they are the same.
  void store(Connection& db) const;
  // classify(keys) as the lines the database keeps give it (a query, where load reads and
  // replays the whole ECO file). `kept` is false when it keeps none: a database no import
  // with an ECO file has written since qipu kept them.
  struct Stored {
    bool kept = false;
    std::optional<Opening> opening;
  };
  [[nodiscard]] static Stored classify_stored(Connection& db, const std::vector<Key>& keys);

 private:
  // A key's bit in might_name_: most positions of a game are in no opening line, and one
  // bit test tells nearly all of them without a hash look-up.
  static std::size_t bit_of(Key key) { return std::size_t(key % (64 * MightWords)); }
  [[nodiscard]] bool might_name(Key key) const { return might_name_[bit_of(key) / 64] >> (bit_of(key) % 64) & 1; }
  static constexpr std::size_t MightWords = 1024;  // 65,536 bits for about 2,000 lines: 3 % false hits
  // The pawns on their start squares, a bit each (White's second rank, Black's seventh):
  // no pawn ever comes back to one, so no position with a pawn at home that `now` lacks
  // can follow `now`.
  static unsigned home_pawns(const Position& now);
  // Whether some named position may still follow `now`, by its pawns at home.
  [[nodiscard]] bool may_reach(const Position& now) const;
  void fill_reachable(const std::vector<unsigned>& named_home_pawns);
  // Names the key's position `op`, unless a line before named it.
  void add(Key key, Opening op);
  void grow();
  // Whether the database keeps exactly this table's lines.
  [[nodiscard]] bool stored_in(Connection& db) const;

  // The named positions: open addressing on the key's high bits (its low bits pick the
  // bit in might_name_), linear probing, half full at most. A node-based map cost a
  // division and a cache miss or two per look-up, and a game looks up ~25 positions.
  struct Slot {
    Key key = 0;
    std::uint32_t opening = 0;  // index in openings_ plus one; 0: the slot is empty
  };
  std::vector<Slot> slots_ = std::vector<Slot>(1024);
  std::vector<Opening> openings_;
  std::size_t count_ = 0;
  std::vector<std::uint64_t> might_name_ = std::vector<std::uint64_t>(MightWords);  // bit_of of every key
  // Bit m: some named position's home pawns are a subset of m (may_reach).
  std::vector<std::uint64_t> reachable_ = std::vector<std::uint64_t>((1u << 16) / 64);
  std::size_t max_ply_ = 0;  // no named line is longer: later positions need no look-up
};

// Chinese names of openings, from the table compiled in (src/db/eco_zh.tsv, which cites
// its sources): the opening's own established name, else its family's ("Sicilian,
// Chekhover variation" → 西西里防御), and the variation's where one is established
// ("Najdorf" → 纳道夫变例), else an empty variation.
enum class Script { Simplified, Traditional };
struct ChineseOpening {
  std::string_view name, variation;
};
// nullopt when the table knows neither the opening nor its family.
[[nodiscard]] std::optional<ChineseOpening> chinese_opening(std::string_view opening, std::string_view variation,
                                                            Script script);

}  // namespace qipu::db
