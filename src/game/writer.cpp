#include "qipu/game/writer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <optional>

#include "../notation/fast.hpp"
#include "writer_detail.hpp"

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

// The text being written, through pointers: the string is kept longer than the text, the
// rest being room to write in (std::string would check and copy at every small append).
class Text {
 public:
  explicit Text(std::size_t room) { s_.resize(room); }
  // Room for n bytes at the end of the text; what is written there is kept by commit().
  char* room(std::size_t n) {
    if (s_.size() - size_ < n) s_.resize(std::max(2 * s_.size(), size_ + n));
    return s_.data() + size_;
  }
  void commit(const char* end) { size_ = std::size_t(end - s_.data()); }
  void append(std::string_view v) {
    if (v.empty()) return;  // its data may be null, which memcpy must not get
    std::memcpy(room(v.size()), v.data(), v.size());
    size_ += v.size();
  }
  void append(char c) {
    *room(1) = c;
    ++size_;
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::size_t spare() const { return s_.size() - size_; }  // room without growing
  void truncate(std::size_t size) { size_ = size; }
  char& operator[](std::size_t i) { return s_[i]; }
  [[nodiscard]] std::string_view view(std::size_t from) const { return {s_.data() + from, size_ - from}; }
  std::string take() && {
    s_.resize(size_);
    return std::move(s_);
  }

 private:
  std::string s_;
  std::size_t size_ = 0;
};

// Fills lines greedily with movetext units, appending to `out`. Units are never split,
// so comments keep their text exactly; "(" sticks to the unit after it and ")" to the
// one before. Each unit is written in place after a space; when it is placed (once the
// next unit starts, since a ")" may still join it) and does not fit, that space becomes
// the line break.
class MovetextLines {
 public:
  MovetextLines(Text& out, std::size_t width) : out_(out), width_(width), line_start_(out.size()) {}
  void add(std::string_view token) { unit().append(token); }
  // Starts the next unit and returns the output for the caller to append it to.
  Text& unit() {
    if (has_pending_) place();
    if (!line_empty()) out_.append(' ');
    unit_start_ = out_.size();
    for (; opens_ > 0; --opens_) out_.append('(');
    text_start_ = out_.size();
    has_pending_ = true;
    pending_width_ = Unmeasured;
    return out_;
  }
  // The unit's text (after its "(") is `width` characters wide: no need to count them.
  void set_width(std::size_t width) { pending_width_ = text_start_ - unit_start_ + width; }
  void open_paren() { ++opens_; }
  void close_paren() {
    // After a ; comment the line ends first: on its line the ")" would be comment text.
    if (!has_pending_ || pending_ends_line_) add("");
    out_.append(')');
    if (pending_width_ != Unmeasured) ++pending_width_;
  }
  // Keeps the unit's text written up to `end`; more may be appended, measured when placed.
  Text& keep(const char* end) {
    out_.commit(end);
    pending_width_ = Unmeasured;
    return out_;
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
  // Adds n units as add() would, the i-th written by put(p, i) at p (room for `room`
  // bytes) and returning its end: for runs of plain moves, in few steps each. The unit
  // pending must be measured, with no "(" waiting and nothing that ends a line. Room is
  // made for a batch of units at once, and the state kept in locals: a store of a char
  // may alias any member, which the compiler would then read again for every unit.
  template <class Put>
  void add_run(std::size_t n, std::size_t room, bool ascii, Put&& put) {
    constexpr std::size_t Batch = 16;
    const std::size_t width = width_;
    for (std::size_t i = 0; i < n;) {
      std::size_t last = std::min(n, i + std::clamp<std::size_t>(out_.spare() / (1 + room), 1, Batch));
      char* p = out_.room((last - i) * (1 + room));
      char* text = p - out_.size();
      char *line_start = text + line_start_, *unit = text + unit_start_;
      std::size_t line_width = line_width_, w = pending_width_;
      for (; i < last; ++i) {
        // place() for the pending unit, which is never empty (a move)
        bool after_space = unit != line_start;
        if (after_space && line_width + 1 + w > width) {
          unit[-1] = '\n';
          line_start = unit;
          line_width = w;
        } else {
          line_width += after_space + w;
        }
        *p++ = ' ';
        unit = p;
        p = put(p, i);
        w = ascii ? std::size_t(p - unit) : width_of(std::string_view(unit, std::size_t(p - unit)));
      }
      out_.commit(p);
      line_start_ = std::size_t(line_start - text), unit_start_ = text_start_ = std::size_t(unit - text);
      line_width_ = line_width, pending_width_ = w;
    }
  }
  // Whether add_run may follow: a measured unit pending, as write_move leaves one.
  [[nodiscard]] bool can_run() const {
    return has_pending_ && pending_width_ != Unmeasured && opens_ == 0 && !pending_ends_line_ && !pending_may_break_;
  }

 private:
  // The current line is the tail of out_ from line_start_.
  bool line_empty() const { return out_.size() == line_start_; }
  void place() {
    std::size_t w = pending_width_ != Unmeasured ? pending_width_ : width_of(out_.view(unit_start_));
    bool after_space = unit_start_ != line_start_;
    if (after_space && line_width_ + 1 + w > width_) {
      out_[unit_start_ - 1] = '\n';
      line_start_ = unit_start_;
      line_width_ = w;
    } else {
      line_width_ += after_space + w;
    }
    if (pending_may_break_ && out_.view(unit_start_).find('\n') != std::string_view::npos) {
      // a comment holding a newline ends a line
      line_start_ = out_.view(0).rfind('\n') + 1;
      line_width_ = width_of(out_.view(line_start_));
    }
    if (pending_ends_line_) end_current_line();
    has_pending_ = pending_ends_line_ = pending_may_break_ = false;
  }
  void end_current_line() {
    if (line_empty()) return;
    out_.append('\n');
    line_start_ = out_.size();
    line_width_ = 0;
  }
  static constexpr std::size_t Unmeasured = std::size_t(-1);
  Text& out_;
  std::size_t width_;
  std::size_t line_start_;
  std::size_t line_width_ = 0;  // of the current line, in characters, before the pending unit
  std::size_t unit_start_ = 0;  // of the pending unit, which is the tail of out_
  std::size_t text_start_ = 0;  // of its text, after its "("
  std::size_t pending_width_ = Unmeasured;
  std::size_t opens_ = 0;  // "(" waiting for the next unit
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

// The words moves are written with; English in the default style, as most games are
// written, is looked up once, not once a game.
SanWords words_of(const WriterOptions& o) {
  const Notation& notation = o.notation ? *o.notation : english();
  if (&notation == &english() && !o.style.spaced && o.style.castling == WriteStyle::Castling::Letters) {
    static const SanWords plain = move_words(english(), WriteStyle{});
    return plain;
  }
  return move_words(notation, o.style);
}

// Room for a move's number, the move and the round-up to a word.
constexpr std::size_t MoveRoom = 16 + MaxMoveBytes + 8;

class Writer {
 public:
  // Without `board`, moves are written from their recorded shapes; with it (for games
  // whose moves lack them, decoded from the database) from the board, replaying.
  Writer(Text& out, const WriterOptions& o, const Position* board, bool runs = true)
      : words_(words_of(o)), ascii_(is_ascii(words_)), runs_(runs), lines_(out, o.line_width) {
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
    // has no newline.
    bool braces = text.find('}') == std::string::npos;
    Text& t = lines_.unit();
    t.append(braces ? '{' : ';');
    t.append(text);
    if (braces) t.append('}');
    if (!braces) lines_.end_line();
    lines_.may_break();
    need_number_ = true;
  }

  // The move number that goes before a move, kept on one line with it.
  [[gnu::always_inline]] static char* number(char* p, Place at) {
    if (at.fullmove > 0 && at.fullmove < 100) {  // nearly every game: no call for two digits
      if (at.fullmove >= 10) *p++ = char('0' + at.fullmove / 10);
      *p++ = char('0' + at.fullmove % 10);
    } else {
      p = std::to_chars(p, p + 11, at.fullmove).ptr;
    }
    return at.side == White ? std::copy_n(". ", 2, p) : std::copy_n("... ", 4, p);
  }

  // "1. " to "99. ", each in 8 bytes, for White's moves in runs: one copy of a fixed
  // size instead of digits worked out.
  static constexpr auto WhiteNumbers = [] {
    std::array<std::array<char, 8>, 100> t{};
    for (int n = 1; n < 100; ++n) {
      std::size_t i = 0;
      if (n >= 10) t[std::size_t(n)][i++] = char('0' + n / 10);
      t[std::size_t(n)][i++] = char('0' + n % 10);
      t[std::size_t(n)][i++] = '.', t[std::size_t(n)][i] = ' ';
    }
    return t;
  }();
  static char* white_number(char* p, Place at) {
    if (at.fullmove <= 0 || at.fullmove >= 100) return number(p, at);
    std::memcpy(p, WhiteNumbers[std::size_t(at.fullmove)].data(), 8);
    return p + (at.fullmove < 10 ? 3 : 4);
  }

  // Writes a line of moves from `at`; unreplayed moves keep their text. The board is
  // kept only for games whose moves lack their shapes.
  void line(Place at, const Line& moves) {
    need_number_ = true;
    bool replaying = true;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (lacks_shape_) return;  // the game is written again with a board
      const MoveNode& node = moves[i];
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
        if (replaying && runs_ && !need_number_) i += plain_run(at, moves, i + 1);
      }
    }
  }

