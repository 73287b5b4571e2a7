// Runs the PEGTL grammar over one game chunk and turns matches into visitor
// events. The grammar stays in this file so users never compile it.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <type_traits>

#include "../notation/fast.hpp"
#include "../notation/fold.hpp"
#include "qipu/grammar/pgn.hpp"
#include "qipu/pgn/line_counter.hpp"
#include "qipu/pgn/reader.hpp"

namespace qipu::pgn {
namespace {

namespace g = qipu::grammar::pgn;
namespace pegtl = tao::pegtl;

// Thrown by the control at a must<> point or by the depth check; ends the game.
struct GameError {
  const char* at;
  std::string message;
  Problem kind = Problem::syntax_error;
};

// Everything the actions need while one game is parsed.
struct State {
  State(const ReaderOptions& o, const g::WordTable& w) : opts(o), words(w) {}
  const ReaderOptions& opts;
  const g::WordTable& words;
  Visitor* v = nullptr;
  ReadStats* stats = nullptr;
  const RawGame* raw = nullptr;
  const char* text = nullptr;  // raw->text.data()
  LineCounter lines;           // only for syntax errors: events carry offsets
  std::string scratch;         // unescaped tag values; reused across games
  std::string_view tag_name, tag_value;
  bool begun = false, skip_game = false, stop = false;
  bool quiet = true;  // maybe !begun, skip_game or skip_depth: live() must look
  unsigned depth = 0, skip_depth = 0;
  std::uint32_t errors = 0;

  void start(const RawGame& r, Visitor& vis, ReadStats& st) {
    v = &vis;
    stats = &st;
    raw = &r;
    lines = LineCounter(r.text, start_pos());
    text = r.text.data();
    begun = skip_game = stop = false;
    quiet = true;
    depth = skip_depth = 0;
    errors = 0;
  }

  SourcePos start_pos() const { return {raw->line, raw->column, raw->byte_offset}; }
  // Where p is in the input, as events give it.
  std::uint64_t offset(const char* p) const { return raw->byte_offset + static_cast<std::uint64_t>(p - text); }

  // Calls begin_game before the first event; false while events are muted. Runs for
  // every token: one test while events flow, the rest out of line.
  bool live() {
    if (quiet) [[unlikely]]
      return wake();
    return true;
  }
  [[gnu::noinline]] bool wake() {
    if (!begun) {
      begun = true;
      ++stats->games;
      follow(v->begin_game(GameInfo{raw->index, start_pos(), raw->text}));
    }
    quiet = skip_game || skip_depth != 0;
    return !quiet;
  }
  void follow(Visit r) {
    if (r == Visit::Continue) return;
    skip_game = quiet = true;
    if (r == Visit::Stop) stop = true;
  }
  void error(Problem kind, const char* at, std::string message, bool warning = false, bool strict = false) {
    if (opts.junk_as_game) live();
    report(SyntaxError{raw->index, lines.at(offset(at)), std::move(message), warning, strict, kind});
  }
  void report(const SyntaxError& e) {
    ++errors;
    ++stats->errors;
    v->syntax_error(e);
  }
  // A slip read on: a warning, an error for strict readers.
  void slip(Problem kind, const char* at, std::string message) { error(kind, at, std::move(message), true, true); }
  void slip_at(Problem kind, SourcePos pos, std::string message) {
    report(SyntaxError{raw->index, pos, std::move(message), true, true, kind});
  }
  void open_variation(const char* at) {
    if (depth >= opts.max_variation_depth)
      throw GameError{at, "variations nested deeper than " + std::to_string(opts.max_variation_depth),
                      Problem::variation_too_deep};
    ++depth;
    if (!live()) return;
    Visit r = v->begin_variation(offset(at));
    if (r == Visit::Skip)
      skip_depth = depth, quiet = true;
    else
      follow(r);
  }
  void close_variation() {
    if (skip_depth == depth)
      skip_depth = 0;
    else if (live())
      v->end_variation();
    --depth;
  }
  // After an error ends the game early, keeps begin/end_variation balanced.
  void close_all() {
    while (depth > 0) {
      if (skip_depth == 0 && !skip_game) v->end_variation();
      if (skip_depth == depth) skip_depth = 0;
      --depth;
    }
  }
  std::string_view unescape(std::string_view s) {
    if (s.find('\\') == std::string_view::npos) return s;
    scratch.clear();
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) ++i;
      scratch += s[i];
    }
    return scratch;
  }
};

