// The game database: opening and upgrading it, importing replayed games in batches,
// keeping rejects, and reading games back as GameRecords.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "qipu/core/result.hpp"
#include "qipu/db/explore.hpp"
#include "qipu/db/player_index.hpp"
#include "qipu/db/player_totals.hpp"
#include "qipu/db/summary.hpp"
#include "qipu/db/position_index.hpp"
#include "qipu/db/sqlite.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/record.hpp"

namespace qipu::db {

// 3: the explorer's aggregate (explore_segment, explore_posting). 4: the player index
// (player_segment, player_posting; db/player_index.hpp) instead of game_white and
// game_black. 5: position index merges done a part at a time (segment_merge), which a
// qipu before it would read as duplicated entries. 6: index chunks whose game ids are
// coded from the chunk's first (src/db/index_codec.hpp), which a qipu before it would read
// as wrong games. Older databases are read as they are (explore scans, player searches use
// the SQLite indexes) and upgraded when opened for writing.
constexpr int SchemaVersion = 6;

// Opens (and for writing, creates or upgrades) a qipu database. Refuses files that are
// not SQLite databases, databases of other programs, and newer schema versions.
std::unique_ptr<Connection> open_database(const std::string& path, Connection::Mode mode);

// The database path from --db, else $QIPU_DB, else ./qipu.db.
std::string database_path(const std::string& option);

// What the workers compute for each game before it reaches the writer.
struct EncodedGame {
  std::string moves;                    // codec: ranked moves, Huffman coded
  std::string notes;                    // codec: annotations, empty when none
  std::vector<Key> keys;                // every mainline position, from ply 0
  AggregatePositions explore;           // the explorer's aggregated positions (db/explore.hpp)
  std::string material;                 // final material signature (db/search.hpp)
  std::string eco, opening, variation;  // ECO classification (db/eco.hpp); eco is used only without an ECO tag
};
// Encodes a game's mainline move by move while it is replayed (the pipeline's `move`
// callback, encode_while_replaying), so that the importer does not replay each game a
// second time.
class GameEncoder {
 public:
  // Each mainline move, in order. `aggregate` false leaves out the explorer's positions
  // (EncodedGame::explore), for a database without the aggregate; the same for every move
  // of a game and for its finish.
  void move(const Position& before, Move m, bool aggregate = true);
  // After the replay: the rest of the EncodedGame, or why the game cannot be stored (it
  // is then a reject).
  Result<EncodedGame> finish(const game::GameRecord& rec, const Position& final_position, bool aggregate = true);

