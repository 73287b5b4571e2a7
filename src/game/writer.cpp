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

// UTF-8 continuation bytes (10xxxxxx) in the `words` 8-byte words at p.
std::size_t continuations(const char* p, std::size_t words) {
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  std::size_t n = 0;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * i, 8);
    n += std::size_t(std::popcount(w & kHigh & ~(w << 1)));
  }
  return n;
}

// Characters, not bytes: a Chinese piece word is one character wide.
std::size_t width_of(std::string_view s) {
  std::size_t whole = s.size() / 8, n = continuations(s.data(), whole);
  for (std::size_t i = 8 * whole; i < s.size(); ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
  return s.size() - n;
}

// A move's text, built in a zeroed buffer so that its width is counted a word at a time.
struct MoveText {
  char bytes[16 + MaxMoveBytes + 8] = {};  // number, move, and zeros to round up to a word
  char* end = bytes;
  [[nodiscard]] std::string_view view() const { return {bytes, std::size_t(end - bytes)}; }
  [[nodiscard]] std::size_t width() const {
    std::size_t n = std::size_t(end - bytes);
    return n - continuations(bytes, (n + 7) / 8);
  }
};

// Fills lines greedily with movetext units, appending to `out`. Units are never split,
// so comments keep their text exactly; "(" sticks to the unit after it and ")" to the
// one before. Each unit is written in place after a space; when it is placed (once the
// next unit starts, since a ")" may still join it) and does not fit, that space becomes
// the line break.
class MovetextLines {
 public:
  MovetextLines(std::string& out, std::size_t width) : out_(out), width_(width), line_start_(out.size()) {}
  void add(std::string_view token) { unit() += token; }
  // Starts the next unit and returns the output for the caller to append it to.
  std::string& unit() {
    if (has_pending_) place();
    if (!line_empty()) out_ += ' ';
    unit_start_ = out_.size();
    if (opens_) out_.append(opens_, '(');
    opens_ = 0;
    has_pending_ = true;
    pending_width_ = Unmeasured;
    return out_;
  }
  // The same for a unit whose width is known.
  void unit(std::string_view text, std::size_t width) {
    unit().append(text);
    pending_width_ = out_.size() - text.size() - unit_start_ + width;  // with its "("
  }
  void open_paren() { ++opens_; }
  void close_paren() {
    if (!has_pending_) add("");
    out_ += ')';
    if (pending_width_ != Unmeasured) ++pending_width_;
  }
  void end_line() {  // after a ; comment, which runs to the end of the line
    if (has_pending_) pending_ends_line_ = true;
  }
  // The unit being written may hold a newline (a comment's text).
  void may_break() { pending_may_break_ = true; }
  void finish() {
    if (has_pending_) place();
    end_current_line();
  }

 private:
  // The current line is the tail of out_ from line_start_.
  bool line_empty() const { return out_.size() == line_start_; }
  void place() {
    std::string_view unit = std::string_view(out_).substr(unit_start_);
    std::size_t w = pending_width_ != Unmeasured ? pending_width_ : width_of(unit);
    bool after_space = unit_start_ != line_start_;
    if (after_space && line_width_ + 1 + w > width_) {
      out_[unit_start_ - 1] = '\n';
      line_start_ = unit_start_;
      line_width_ = w;
    } else {
      line_width_ += after_space + w;
    }
    if (pending_may_break_ && unit.find('\n') != std::string_view::npos) {  // a comment holding a newline ends a line
      line_start_ = out_.rfind('\n') + 1;
      line_width_ = width_of(std::string_view(out_).substr(line_start_));
    }
    if (pending_ends_line_) end_current_line();
    has_pending_ = pending_ends_line_ = pending_may_break_ = false;
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
  std::size_t line_width_ = 0;  // of the current line, in characters, up to the pending unit
  std::size_t unit_start_ = 0;  // of the pending unit, which is the tail of out_
  std::size_t opens_ = 0;       // "(" waiting for the next unit
  static constexpr std::size_t Unmeasured = std::size_t(-1);
  std::size_t pending_width_ = Unmeasured;
  bool has_pending_ = false, pending_ends_line_ = false, pending_may_break_ = false;
};

// The game's result as movetext can hold it: the movetext's own, else the Result tag's
// when it is one of the four results, else "*".
std::string_view movetext_result(const GameRecord& rec) {
  if (!rec.result.empty()) return rec.result;
  std::string_view tag = rec.tag("Result");
  for (std::string_view r : {"1-0", "0-1", "1/2-1/2", "*"})
    if (tag == r) return r;
  return "*";
}

class Writer {
 public:
  // Without `board`, moves are written from their recorded shapes; with it (for games
  // whose moves lack them, decoded from the database) from the board, replaying.
  Writer(std::string& out, const WriterOptions& o, const Position* board)
      : o_(o), notation_(o.notation ? *o.notation : english()), lines_(out, o.line_width) {
    if (board) board_ = *board;
  }

  // False, having written rubbish, when a replayed move lacks its shape and there is no board.
  bool movetext(const GameRecord& rec) {
    for (const auto& c : rec.final_comments) comment(c);
    line(Place{rec.start_position.fullmove_number(), rec.start_position.side_to_move()}, rec.mainline);
    lines_.add(movetext_result(rec));
    lines_.may_break();
    lines_.finish();
    return !lacks_shape_;
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
    std::string& t = lines_.unit();
    t += braces ? '{' : ';';
    t += text;
    if (braces) t += '}';
    if (!braces) lines_.end_line();
    lines_.may_break();
    need_number_ = true;
  }

  // The move number that goes before a move, kept on one line with it.
  void number(MoveText& t, Place at, bool force) {
    if (at.side == Black && !force) return;
    t.end = std::to_chars(t.end, t.end + 12, at.fullmove).ptr;
    t.end = at.side == White ? std::copy_n(". ", 2, t.end) : std::copy_n("... ", 4, t.end);
  }

  // Writes a line of moves from `at`; unreplayed moves keep their text. The board is
  // kept only for games whose moves lack their shapes.
  void line(Place at, const Line& moves) {
    need_number_ = true;
    bool replaying = true;
    for (const MoveNode& node : moves) {
      if (lacks_shape_) return;  // the game is written again with a board
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
    MoveText t;
    number(t, at, need_number_);
    need_number_ = false;
    if (replaying) {
      t.end = put_move(t.end, node.move, shape_of(node), notation_, o_.style);
      lines_.unit(t.view(), t.width());
    } else {
      lines_.unit().append(t.view()) += node.token();
      lines_.may_break();
      if (board_) board_->play(Move::null());  // after an unreplayed token only the move count moves on
    }
    at.advance();
  }

  // The node's shape, or (for a game without shapes) the one found on the board,
  // which then plays the move.
  SanShape shape_of(const MoveNode& node) {
    if (!board_) {
      lacks_shape_ |= !node.shape.known();
      return node.shape;
    }
    SanShape shape = san_shape(*board_, node.move);
    board_->play(node.move);
    shape.suffix = check_suffix(*board_);
    return shape;
  }

  void annotations(const Annotations& a, Place before, const std::optional<Position>& board_before) {
    for (auto nag : a.nags) {
      char text[4] = {'$'};
      lines_.unit().append(text, std::to_chars(text + 1, text + 4, nag).ptr);
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
  std::optional<Position> board_;   // the position, when moves lack shapes
  bool need_number_ = true;
  bool lacks_shape_ = false;
};

// Appends the value escaped for a PGN string: \ and " get a backslash.
void append_escaped(std::string& out, std::string_view value) {
  for (std::size_t i = 0; i < value.size(); ++i)
    if (value[i] == '\\' || value[i] == '"') {
      out.append(value.data(), i) += '\\';
      value.remove_prefix(i);  // the sign itself starts the rest
      i = 0;
    }
  out += value;
}

void append_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  append_escaped(out, value);
  out += "\"]\n";
}

int roster_index(std::string_view name) {
  for (std::size_t i = 0; i < Roster.size(); ++i)
    if (name == Roster[i]) return int(i);
  return -1;
}

void append_tags(std::string& out, const GameRecord& rec) {
  // The first tag of each roster name goes first, in roster order; the others follow as they came.
  std::array<const std::string*, Roster.size()> first{};
  for (const auto& [k, v] : rec.tags)
    if (int r = roster_index(k); r >= 0 && !first[std::size_t(r)]) first[std::size_t(r)] = &v;
  for (std::size_t r = 0; r < Roster.size(); ++r) {
    std::string_view v = first[r] ? std::string_view(*first[r]) : RosterDefaults[r];
    if (!first[r] && Roster[r] == "Result" && !rec.result.empty()) v = rec.result;
    append_tag(out, Roster[r], v);
  }
  for (const auto& [k, v] : rec.tags)
    if (int r = roster_index(k); r < 0 || first[std::size_t(r)] != &v) append_tag(out, k, v);
}

// Room for a game of plain moves, so that the text is seldom copied as it grows.
std::size_t expected_size(const GameRecord& rec) {
  std::size_t n = 200;
  for (const auto& [k, v] : rec.tags) n += k.size() + v.size() + 6;
  return n + 12 * rec.mainline.size();
}

}  // namespace

std::string escape_tag_value(std::string_view value) {
  std::string s;
  append_escaped(s, value);
  return s;
}

std::string write_pgn(const GameRecord& rec, const WriterOptions& options) {
  std::string out;
  out.reserve(expected_size(rec));
  append_tags(out, rec);
  out += '\n';
  std::size_t movetext = out.size();
  if (!Writer(out, options, nullptr).movetext(rec)) {
    out.resize(movetext);
    Writer(out, options, &rec.start_position).movetext(rec);
  }
  out += '\n';
  return out;
}

}  // namespace qipu::game