// Length of a move token of the usual SAN shape, [NBRQK][file][rank][x]square[=NBRQ][+#],
// ending at a delimiter, and its reading in `san`; 0 for anything else.
constexpr g::ByteSet kPlainEnds = g::kDelimiters.without('(');  // '(' may open a promotion, e8(Q)
[[gnu::always_inline]] inline std::size_t plain_san_length(const char* p, const char* end, San& san) {
  std::size_t n = read_plain_san(p, end, san);
  return n > 0 && (p + n == end || kPlainEnds[p[n]]) ? n : 0;
}

// Whether the token at p holds a byte above ASCII before its end: only such a token
// (e4，  a8升后) can be a move folded, and results and junk are not folded for nothing.
inline bool holds_wide(const char* p, const char* end) {
  for (; p < end && !g::kDelimiters[*p]; ++p)
    if (static_cast<unsigned char>(*p) >= 0x80) return true;
  return false;
}

// "马 f3", "♘xe5", "車 a1+": the usual Chinese or figurine move, a piece word, at most
// one space, then plain SAN's board part and signs. Its length and reading, or 0: any
// other form is folded whole (fold_move), which gives the same for these.
[[gnu::always_inline]] inline std::size_t worded_plain_length(const char* p, const char* end, San& san) {
  char letter = fold::piece_char_at(p, end);
  if (!letter) return 0;
  const char* q = p + 3;
  q += q < end && *q == ' ';
  if (end - q < plain_san::kWindow) return 0;
  san = San{};
  san.piece = plain_san::kLead.piece[static_cast<unsigned char>(letter)];
  std::size_t n = plain_san::read_board(q, q, san.piece, san);
  return n > 0 && (q + n == end || kPlainEnds[q[n]]) ? static_cast<std::size_t>(q + n - p) : 0;
}

// A move token at p that is not plain SAN (plain_san_length, tried first): its length
// (0 if none) and whether `san` holds its reading. First any form with the reader's
// piece words (Sf3, e8(Q)); then, with TokenWords::chinese_forms, the usual Chinese
// move, and any token holding Chinese words or full-width characters folded to ASCII
// ("后 吃f7", "ｅ４", "e4" before a "，"). A folded token's reading is handed on when
// it is plain.
struct MoveToken {
  std::size_t length = 0;
  bool read = false;
};
[[gnu::noinline]] MoveToken chinese_token(const char* p, const char* end, const g::WordTable& words, San& san) {
  if (static_cast<unsigned char>(*p) >= 0x80)
    if (std::size_t n = worded_plain_length(p, end, san)) return {n, true};
  fold::FoldedMove f;
  if (!fold::fold_move(p, end, f)) return {};
  if (plain_san::read_window(f.text, san) == f.size) return {f.length, true};  // f.text is padded
  // A spaced token that is no move ("马 吃 z9") is still one token: the error names it
  // whole, and the writer gives it back as it was.
  return {g::move_length(f.text, f.text + f.size, words) == f.size || f.spaced ? f.length : 0, false};
}
// "Sf3", "Lxb5+", "Tad1": a one-letter piece word that is not English's, then plain SAN's
// board part and signs. The letter means a piece in the game's language, which the
// replayer knows: `san` leaves the piece NoPieceType. Read here so that a German move
// is scanned once, not by the word table's general scan and again by the replayer.
std::size_t lettered_length(const char* p, const char* end, const g::WordTable& words, San& san) {
  if (*p < 'A' || *p > 'Z' || plain_san::kLead.piece[static_cast<unsigned char>(*p)] != Pawn) return 0;
  if (end - p < plain_san::kWindow || words.match(p, end) != 1) return 0;
  san = San{};
  std::size_t n = plain_san::read_board(p, p + 1, King, san);  // any piece but a pawn reads alike
  if (n == 0 || (p + n != end && !kPlainEnds[p[n]])) return 0;
  san.piece = NoPieceType;
  return n;
}

MoveToken move_token(const char* p, const char* end, const State& st, San& san) {
  bool chinese = st.opts.words.chinese_forms;
  if (static_cast<unsigned char>(*p) < 0x80 || !chinese) {
    if (std::size_t n = lettered_length(p, end, st.words, san)) return {n, true};
    if (std::size_t n = g::move_length(p, end, st.words)) return {n, false};
  }
  return chinese && holds_wide(p, end) ? chinese_token(p, end, st.words, san) : MoveToken{};
}

// Hook for the grammar's move rule (found by argument-dependent lookup).
std::size_t move_token_length(const char* p, const char* end, State& st) {
  San san;
  if (std::size_t n = plain_san_length(p, end, san)) return n;
  return move_token(p, end, st, san).length;
}