 private:
  void make_room();
  static constexpr std::size_t ReservedPlies = 160;
  // Each move's symbol and the key of the position before it, the first plies_ of them.
  std::string symbols_;
  std::vector<Key> keys_;
  std::size_t plies_ = 0;
  AggregatePositions explore_;
  bool past_aggregate_ = false;  // no later position can be aggregated (db/explore.hpp)
  std::uint64_t opening_ = 0;    // where the game is among the thread's known openings (src/db/opening_symbols.hpp)
  std::string error_;
};

// A game on its way into the database: the importer's value for each game in the replay
// pipeline (game::PipelineCallbacks<GameEncoding>), from its first move to Importer::add.
struct GameEncoding {
  GameEncoder encoder;  // fed each mainline move as it is replayed
  // Once a valid game is replayed: its rows, or why they cannot be stored. Nothing for an
  // invalid game: its diagnostics say why.
  std::optional<Result<EncodedGame>> rows;
};
class EcoTable;  // db/eco.hpp
// Sets the callbacks that encode each game while it is replayed (`move`) and finish the
// valid ones on their worker (`prepare`), naming their openings from `eco` when given
// (qipu import, qipu serve's uploads), with the explorer's positions when `aggregate`
// (Importer::keeps_aggregate).
void encode_while_replaying(game::PipelineCallbacks<GameEncoding>& cb, const EcoTable* eco, bool aggregate);
// How far a pipeline that feeds an Importer reads ahead (game::PipelineOptions::batches_ahead):
// the importer stops taking records for each flush of 20,000 games' index, which outlasted 8
// batches a worker. 1 M games into 1 M with 24: faster in 5 of 6 alternating pairs, by 2.3 s of
// 36 (median), for 100 MB more peak RSS (bench_import.md, 2026-12-05).
constexpr std::size_t ImportBatchesAhead = 24;
// The same for a replayed record, replaying its mainline once more.
Result<EncodedGame> encode_game(const game::GameRecord& rec);

// The Date tag a date_sort value stands for ("1990.05.??"); the database keeps the tag's
// text only when it differs from this (the game table's generated column `date`).
std::string written_date(std::int64_t date_sort);

// A game's roster as its row stores it, and where a record's roster tags are (store.cpp).
struct RosterRow;
struct RosterTags;

// A set of 64-bit hashes in one array (open addressing, linear probing): 8 bytes a hash at
// most three quarters full, where std::unordered_set takes about 40, so that the duplicate
// check of a ten-million-game database fits in 128 MB. Hash 0 is kept aside.
class HashSet64 {
 public:
  HashSet64() = default;
  HashSet64(const HashSet64&) = delete;  // and no moves: a moved-from set would keep its counts
  HashSet64& operator=(const HashSet64&) = delete;
  // Room for n hashes without growing.
  void reserve(std::size_t n);
  // True when h was not there (and is now).
  bool insert(std::uint64_t h);
  // Each of [begin, end), as one at a time but faster into a large set.
  void insert(const std::uint64_t* begin, const std::uint64_t* end);
  [[nodiscard]] bool contains(std::uint64_t h) const;
  // True when h was there (and is no more).
  bool erase(std::uint64_t h);
  template <class F>
  void for_each(F f) const {
    if (has_zero_) f(std::uint64_t(0));
    for (std::size_t i = 0; i < slot_count_; ++i)
      if (slots_[i]) f(slots_[i]);
  }
  [[nodiscard]] std::size_t size() const { return size_ + has_zero_; }
  // Bytes of its array.
  [[nodiscard]] std::size_t bytes() const { return slot_count_ * sizeof(std::uint64_t); }

 private:
  static bool full_with(std::size_t n, std::size_t slots);
  [[nodiscard]] std::size_t home(std::uint64_t h) const;
  [[nodiscard]] std::size_t slot_of(std::uint64_t h) const;
  void grow(std::size_t slots);
  struct Free {
    void operator()(std::uint64_t* p) const;
  };
  using Slots = std::unique_ptr<std::uint64_t[], Free>;
  static Slots zeroed_slots(std::size_t n);
  Slots slots_;
  std::size_t slot_count_ = 0;  // 0 or a power of two
  std::size_t size_ = 0;
  bool has_zero_ = false;
};

struct ImportOptions {
  bool allow_duplicates = false;
  bool position_index = true;
  // Games per transaction (a killed import keeps every finished one); 0: 20,000, or a
  // fiftieth of the games the database holds when that is more, up to 40,000.
  std::size_t batch_games = 0;
  // Positions past the aggregate's depth are counted as its positions are from the first run
  // or merge of the position index in which their key is popular on, so that the explorer
  // scans only the games before (src/db/deep_positions.hpp); per 0: none. One entry in four
  // million is about one game in 50,000 (some 80 entries a game): 3.3 entries in a merge of
  // 160,000 games, the largest below 10.24 M (IndexUpperFanout); no fewer than 16 in a batch's
  // run, so that one of 20,000 games does not take chance for it, and 5 in a merge
  // (MergeLeastPopular). One in a million left positions that 255-680 of 10 M games reach to
  // the scan, medians 25-27 ms; one in four million answers them in 17-19 ms, for about 5 % more import
  // CPU at 10 M games (bench_import.md). Tests, with few games, set `min` low.
  Popularity deep_positions{4'000'000, 16};
  // About how many games the import will add, when the caller can tell (qipu import, from
  // its inputs' sizes); 0 when it cannot. The duplicate set is made large enough for them
  // at the start, since growing it holds the old array and the new one at once. A wrong
  // guess costs memory or time, never data.
  std::int64_t expected_games = 0;
};

struct ImportStats {
  std::uint64_t imported = 0, duplicates = 0, rejected = 0;
};

// Whether the reject table has its encoding column (databases made before it lack it
// until an import adds it).
[[nodiscard]] bool reject_encoding_column(Connection& db);

class DeepPositions;  // src/db/deep_positions.hpp

// Adds games one by one on one thread; commits every batch_games games, so that a
// killed import leaves only whole games, and merges the runs of its indexes by size.
// Names are interned in memory, all of them read when it starts; so are the duplicate
// hashes, read from the game_hash table written with the games.
class Importer {
 public:
  // Adds the reject table's encoding column to a database made before it existed.
  Importer(Connection& db, ImportOptions options);
  ~Importer();
  void add(const std::string& source, const game::GameRecord& rec, const EncodedGame& enc);
  void reject(const std::string& source, const game::GameRecord& rec, const std::string& errors);
  // Commits what is pending.
  void finish();
  [[nodiscard]] const ImportStats& stats() const { return stats_; }
  // Whether this database keeps the explorer's aggregate, so that add() needs each game's
  // EncodedGame::explore. A database takes it or leaves it with its first games (an import
  // without the position index leaves it out) and keeps that for good: the aggregate
  // covers every game or is not there (db/explore.hpp).
  [[nodiscard]] bool keeps_aggregate() const { return aggregate_; }

