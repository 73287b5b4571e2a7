// An event's standings: points, Sonneborn–Berger and the crosstable's cells, computed
// from the stored games, for qipu stats and qipu serve to print each in their own way.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qipu/db/sqlite.hpp"

namespace qipu::db {

struct EventRef {
  std::int64_t id = 0;
  std::string name;
};
// The event a user means: an exact (case-insensitive) name, else the only one that
// contains the text. When there is no such one, `candidates` gets those that contain it
// (up to 21, by name) and nullopt comes back. Needs register_search_functions.
std::optional<EventRef> find_event(Connection& c, const std::string& name, std::vector<EventRef>* candidates = nullptr);

struct Entrant {
  std::int64_t id = 0;
  std::string name;
  double points = 0, sb = 0;
  int games = 0;
  std::map<std::int64_t, std::string> cells;  // opponent id → "1½0" in game order
};

struct Standings {
  std::int64_t games = 0;
  std::vector<Entrant> entrants;  // by points, then Sonneborn–Berger
};
// A win counts 1, a draw ½; games without a result count for nothing.
Standings event_standings(Connection& c, std::int64_t event);

}  // namespace qipu::db
