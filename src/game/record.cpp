#include "qipu/game/record.hpp"

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <unordered_set>

namespace qipu::game {

// Length and first byte before the whole name: most tags differ there, and the whole
// compare is a call to memcmp.
bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && (a.empty() || (a[0] == b[0] && a == b));
}

std::string_view GameRecord::tag(std::string_view name) const {
  for (const auto& [k, v] : tags)
    if (same_name(k, name)) return v;
  return {};
}

std::vector<std::size_t> repeated_tags(const Tags& tags) {
  std::vector<std::size_t> repeated;
  std::unordered_set<std::string_view> names;
  names.reserve(tags.size());
  for (std::size_t i = 0; i < tags.size(); ++i)
    if (!names.insert(tags[i].first).second) repeated.push_back(i);
  return repeated;
}

void GameRecord::clear() {
  // Every member is reset by building the record anew in place, so none added later is
  // forgotten; in place, as assigning a new record moved each member and built and
  // destroyed a second record.
  auto keep_tags = std::move(tags);
  auto keep_line = std::move(mainline);
  auto keep_diagnostics = std::move(diagnostics);
  std::destroy_at(this);
  std::construct_at(this);
  tags = std::move(keep_tags);
  tags.clear();
  mainline = std::move(keep_line);
  mainline.clear();
  diagnostics = std::move(keep_diagnostics);
  diagnostics.clear();
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

namespace {

// v equals one of the names (written in lower case) but for ASCII case; no copy, as it
// runs for every game.
bool names_one_of(std::string_view v, std::initializer_list<std::string_view> names) {
  auto same = [](char a, char b) { return (a >= 'A' && a <= 'Z' ? char(a + ('a' - 'A')) : a) == b; };
  for (std::string_view n : names)
    if (std::equal(v.begin(), v.end(), n.begin(), n.end(), same)) return true;
  return false;
}

// Chess960 or standard; anything else is refused by name.
std::optional<bool> variant_is_960(std::string_view v) {
  if (v.empty() || names_one_of(v, {"standard", "chess", "normal", "regular", "from position"})) return false;
  if (names_one_of(v, {"chess960", "chess 960", "fischerandom", "fischer random", "960", "freestyle", "chess-960"}))
    return true;
  return std::nullopt;
}

// Xiangqi files give themselves away by their Game tag or a FEN nine files wide.
bool looks_like_xiangqi(std::string_view game, std::string_view fen) {
  if (names_one_of(game, {"chinese chess", "xiangqi"})) return true;
  std::string_view placement = fen.substr(0, fen.find(' '));
  return std::count(placement.begin(), placement.end(), '/') == 9;  // ten ranks
}

}  // namespace

Result<void> set_up_start(GameRecord& rec) {
  return set_up_start(rec, {rec.tag("FEN"), rec.tag("Variant"), rec.tag("SetUp"), rec.tag("Game")});
}

Result<void> set_up_start(GameRecord& rec, const StartTags& tags) {
  std::string_view fen = tags.fen, variant = tags.variant;
  if (looks_like_xiangqi(tags.game, fen))
    return Failure{"this is a xiangqi (Chinese chess) game, not international chess"};
  auto is960 = variant_is_960(variant);
  if (!is960)
    return Failure{"variant '" + std::string(variant) + "' is not supported (only standard chess and Chess960)"};
  if (fen.empty()) {
    if (*is960) return Failure{"a Chess960 game needs a FEN tag with its start position"};
    return {};
  }
  auto parsed = Position::from_fen(fen, *is960, Position::FenSlips::Repair);
  if (!parsed) return Failure{"invalid FEN tag: " + parsed.error()};
  rec.start_position = *parsed;
  rec.start_fen = std::string(fen);
  Result<void> done;
  for (const auto& n : parsed.notes()) done.note(n);
  return done;
}

std::string display_token(std::string_view token) {
  constexpr std::size_t MaxChars = 40;
  std::string s;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < token.size(); ++i) {
    auto c = static_cast<unsigned char>(token[i]);
    bool starts_char = (c & 0xC0) != 0x80;
    if (starts_char && ++chars > MaxChars) {
      s += "…";
      return s;
    }
    if (c < 0x20 || c == 0x7F) {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    } else {
      s += char(c);
    }
  }
  return s;
}

std::string numbered_move(int fullmove, Color side, std::string_view san) {
  std::string s = std::to_string(fullmove);
  s += side == White ? ". " : "... ";
  s += display_token(san);
  return s;
}

std::string numbered_move(const Position& before, std::string_view san) {
  return numbered_move(before.fullmove_number(), before.side_to_move(), san);
}

}  // namespace qipu::game