// The start of a token for a message, in quotes.
std::string quoted(std::string_view s) {
  constexpr std::size_t kMax = 40;
  std::string out(1, '"');
  out.append(s.substr(0, kMax));
  out.append(s.size() > kMax ? "...\"" : "\"");
  return out;
}

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

template <>
struct action<g::tag_name> {
  template <typename In>
  static void apply(const In& in, State& st) {
    st.tag_name = {in.begin(), in.size()};
  }
};
template <>
struct action<g::tag_value> {
  template <typename In>
  static void apply(const In& in, State& st) {
    st.tag_value = {in.begin(), in.size()};
  }
};
template <>
struct action<g::tag_pair> {
  template <typename In>
  static void apply(const In& in, State& st) {
    if (st.live()) st.follow(st.v->tag(st.tag_name, st.unescape(st.tag_value), st.offset(in.begin())));
  }
};
template <>
struct action<g::bad_tag> {
  template <typename In>
  static void apply(const In& in, State& st) {
    st.error(Problem::malformed_tag, in.begin(),
             "malformed tag pair " + quoted(in.string_view()) + ": expected [Name \"value\"]");
  }
};
template <>
struct action<g::san_move> {
  template <typename In>
  static void apply(const In& in, State& st) {
    if (st.live()) st.follow(st.v->move(in.string_view(), st.offset(in.begin())));
  }
};
template <>
struct action<g::glyph> {
  template <typename In>
  static void apply(const In& in, State& st) {
    int nag = 0;
    g::glyph_length(in.begin(), in.end(), nag);
    if (st.live()) st.follow(st.v->nag(nag, st.offset(in.begin())));
  }
};
template <>
struct action<g::nag> {
  template <typename In>
  static void apply(const In& in, State& st) {
    int value = 0;
    auto [p, ec] = std::from_chars(in.begin() + 1, in.end(), value);
    if (ec != std::errc() || value > 255) {
      st.error(Problem::nag_out_of_range, in.begin(),
               "NAG " + quoted(in.string_view()) + " out of range: expected $0 to $255");
    } else if (st.live()) {
      st.follow(st.v->nag(value, st.offset(in.begin())));
    }
  }
};
template <>
struct action<g::comment_text> {
  template <typename In>
  static void apply(const In& in, State& st) {
    if (st.live()) st.follow(st.v->comment(in.string_view(), st.offset(in.begin() - 1)));
  }
};
template <>
struct action<g::line_comment_text> : action<g::comment_text> {};
template <>
struct action<g::var_open> {
  template <typename In>
  static void apply(const In& in, State& st) {
    st.open_variation(in.begin());
  }
};
template <>
struct action<g::var_close> {
  template <typename In>
  static void apply(const In&, State& st) {
    st.close_variation();
  }
};
template <>
struct action<g::result_token> {
  template <typename In>
  static void apply(const In& in, State& st) {
    const g::ResultWord* r = g::result_at(in.begin(), in.end());
    if (st.live()) st.v->result(r->normal, st.offset(in.begin()));
  }
};
template <>
struct action<g::var_result> {
  template <typename In>
  static void apply(const In& in, State& st) {
    st.error(Problem::result_in_variation, in.begin(),
             "result " + quoted(in.string_view()) + " inside a variation: expected ')'");
  }
};
template <>
struct action<g::stray_close> {
  template <typename In>
  static void apply(const In& in, State& st) {
    st.error(Problem::unmatched_paren, in.begin(), "unmatched ')': no variation is open");
  }
};
// With junk_as_game, a word the grammar does not know may still be a move in some
// notation (短易位, a xiangqi move to refuse by name): the visitor judges it. A stray
// delimiter is always a syntax error here.
template <>
struct action<g::unknown_token> {
  template <typename In>
  static void apply(const In& in, State& st) {
    std::string_view text = in.string_view();
    bool delimiter = text.size() == 1 && std::string_view("{}()[];").find(text[0]) != std::string_view::npos;
    if (!st.opts.junk_as_game || delimiter) {
      st.error(Problem::unknown_token, in.begin(),
               std::string(delimiter ? "unexpected " : "unknown token ") + quoted(text) +
                   ": expected a move, move number, NAG, comment, variation or result");
      return;
    }
    if (st.live()) st.follow(st.v->move(text, st.offset(in.begin())));
  }
};
template <>
struct action<g::var_unknown> : action<g::unknown_token> {};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether the periods at p follow a move number, as in "12. ... Nf6" or "12\n...":
// looks back over blanks and the number's own periods to its digits.
bool after_move_number(const char* begin, const char* p) {
  while (p > begin && g::is_blank(p[-1])) --p;
  for (;;) {
    if (p > begin && p[-1] == '.')
      --p;
    else if (p - begin >= 3 && std::memcmp(p - 3, "\xE2\x80\xA6", 3) == 0)
      p -= 3;
    else
      break;
  }
  const char* digits = p;
  while (p > begin && is_digit(p[-1])) --p;
  return p != digits && (p == begin || g::is_blank(p[-1]) || p[-1] == '(' || p[-1] == ')' || p[-1] == '}');
}

