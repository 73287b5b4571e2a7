#include "qipu/game/writer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <optional>

namespace qipu::game {

namespace {

constexpr std::array<std::string_view, 7> Roster = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
constexpr std::array<std::string_view, 7> RosterDefaults = {"?", "?", "????.??.??", "?", "?", "?", "*"};

// Characters, not bytes: a Chinese piece word is one character wide. Counts the UTF-8
// continuation bytes (10xxxxxx) eight at a time.
std::size_t width_of(std::string_view s) {
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  std::size_t n = s.size(), i = 0, continuations = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    continuations += std::size_t(std::popcount(w & kHigh & ~(w << 1)));
  }
  for (; i < n; ++i) continuations += (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
  return n - continuations;
}

// Fills lines greedily with movetext units, appending to `out`. Units are never split,
// so comments keep their text exactly; "(" sticks to the unit after it and ")" to the
// one before, which is why the last unit waits in `pending_` until the next one comes.
class MovetextLines {
 public:
  MovetextLines(std::string& out, std::size_t width) : out_(out), width_(width), line_start_(out.size()) {}
  void add(std::string_view token) {
    if (has_pending_) place();
    pending_.assign(open_);
    pending_ += token;
    has_pending_ = true;
    open_.clear();
  }
  void open_paren() { open_ += '('; }
  void close_paren() {
    if (!has_pending_) add("");
    pending_ += ')';
  }
  void end_line() {  // after a ; comment, which runs to the end of the line
    if (has_pending_) pending_ends_line_ = true;
  }
  void finish() {
    if (has_pending_) place();
    end_current_line();
  }

 private:
  // The current line is the tail of out_ from line_start_.
  bool line_empty() const { return out_.size() == line_start_; }
  void place() {
    std::size_t w = width_of(pending_);
    if (!line_empty() && line_width_ + 1 + w > width_) end_current_line();
    if (!line_empty()) out_ += ' ', ++line_width_;
    out_ += pending_;
    line_width_ += w;
    if (pending_.find('\n') != std::string::npos) {  // a comment holding a newline ends a line
      line_start_ = out_.rfind('\n') + 1;
      line_width_ = width_of(std::string_view(out_).substr(line_start_));
    }
    if (pending_ends_line_) end_current_line();
    has_pending_ = pending_ends_line_ = false;
  }
  void end_current_line() {
    if (line_empty()) return;
    out_ += '\n';
    line_start_ = out_.size();
    line_width_ = 0;
  }
  std::string& out_;
  std::size_t width_;
  std::size_t line_start_;
  std::size_t line_width_ = 0;  // of the current line, in characters
  std::string open_, pending_;
  bool has_pending_ = false, pending_ends_line_ = false;
};

// Does any replayed move of the line, or of its variations, lack its SAN shape?
bool lacks_shapes(const Line& line) {
  for (const MoveNode& node : line) {
    if (!node.move.is_none() && !node.move.is_null() && !node.shape.known()) return true;
    if (node.notes)
      for (const Line& v : node.notes->variations)
        if (lacks_shapes(v)) return true;
  }
  return false;
}

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
  Writer(std::string& out, const WriterOptions& o)
      : o_(o), notation_(o.notation ? *o.notation : english()), lines_(out, o.line_width) {}

  void movetext(const GameRecord& rec) {
    for (const auto& c : rec.final_comments) comment(c);
    // Replayed games carry each move's shape; others (decoded from the database) are
    // replayed here to find it.
    if (lacks_shapes(rec.mainline)) board_ = rec.start_position;
    line(Place{rec.start_position.fullmove_number(), rec.start_position.side_to_move()}, rec.mainline);
    lines_.add(movetext_result(rec));
    lines_.finish();
  }

 private:
  // Where a move stands, for its number.
  struct Place {
    int fullmove;
    Color side;
    void advance() {
      if (side == Black) ++fullmove;
      side = ~side;
    }
  };

  void comment(const std::string& text) {
    // A comment holding '}' cannot stand in braces; a ; comment keeps it whole when it
    // has no newline. (Built with += : GCC 12 warns falsely on assign().append().)
    bool braces = text.find('}') == std::string::npos;
    text_.clear();
    text_ += braces ? '{' : ';';
    text_ += text;
    if (braces) text_ += '}';
    lines_.add(text_);
    if (!braces) lines_.end_line();
    need_number_ = true;
  }

  // The move number that goes before a move, kept on one line with it.
  void number(Place at, bool force) {
    if (at.side == Black && !force) return;
    char digits[16];
    text_.append(digits, std::to_chars(digits, digits + sizeof digits, at.fullmove).ptr);
    text_ += at.side == White ? ". " : "... ";
  }

  // Writes a line of moves from `at`; unreplayed moves keep their text. The board is
  // kept only for games whose moves lack their shapes.
  void line(Place at, const Line& moves) {
    need_number_ = true;
    bool replaying = true;
    for (const MoveNode& node : moves) {
      const Annotations* a = node.notes.get();
      if (a)
        for (const auto& c : a->pre_comments) comment(c);
      replaying = replaying && !node.move.is_none();
      Place before = at;
      if (a && !a->variations.empty() && board_) {  // variations start from the board before the move
        std::optional<Position> board_before = board_;
        write_move(node, at, replaying);
        annotations(*a, before, board_before);
      } else {
        write_move(node, at, replaying);
        if (a) annotations(*a, before, board_);
      }
    }
  }

  void write_move(const MoveNode& node, Place& at, bool replaying) {
    text_.clear();
    number(at, need_number_);
    need_number_ = false;
    if (replaying) {
      append_move(text_, node.move, shape_of(node), notation_, o_.style);
    } else {
      text_ += node.token();
      if (board_) board_->play(Move::null());  // after an unreplayed token only the move count moves on
    }
    at.advance();
    lines_.add(text_);
  }

  // The node's shape, or (for a game without shapes) the one found on the board,
  // which then plays the move.
  SanShape shape_of(const MoveNode& node) {
    if (!board_) return node.shape;
    SanShape shape = san_shape(*board_, node.move);
    board_->play(node.move);
    shape.suffix = check_suffix(*board_);
    return shape;
  }

  void annotations(const Annotations& a, Place before, const std::optional<Position>& board_before) {
    for (auto nag : a.nags) {
      text_.clear();
      text_ += '$';
      text_ += std::to_string(nag);
      lines_.add(text_);
    }
    for (const auto& c : a.comments) comment(c);
    for (const auto& v : a.variations) {
      if (v.empty()) continue;  // nothing to write: "()" would read back as nothing
      lines_.open_paren();
      std::optional<Position> after = board_;
      board_ = board_before;
      line(before, v);
      board_ = after;
      lines_.close_paren();
      need_number_ = true;
    }
  }

  const WriterOptions& o_;
  const Notation& notation_;
  MovetextLines lines_;
  std::string text_;                // the unit being written
  std::optional<Position> board_;   // the position, when moves lack shapes
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
  Writer(out, options).movetext(rec);
  out += '\n';
  return out;
}

}  // namespace qipu::game
