#include "qipu/game/record.hpp"

#include <algorithm>
#include <cctype>

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

void GameRecord::clear() {
  // Every member is reset by assigning a new record, so none added later is forgotten.
  auto keep_tags = std::move(tags);
  auto keep_line = std::move(mainline);
  auto keep_diagnostics = std::move(diagnostics);
  *this = GameRecord();
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

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Chess960 or standard; anything else is refused by name.
std::optional<bool> variant_is_960(std::string_view v) {
  std::string s = lower(v);
  if (s.empty() || s == "standard" || s == "chess" || s == "normal" || s == "regular" || s == "from position")
    return false;
  if (s == "chess960" || s == "chess 960" || s == "fischerandom" || s == "fischer random" || s == "960" ||
      s == "freestyle" || s == "chess-960")
    return true;
  return std::nullopt;
}

}  // namespace

// Xiangqi files give themselves away by their Game tag or a FEN nine files wide.
bool looks_like_xiangqi(const GameRecord& rec) {
  std::string game = lower(rec.tag("Game"));
  if (game == "chinese chess" || game == "xiangqi") return true;
  std::string_view fen = rec.tag("FEN");
  std::string_view placement = fen.substr(0, fen.find(' '));
  return std::count(placement.begin(), placement.end(), '/') == 9;  // ten ranks
}

std::string set_up_start(GameRecord& rec, std::string* repairs) {
  if (looks_like_xiangqi(rec)) return "this is a xiangqi (Chinese chess) game, not international chess";
  auto is960 = variant_is_960(rec.tag("Variant"));
  if (!is960) return "variant '" + std::string(rec.tag("Variant")) + "' is not supported (only standard chess and Chess960)";
  std::string_view fen = rec.tag("FEN");
  if (!fen.empty()) {
    auto parsed = Position::from_fen(fen, *is960, repairs);
    if (!parsed) return "invalid FEN tag: " + parsed.error;
    rec.start_position = *parsed.position;
    rec.start_fen = std::string(fen);
    return {};
  }
  if (rec.tag("SetUp") == "1") return "SetUp is \"1\" but there is no FEN tag";
  if (*is960) return "a Chess960 game needs a FEN tag with its start position";
  return {};
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
