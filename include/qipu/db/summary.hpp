// Totals of the collection that import keeps with its games (table summary): games by
// result, by final position, by event and by opening, with dates, so that `qipu stats` and qipu serve's
// summary and list of events read a few rows instead of the whole game table (10 s and more
// at 12 M games). Games stored by an older qipu, past the rows' last counted game, are
// counted from their rows when read, and added to the rows by the next import.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qipu/db/sqlite.hpp"

namespace qipu::db {

struct GameQuery;  // db/store.hpp

// Counts of games with their first and last dates (date_sort, YYYYMMDD; none without a
// date) and the first and last of their ids (0 when none).
struct Tally {
  std::int64_t games = 0;
  std::optional<std::int64_t> first_date, last_date;
  std::int64_t first_game = 0, last_game = 0;
  void add(const Tally& t);
};

struct Summary {
  Tally all;
  std::map<std::optional<std::string>, Tally> results;  // by Result tag; nullopt: no tag
  std::map<std::int64_t, Tally> terminations;
  std::map<std::int64_t, Tally> events;    // by event id, games with an event
  std::map<std::int64_t, Tally> openings;  // by opening id (opening table), games with one
};

// What the totals count of a game.
struct SummaryGame {
  std::int64_t id = 0;
  std::optional<std::string_view> result;  // the Result tag
  std::int64_t termination = 0;
  std::optional<std::int64_t> event, date_sort, opening;
};

// Collects an import's games and adds them to the rows (inside the importer's transaction).
class SummaryWriter {
 public:
  // Games in increasing id order.
  void add_game(const SummaryGame& g);
  void flush(Connection& db);

 private:
  std::int64_t trusted_through(Connection& db, std::string_view mark, std::string_view delete_sql);

  Summary pending_;
  std::int64_t first_ = 0, last_ = 0;  // the pending games' ids; 0: none
};

// The totals of every game in the database, in one read transaction; the openings' only
// with_openings (in a database whose rows were written by a qipu from before them, that
// reads every game's row).
Summary read_summary(Connection& db, bool with_openings = false);

// The games of one event: its id, within the ids its games lie between (so that SQLite reads
// that stretch of the game table rather than all of it: games of an event are mostly
// imported together).
GameQuery event_games(Connection& db, std::int64_t event);

// The least and the largest game id the games of these events can have (the rows' ranges,
// and every game past the rows' last counted one); from > to when no game can be theirs.
std::pair<std::int64_t, std::int64_t> events_id_range(Connection& db, const std::vector<std::int64_t>& events);

// "1990.05.??" from a date_sort (unknown month or day as 00).
std::string date_text(std::int64_t date_sort);

}  // namespace qipu::db
