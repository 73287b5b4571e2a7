// The parts of `qipu stats` about players and teams (stats_players.cpp).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::cli {

// Points with a half as "½": "2½", "½", "3".
std::string half_points(double p);
// The table as --format asks: aligned columns (table) or tab-separated (tsv, for scripts).
void print_table(std::ostream& out, Table& table, bool tsv, std::string_view indent = "");
// stats --player X: the one person X names (db/players.hpp), their games, score and
// performance rating overall, by colour, by year and by ECO family.
void print_player_stats(std::ostream& out, Lang lang, bool tsv, db::Connection& c, const std::string& query);
// stats --event NAME --teams: the event's team matches, standings and match crosstable.
void print_team_stats(std::ostream& out, Lang lang, bool tsv, db::Connection& c, std::int64_t event,
                      const std::string& event_name, bool by_game_points, int max_crosstable);

}  // namespace qipu::cli