// "..." (or "…") before Black's move and periods after a move number are numbering;
// any other run of periods ("$18.") is a slip.
template <>
struct action<g::periods> {
  template <typename In>
  static void apply(const In& in, State& st) {
    std::string_view t = in.string_view();
    if (t == "..." || t == "\xE2\x80\xA6" || after_move_number(st.text, in.begin())) return;
    st.slip(Problem::stray_period, in.begin(), "stray " + quoted(t) + ": periods belong after a move number");
  }
};

// Raises GameError with the rule's message at a failed must<> point.
template <typename Rule>
struct control : pegtl::normal<Rule> {
  template <typename In, typename... States>
  [[noreturn]] static void raise(const In& in, States&&...) {
    const char* msg = g::error_message<Rule>;
    throw GameError{in.current(), msg ? msg : "syntax error", kind()};
  }
  static constexpr Problem kind() {
    if constexpr (std::is_same_v<Rule, g::comment_text>) return Problem::unterminated_comment;
    if constexpr (std::is_same_v<Rule, g::var_close>) return Problem::unclosed_variation;
    return Problem::syntax_error;
  }
};

// g::move_number, at a digit: the usual "12." at once, every other form through the
// grammar's scan; nullptr if not one.
const char* move_number_end(const char* p, const char* end) {
  const char* q = p;
  while (q < end && is_digit(*q)) ++q;
  bool more = q + 1 < end && (q[1] == '.' || static_cast<unsigned char>(q[1]) >= 0x80);  // 12... or 12.…
  if (q < end && q != p && *q == '.' && !more) return q + 1;                             // 12. as nearly always
  if (q < end && q != p && *q != '.' && *q != ' ' && *q != '\t' && static_cast<unsigned char>(*q) < 0x80)
    return g::is_blank(*q) ? q : nullptr;  // "12\n", or no number at all: "1-0"
  std::size_t n = g::move_number_length(p, end);
  return n ? p + n : nullptr;
}

// A separator (，；、) or a full-width move number (１２．) at p: its length, else 0.
std::size_t wide_blank_or_number(const char* p, const char* end) {
  if (*p != '\xEF' && *p != '\xE3') return 0;  // the lead bytes of both
  std::size_t n = g::separator_length(p, end);
  return n ? n : g::move_number_length(p, end);
}

// Hands the move token at p, n bytes, to the visitor, with its reading when the reader
// made one; false when the game is skipped and the rest need not be read.
[[gnu::always_inline]] inline bool hand_on(State& st, const char* p, std::size_t n, const San* san) {
  if (st.live()) {
    std::string_view token(p, n);
    st.follow(san ? st.v->san_move(token, *san, st.offset(p)) : st.v->move(token, st.offset(p)));
    return true;
  }
  return !st.skip_game;
}

// The bulk of movetext, blanks, move numbers and moves, read without the grammar:
// the same rules tried in g::item's order, so the events are the grammar's. Stops
// at anything else (comments, variations, NAGs, glyphs, results, junk), where the
// grammar reads one item. Returns how far it got.
const char* skim_movetext(const char* p, const char* end, State& st) {
  static constexpr g::ByteSet kBlanks(" \n\r\t");
  const bool chinese = st.opts.words.chinese_forms;
  San san;  // read_plain_san fills it afresh for each token
  while (p < end) {
    char c = *p;
    if (kBlanks[c]) {
      ++p;
      continue;
    }
    if (is_digit(c)) {
      if (const char* q = move_number_end(p, end)) {
        p = q;
        continue;
      }
    }
    if (static_cast<signed char>(c) >= 0) {
      if (std::size_t n = plain_san_length(p, end, san)) {
        if (!hand_on(st, p, n, &san)) return p;  // the rest is not read
        p += n;
        continue;
      }
    } else if (std::size_t n = chinese ? worded_plain_length(p, end, san) : 0) {  // 马 f3, ♘xe5
      if (!hand_on(st, p, n, &san)) return p;
      p += n;
      continue;
    } else if (std::size_t n = wide_blank_or_number(p, end)) {  // ，；、 １２．
      p += n;
      continue;
    }
    MoveToken t = move_token(p, end, st, san);
    if (t.length == 0) break;
    if (!hand_on(st, p, t.length, t.read ? &san : nullptr)) return p;
    p += t.length;
  }
  return p;
}

}  // namespace

