#include "qipu/game/writer.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace qipu::game {

namespace {

constexpr std::array<std::string_view, 7> Roster = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
constexpr std::array<std::string_view, 7> RosterDefaults = {"?", "?", "????.??.??", "?", "?", "?", "*"};

// Characters, not bytes: a Chinese piece word is one character wide.
std::size_t width_of(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Collects movetext units, then fills lines greedily. Units are never split, so comments
// keep their text exactly; "(" sticks to the unit after it and ")" to the one before.
class MovetextLines {
 public:
  explicit MovetextLines(std::size_t width) : width_(width) {}
  void add(std::string token) {
    units_.push_back({open_ + std::move(token), false});
    open_.clear();
  }
  void open_paren() { open_ += '('; }
  void close_paren() {
    if (units_.empty()) add("");
    units_.back().text += ')';
  }
  void end_line() {  // after a ; comment, which runs to the end of the line
    if (!units_.empty()) units_.back().ends_line = true;
  }
  std::string finish() {
    std::string out, line;
    std::size_t width = 0;  // of `line`, in characters
    for (const auto& u : units_) {
      std::size_t w = width_of(u.text);
      if (!line.empty() && width + 1 + w > width_) flush(out, line, width);
      if (!line.empty()) line += ' ', ++width;
      line += u.text;
      width += w;
      if (u.text.find('\n') != std::string::npos) {  // a comment holding a newline ends a line
        std::size_t nl = line.rfind('\n');
        out.append(line, 0, nl + 1);
        line.erase(0, nl + 1);
        width = width_of(line);
      }
      if (u.ends_line) flush(out, line, width);
    }
    flush(out, line, width);
    return out;
  }

 private:
  struct Unit {
    std::string text;
    bool ends_line;
  };
  static void flush(std::string& out, std::string& line, std::size_t& width) {
    if (line.empty()) return;
    out += line;
    out += '\n';
    line.clear();
    width = 0;
  }
  std::size_t width_;
  std::string open_;
  std::vector<Unit> units_;
};

// The game's result as movetext can hold it: the movetext's own, else the Result tag's
// when it is one of the four results, else "*".
std::string movetext_result(const GameRecord& rec) {
  if (!rec.result.empty()) return rec.result;
  std::string_view tag = rec.tag("Result");
  for (std::string_view r : {"1-0", "0-1", "1/2-1/2", "*"})
    if (tag == r) return std::string(r);
  return "*";
}

class Writer {
 public:
  Writer(const WriterOptions& o) : o_(o), notation_(o.notation ? *o.notation : english()), lines_(o.line_width) {}

  std::string movetext(const GameRecord& rec) {
    for (const auto& c : rec.final_comments) comment(c);
    line(rec.start_position, rec.mainline);
    lines_.add(movetext_result(rec));
    return lines_.finish();
  }

 private:
  void comment(const std::string& text) {
    if (text.find('}') == std::string::npos) {
      lines_.add("{" + text + "}");
    } else {  // cannot stand in braces; a ; comment keeps it whole when it has no newline
      lines_.add(";" + text);
      lines_.end_line();
    }
    need_number_ = true;
  }

  // The move number that goes before a move, kept on one line with it.
  static std::string number(const Position& before, bool force) {
    std::string n = std::to_string(before.fullmove_number());
    if (before.side_to_move() == White) return n + ". ";
    return force ? n + "... " : std::string();
  }

  // Writes a line of moves played from `start`; unreplayed moves keep their text.
  // Writes a line of moves played from `start`; unreplayed moves keep their text. The
  // position is played in place; a copy is made only for a move with variations.
  void line(const Position& start, const Line& moves) {
    Position pos = start;
    need_number_ = true;
    bool replaying = true;
    for (const MoveNode& node : moves) {
      const Annotations* a = node.notes.get();
      if (a)
        for (const auto& c : a->pre_comments) comment(c);
      replaying = replaying && !node.move.is_none();
      std::string text = number(pos, need_number_);
      need_number_ = false;
      std::optional<Position> before;
      if (a && !a->variations.empty()) before = pos;
      if (replaying) {
        text += write_move_body(pos, node.move, notation_, o_.style);
        pos.play(node.move);
        append_check_sign(text, pos);
      } else {
        text += node.token();
        pos.play(Move::null());  // after an unreplayed token only the move count moves on
      }
      lines_.add(std::move(text));
      if (a) annotations(*a, before ? *before : pos);
    }
  }

  void annotations(const Annotations& a, const Position& before) {
    for (auto nag : a.nags) {
      std::string t(1, '$');
      t += std::to_string(nag);
      lines_.add(t);
    }
    for (const auto& c : a.comments) comment(c);
    for (const auto& v : a.variations) {
      if (v.empty()) continue;  // nothing to write: "()" would read back as nothing
      lines_.open_paren();
      line(before, v);
      lines_.close_paren();
      need_number_ = true;
    }
  }


  const WriterOptions& o_;
  const Notation& notation_;
  MovetextLines lines_;
  bool need_number_ = true;
};

void append_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  out += escape_tag_value(value);
  out += "\"]\n";
}

}  // namespace

std::string escape_tag_value(std::string_view value) {
  std::string s;
  s.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') s += '\\';
    s += c;
  }
  return s;
}

std::string write_pgn(const GameRecord& rec, const WriterOptions& options) {
  std::string out;
  for (std::size_t i = 0; i < Roster.size(); ++i) {
    std::string_view v = rec.tag(Roster[i]);
    bool present = false;
    for (const auto& [k, val] : rec.tags) present |= k == Roster[i];
    if (!present && Roster[i] == "Result" && !rec.result.empty()) v = rec.result;
    append_tag(out, Roster[i], present || !v.empty() ? v : RosterDefaults[i]);
  }
  bool first_roster_seen[7] = {};
  for (const auto& [k, v] : rec.tags) {
    auto it = std::find(Roster.begin(), Roster.end(), k);
    if (it != Roster.end() && !first_roster_seen[it - Roster.begin()]) {
      first_roster_seen[it - Roster.begin()] = true;  // written above
      continue;
    }
    append_tag(out, k, v);
  }
  out += '\n';
  out += Writer(options).movetext(rec);
  out += '\n';
  return out;
}

}  // namespace qipu::game