  // Whether the node is a move alone: replayed, with no comment, NAG or variation (a
  // filter may have emptied its notes), and its shape known unless there is a board.
  static bool plain(const MoveNode& node, bool board) {
    const Annotations* a = node.notes.get();
    return !node.move.is_none() && (board || node.shape.known()) &&
           (!a || (a->pre_comments.empty() && a->comments.empty() && a->nags.empty() && a->variations.empty()));
  }

  // Writes the plain moves that follow a move from `from` on, as write_move would one
  // by one, when the move was the last thing written; returns how many.
  std::size_t plain_run(Place& at, const Line& moves, std::size_t from) {
    const bool board = board_.has_value();
    std::size_t n = 0;
    while (from + n < moves.size() && plain(moves[from + n], board)) ++n;
    if (n == 0 || !lines_.can_run()) return 0;
    // The move's number and text, with `shape` giving the move's shape.
    auto put = [&](auto shape) {
      return [&, shape](char* p, std::size_t i) {
        const MoveNode& node = moves[from + i];
        if (at.side == White) p = white_number(p, at);
        at.advance();
        return put_move(p, node.move, shape(node), words_);
      };
    };
    if (board)
      lines_.add_run(n, MoveRoom, ascii_, put([this](const MoveNode& node) { return shape_of(node); }));
    else
      lines_.add_run(n, MoveRoom, ascii_, put([](const MoveNode& node) { return node.shape; }));
    return n;
  }

