#include "qipu/game/record.hpp"

namespace qipu::game {

std::string_view GameRecord::tag(std::string_view name) const {
  for (const auto& [k, v] : tags)
    if (k == name) return v;
  return {};
}

int GameRecord::error_count() const {
  int n = 0;
  for (const auto& d : diagnostics) n += d.error;
  return n;
}

int GameRecord::warning_count() const { return int(diagnostics.size()) - error_count(); }

int GameRecord::plies() const {
  int n = 0;
  for (const auto& node : mainline) {
    if (node.move.is_none()) break;
    ++n;
  }
  return n;
}

std::string numbered_move(const Position& before, std::string_view san) {
  std::string s = std::to_string(before.fullmove_number());
  s += before.side_to_move() == White ? ". " : "... ";
  s += san;
  return s;
}

}  // namespace qipu::game
