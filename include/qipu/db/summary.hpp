// Totals of the collection that import keeps with its games (table summary): games by
// result, by final position and by event, with dates, so that `qipu stats` and qipu serve's
// summary and list of events read a few rows instead of the whole game table (10 s and more
// at 12 M games). Games stored by an older qipu, past the rows' last counted game, are
// counted from their rows when read, and added to the rows by the next import.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "qipu/db/sqlite.hpp"

namespace qipu::db {

// Counts of games with their first and last dates (date_sort, YYYYMMDD; none without a date).
struct Tally {
  std::int64_t games = 0;
  std::optional<std::int64_t> first_date, last_date;
  void add(std::int64_t n, std::optional<std::int64_t> first, std::optional<std::int64_t> last);
};

struct Summary {
  Tally all;
  std::map<std::optional<std::string>, Tally> results;  // by Result tag; nullopt: no tag
  std::map<std::int64_t, Tally> terminations;
  std::map<std::int64_t, Tally> events;  // by event id, games with an event
};

// Collects an import's games and adds them to the rows (inside the importer's transaction).
class SummaryWriter {
 public:
  // Games in increasing id order.
  void add_game(std::int64_t id, std::optional<std::string_view> result, std::int64_t termination,
                std::optional<std::int64_t> event, std::optional<std::int64_t> date_sort);
  void flush(Connection& db);

 private:
  Summary pending_;
  std::int64_t first_ = 0, last_ = 0;  // the pending games' ids; 0: none
};

// The totals of every game in the database, in one read transaction.
Summary read_summary(Connection& db);

// "1990.05.??" from a date_sort (unknown month or day as 00).
std::string date_text(std::int64_t date_sort);

}  // namespace qipu::db