 private:
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using NameIds = std::unordered_map<std::string, std::int64_t, NameHash, std::equal_to<>>;

  void load_names(NameIds& cache, const char* sql);
  void load_hashes();
  void hash_stored_games(const IdRange& ids);
  void keep_hash(std::int64_t id, std::uint64_t hash);
  void flush_hashes();
  void restore_connection();
  void choose_aggregate();
  std::int64_t intern(NameIds& cache, Statement& insert, std::string_view name);
  std::int64_t intern_opening(const std::string& name, const std::string& variation);
  RosterRow roster_row(const game::GameRecord& rec, const RosterTags& roster);
  void flush_index(std::vector<std::uint64_t>* popular);
  void flush();
  void next_game();
  void commit_batch();
  void begin();

  Connection& db_;
  ImportOptions opt_;
  ImportStats stats_;
  std::unique_ptr<Transaction> tx_;
  std::size_t batch_ = 0;  // games per transaction
  std::size_t in_batch_ = 0;
  std::int64_t existing_ = 0;              // the largest game id when the import started
  std::int64_t secure_delete_before_ = 0;  // and its secure_delete
  std::int64_t cache_size_before_ = 0;     // and its cache_size
  bool aggregate_ = true;                  // keeps_aggregate()
  HashSet64 hashes_;
  struct {
    std::int64_t first = 0, last = 0;  // 0: none yet
    std::string bytes;                 // 8 a game
  } pending_hashes_;                   // the game_hash row being written
  NameIds players_, events_, sites_, sources_, openings_, materials_;
  struct Statements;
  std::unique_ptr<Statements> st_;
  class Checkpointer;  // copies the WAL into the file on a thread of its own (store.cpp)
  std::unique_ptr<Checkpointer> checkpointer_;
  struct {
    std::size_t commits = 0, games = 0;
  } since_wait_;  // since the importer last waited for the checkpointer
  PositionIndexWriter index_;
  ExploreWriter explore_;
  std::unique_ptr<DeepPositions> deep_;  // none without the aggregate
  PlayerIndexWriter player_index_;
  SummaryWriter summary_;
  PlayerTotalsWriter player_totals_;
  struct {
    std::int64_t first = 0, last = 0;  // 0: none yet
  } unindexed_;                        // this batch's games, without position index
};

// Reads games back; `where` is an SQL condition on the game table (alias g) whose ?
// parameters are bound, in order, from `params`: user input never becomes SQL text.
struct GameQuery {
  std::string where = "1";
  std::vector<std::variant<std::int64_t, std::string>> params;
  std::string order = "g.id";
  std::int64_t limit = -1, offset = 0;
};
// Binds the query's parameters to st's placeholders from `first` on.
void bind_params(Statement& st, const GameQuery& q, int first = 1);
// A game that does not decode is an error (DbError "game N is damaged (why)"), or, when
// `damaged` is given, is handed to it with why and skipped.
using OnDamaged = std::function<void(std::int64_t id, const std::string& why)>;
void for_each_game(Connection& db, const GameQuery& q, const std::function<bool(game::GameRecord&)>& f,
                   const OnDamaged& damaged = nullptr);
// One game by id, decoded; false if there is none.
bool load_game(Connection& db, std::int64_t id, game::GameRecord& rec);

}  // namespace qipu::db