struct GameParser::Impl {
  explicit Impl(const ReaderOptions& o) : opts(o), words(o.words.pieces, o.words.space_after_piece), st(opts, words) {}
  ReaderOptions opts;
  g::WordTable words;
  State st;
};

GameParser::GameParser(const ReaderOptions& opts) : impl_(std::make_unique<Impl>(opts)) {}
GameParser::~GameParser() = default;

// The place in the game's text of an input offset; the text's start for an offset before
// it (bytes in prose skipped before the first tag are counted with the first game).
static const char* text_at(const RawGame& raw, std::uint64_t offset) {
  std::uint64_t at = offset < raw.byte_offset ? 0 : std::min<std::uint64_t>(offset - raw.byte_offset, raw.text.size());
  return raw.text.data() + at;
}

Visit GameParser::parse(const RawGame& raw, Visitor& v, ReadStats& stats) {
  State& st = impl_->st;
  st.start(raw, v, stats);
  if (!raw.problem.empty()) {
    ++stats.errors;
    v.syntax_error(SyntaxError{raw.index, st.start_pos(), raw.problem, false, false, Problem::game_too_large});
    return Visit::Continue;
  }
  if (!raw.prose.empty()) {
    st.live();  // the warning belongs to this game, the input's first
    st.slip_at(Problem::text_before_game, SourcePos{raw.prose_line, raw.prose_column, raw.prose_offset},
               "text before the first game skipped: " + quoted(std::string_view(raw.prose)));
  }
  if (raw.invalid_bytes > 0)
    st.error(Problem::invalid_bytes, text_at(raw, raw.first_invalid),
             std::to_string(raw.invalid_bytes) + " byte(s) invalid in the input encoding were read as Windows-1252",
             true);
  if (raw.own_encoding)
    st.error(Problem::encoding_guessed, text_at(raw, raw.own_encoding_at),
             std::string("not valid UTF-8, decoded as ") + raw.encoding, true);
  pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf> in(raw.text.data(),
                                                                          raw.text.data() + raw.text.size(), "");
  try {
    pegtl::parse<g::header, action, control>(in, st);
    // A game the visitor skips is not read on (filter: tags or a position that fail).
    while (!in.empty() && !st.skip_game) {
      if (!st.opts.grammar_only) {
        const char* q = skim_movetext(in.current(), in.end(), st);
        in.bump(static_cast<std::size_t>(q - in.current()));
        if (in.empty()) break;
      }
      // g::game's star<item>, one item at a time; item matches any non-empty input.
      if (st.skip_game || !pegtl::parse<g::item, action, control>(in, st)) break;
    }
  } catch (const GameError& e) {
    st.close_all();
    st.error(e.kind, e.at, e.message);
  }
  if (st.begun && st.v->end_game(GameEnd{raw.index, raw.text, st.errors, raw.encoding}) == Visit::Stop) st.stop = true;
  return st.stop ? Visit::Stop : Visit::Continue;
}

ReadStats read_pgn(Source& src, Visitor& v, const ReaderOptions& opts) {
  ReadStats stats;
  GameChunker chunker(src, opts);
  GameParser parser(opts);
  RawGame raw;
  bool told = false;
  try {
    while (chunker.next(raw)) {
      if (!told) {
        v.encoding(chunker.encoding());
        told = true;
      }
      if (parser.parse(raw, v, stats) == Visit::Stop) break;
    }
  } catch (const SourceError& e) {
    ++stats.errors;
    v.syntax_error(SyntaxError{0, SourcePos{}, e.what(), false, false, Problem::input_error});
  }
  if (!told && !chunker.encoding().empty()) v.encoding(chunker.encoding());
  stats.encoding = chunker.encoding();
  stats.bytes = chunker.bytes_read();
  return stats;
}

ReadStats read_pgn_file(const std::string& path, Visitor& v, const ReaderOptions& opts) {
  auto src = open_source(path);
  return read_pgn(*src, v, opts);
}

}  // namespace qipu::pgn
