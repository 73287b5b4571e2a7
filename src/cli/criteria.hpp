// The options that select games, declared once for `search` (SQL) and `filter` (in
// memory): the same names, meanings and messages in both commands.
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
// meanings differ (search's material is the final position's).
enum class CriteriaScope { search, filter };
void add_criteria_options(CLI::App& cmd, CriteriaOptions& o, CriteriaScope scope);

// After parsing: resolves --termination, --tag and --not into o.criteria and checks the
// criteria. False after a message on stderr ("qipu search: --eco: expected …").
bool finish_criteria(const char* command, const CLI::App& cmd, CriteriaOptions& o);

}  // namespace qipu::cli