  void write_move(const MoveNode& node, Place& at, bool replaying) {
    Text& out = lines_.unit();
    // Room for the number, the move and the round-up to a word, zeroed for its width
    // unless every word is ASCII (then a byte is a character: reading back the bytes
    // just written, a word at a time, stalled on the stores).
    char* start = out.room(MoveRoom);
    if (!ascii_) std::memset(start, 0, MoveRoom);
    char* end = at.side == White || need_number_ ? number(start, at) : start;
    need_number_ = false;
    if (replaying) {
      end = put_move(end, node.move, shape_of(node), words_);
      out.commit(end);
      std::size_t bytes = std::size_t(end - start);
      lines_.set_width(ascii_ ? bytes : bytes - continuations(start, (bytes + 7) / 8));
    } else {
      write_token(end, node);
    }
    at.advance();
  }

  // An unreplayed move's text as it was, after its number (which ends at `end`). Out of
  // line: inlined, it kept write_move, the hot path, from being inlined itself.
  [[gnu::noinline]] void write_token(const char* end, const MoveNode& node) {
    lines_.keep(end).append(node.token());
    lines_.may_break();
    if (board_) board_->play(Move::null());  // after an unreplayed token only the move count moves on
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
      // 16 bytes, not 4: with a profile, GCC inlines the copy as one 16-byte move and warned
      // (-Warray-bounds) that it read past a 4-byte array.
      char text[16] = {'$'};
      lines_.add(std::string_view(text, std::to_chars(text + 1, text + 4, nag).ptr));
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

  // Whether every word is ASCII, so that a move's width is its size.
  static bool is_ascii(const SanWords& w) {
    auto ascii = [](const SanWords::Word& word) {
      return std::all_of(word.bytes, word.bytes + word.size, [](char c) { return (c & 0x80) == 0; });
    };
    return std::all_of(std::begin(w.pieces), std::end(w.pieces), ascii) && ascii(w.castle_short) &&
           ascii(w.castle_long);
  }

  const SanWords words_;
  const bool ascii_;
  const bool runs_;  // plain moves in runs (plain_run); false: one by one, the reference
  MovetextLines lines_;
  std::optional<Position> board_;  // the position, when moves lack shapes
  bool need_number_ = true;
  bool lacks_shape_ = false;
};

// Whether one of the 8 bytes of w is a " or a \ (a zero byte of w ^ that byte in every lane).
bool needs_escape(std::uint64_t w) {
  constexpr std::uint64_t Ones = 0x0101010101010101ull, High = 0x8080808080808080ull;
  std::uint64_t quote = w ^ (Ones * '"'), backslash = w ^ (Ones * '\\');
  return (((quote - Ones) & ~quote) | ((backslash - Ones) & ~backslash)) & High;
}

// Writes the value at p escaped for a PGN string (\ and " get a backslash); p needs
// room for twice its size. Eight bytes at a time while none needs a backslash, as in
// nearly every tag.
char* put_escaped(char* p, std::string_view value) {
  std::size_t whole = 0;
  for (std::uint64_t w; whole + 8 <= value.size(); whole += 8, p += 8) {
    std::memcpy(&w, value.data() + whole, 8);
    if (needs_escape(w)) break;
    std::memcpy(p, &w, 8);
  }
  for (char c : value.substr(whole)) {
    if (c == '\\' || c == '"') *p++ = '\\';
    *p++ = c;
  }
  return p;
}

void append_tag(Text& out, std::string_view name, std::string_view value) {
  char* p = out.room(name.size() + 2 * value.size() + 6);
  *p++ = '[';
  p = std::copy(name.begin(), name.end(), p);
  p = std::copy_n(" \"", 2, p);
  p = put_escaped(p, value);
  out.commit(std::copy_n("\"]\n", 3, p));
}

int roster_index(std::string_view name) {
  for (std::size_t i = 0; i < Roster.size(); ++i)
    if (name == Roster[i]) return int(i);
  return -1;
}

void append_tags(Text& out, const GameRecord& rec) {
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
  Text out(2 * value.size());
  out.commit(put_escaped(out.room(0), value));
  return std::move(out).take();
}

namespace {

std::string write_game(const GameRecord& rec, const WriterOptions& options, bool runs) {
  Text out(expected_size(rec));
  append_tags(out, rec);
  out.append('\n');
  std::size_t movetext = out.size();
  if (!Writer(out, options, nullptr, runs).movetext(rec)) {
    out.truncate(movetext);
    Writer(out, options, &rec.start_position, runs).movetext(rec);
  }
  out.append('\n');
  return std::move(out).take();
}

}  // namespace

std::string write_pgn(const GameRecord& rec, const WriterOptions& options) { return write_game(rec, options, true); }

namespace detail {

std::string write_pgn_one_by_one(const GameRecord& rec, const WriterOptions& options) {
  return write_game(rec, options, false);
}

}  // namespace detail

}  // namespace qipu::game
