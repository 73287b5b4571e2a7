// The options that select games, declared once for `search` (SQL) and `filter` (in
// memory), and the subsets of them that `explore` and `rating` take: the same names,
// meanings and messages in every command.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "qipu/game/criteria.hpp"

namespace qipu::cli {

struct CriteriaOptions {
  game::Criteria criteria;
  std::string termination;        // a termination_name, resolved by finish_criteria
  std::vector<std::string> tags;  // NAME=VALUE or NAME~REGEX
  int nots = 0;
  bool substring = false;                        // names anywhere, not by words
  bool won = false, lost = false, drew = false;  // the player's result
};

// Which command declares them: filter has more (tags, speed, --not, …), and a few
// meanings differ (search's material is the final position's). explore takes the
// player, colour, Elo and dates (its --fen and --moves are the position it explores);
// rating the event, site and dates.
enum class CriteriaScope { search, filter, explore, rating };
void add_criteria_options(CLI::App& cmd, CriteriaOptions& o, CriteriaScope scope);

// After parsing: resolves --termination, --tag and --not into o.criteria and checks the
// criteria. False after a message on stderr ("qipu search: --eco: expected …").
bool finish_criteria(const char* command, const CLI::App& cmd, CriteriaOptions& o);

}  // namespace qipu::cli
