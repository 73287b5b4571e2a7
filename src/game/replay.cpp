#include "qipu/game/replay.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "../notation/fast.hpp"
#include "qipu/board/movegen.hpp"
#include "qipu/notation/notation.hpp"
#include "qipu/pgn/line_counter.hpp"

namespace qipu::game {

using pgn::SourcePos;
using pgn::Visit;

namespace {

// A tag value longer than this is an error, and is kept cut: the PGN standard allows
// 255 characters, and megabytes would burden whatever stores the game. An unreplayed
// token is kept cut to the same length: it is text to write back, and the game's
// raw text already holds it whole.
constexpr std::size_t MaxKeptText = 1 << 16;

// Tokens kept as text after a game's line broke, at most: each costs a node and its
// annotations (about 170 bytes), so one 30 MB line of moves past an illegal one took
// 1.6 GB. The rest is left out of the record; the raw text keeps it for rejects.
constexpr int MaxUnreplayed = 10000;

// The first `max` bytes of s or fewer, not ending inside a UTF-8 character.
std::string_view cut_text(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  while (max > 0 && (static_cast<unsigned char>(s[max]) & 0xC0) == 0x80) --max;
  return s.substr(0, max);
}

// One line of play being replayed: the mainline or an open variation.
struct Frame {
  Line* line;
  GameState state;  // after the last move of the line
  Position start;   // where the line begins: variations replay from here when opened
  bool broken;      // a move could not be replayed: the rest is kept as text
};

// The tags the replayer reads itself. Each is noted as it is read: looking them up at
// the start and end of the game walked the whole list seven times.
enum KnownTag { TagFen, TagVariant, TagSetUp, TagGame, TagDate, TagPlyCount, TagResult, KnownTagCount };
constexpr std::array<std::string_view, KnownTagCount> KnownTagNames = {"FEN",  "Variant",  "SetUp", "Game",
                                                                       "Date", "PlyCount", "Result"};

constexpr std::uint64_t KnownTagBits = [] {
  std::uint64_t bits = 0;
  for (std::string_view n : KnownTagNames) bits |= name_bit(n);
  return bits;
}();

int ply_of(const Position& pos) { return 2 * (pos.fullmove_number() - 1) + (pos.side_to_move() == Black) + 1; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Two characters: "??", or two digits making a number from lo to hi.
bool two_digits_in(std::string_view s, int lo, int hi) {
  if (s == "??") return true;
  if (!is_digit(s[0]) || !is_digit(s[1])) return false;
  int n = (s[0] - '0') * 10 + (s[1] - '0');
  return n >= lo && n <= hi;
}

// YYYY.MM.DD with ? for unknown digits, as the PGN standard writes dates.
bool date_well_formed(std::string_view d) {
  if (d.size() != 10 || d[4] != '.' || d[7] != '.') return false;
  for (int i : {0, 1, 2, 3})
    if (!is_digit(d[i]) && d[i] != '?') return false;
  return two_digits_in(d.substr(5, 2), 1, 12) && two_digits_in(d.substr(8, 2), 1, 31);
}

std::string suffix_problem(San::Suffix written, San::Suffix actual) {
  if (written == actual) return {};
  if (actual == San::Suffix::Mate)
    return written == San::Suffix::Check ? "the move mates: expected '#' not '+'" : "the move mates: expected '#'";
  if (actual == San::Suffix::Check)
    return written == San::Suffix::Mate ? "'#' but the move is not mate: expected '+'"
                                        : "the move gives check: expected '+'";
  return written == San::Suffix::Mate ? "'#' but the move does not give check" : "'+' but the move does not give check";
}

// Plain SAN read in one pass; any other English form through the general reader.
std::optional<San> english_san(std::string_view token) {
  San san;
  if (parse_plain_san(token, san)) return san;
  auto parsed = parse_san(token);
  return parsed ? std::optional<San>(*parsed) : std::nullopt;
}

// A token read in one table, for a game whose language is not known yet: a Chinese word
// or figurine names one piece in every table (its first reading); letters by the table.
std::optional<San> reading_in(std::string_view token, const Notation& table) {
  if (std::all_of(token.begin(), token.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return read_in(token, table);
  Result<MoveReadings> r = read_move(token);
  if (!r || r->readings.empty()) return std::nullopt;
  return r->readings.front().san;
}

// The same, from the reader's board part when the token is plain SAN whose capital is a
// piece word of the table (no promotion): no strings, as letter_move reads a settled game.
std::optional<San> reading_in(std::string_view token, const Notation& table, const San* plain) {
  if (plain && plain->promotion == NoPieceType && token[0] >= 'A' && token[0] <= 'Z') {
    if (PieceType p = letter_piece(table, token[0]); p != NoPieceType) {
      San san = *plain;
      san.piece = p;
      return san;
    }
    auto pawn_letter = [&](std::string_view w) { return w[0] == token[0]; };
    if (std::none_of(table.pawn_words.begin(), table.pawn_words.end(), pawn_letter)) return std::nullopt;
  }
  return reading_in(token, table);
}

// The language's name in a table's description ("Dutch: K D T L P" gives "Dutch").
std::string_view language_name(const Notation& n) {
  return n.description.substr(0, std::min(n.description.find(':'), n.description.find(" (")));
}

// A table's legal reading of a token.
struct TableReading {
  const Notation* table = nullptr;
  TableSet bit = 0;        // the table's
  Move first;              // the token's move in this table
  bool pawn_word = false;  // a pawn written with a letter (German Bf4, English Pf3): nonstandard everywhere
};
// A token's legal readings, at most one a table: kept on the stack, as every piece move
// of a game whose language is not settled yet is read this way.
struct TableReadings {
  std::array<TableReading, 32> at;  // TableSet has a bit for 32 tables
  std::size_t size = 0;
  [[nodiscard]] const TableReading* begin() const { return at.data(); }
  [[nodiscard]] const TableReading* end() const { return at.data() + size; }
  [[nodiscard]] bool empty() const { return size == 0; }
  void push_back(const TableReading& r) { at[size++] = r; }
};

// Whether the readings of the tables in `set` give one move (false for none).
bool one_move(const TableReadings& readings, TableSet set) {
  const TableReading* first = nullptr;
  for (const auto& r : readings)
    if (!(set & r.bit))
      continue;
    else if (!first)
      first = &r;
    else if (r.first != first->first)
      return false;
  return first != nullptr;
}

// The moves the rest of a line reads as in each of a few tables, where one token read in
// them gave different legal moves: each table's reading of the line goes on from its own
// move until it meets a token it cannot read as a legal move. Reads the game's text again
// with the reader, from the line's tokens after the one that forked (variations inside
// it skipped), and stops once the tables that still read agree on the forking move.
class LookAhead final : public pgn::Visitor {
 public:
  LookAhead(std::uint64_t fork_offset, const TableReadings& readings, const Position& before)
      : fork_(fork_offset), readings_(readings) {
    for (const auto& r : readings) {
      lines_.push_back({before, 1});
      lines_.back().pos.play(r.first);
      alive_ |= r.bit;
    }
  }

  Visit begin_variation(std::uint64_t) override {
    ++depth_;
    return Visit::Continue;
  }
  void end_variation() override { --depth_; }
  Visit move(std::string_view token, std::uint64_t offset) override {
    if (offset == fork_) fork_depth_ = depth_;
    if (offset <= fork_ || fork_depth_ < 0 || depth_ > fork_depth_) return Visit::Continue;
    if (depth_ < fork_depth_) return Visit::Skip;  // the forking move's variation ended
    if (glyph_nag(token)) return Visit::Continue;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const TableReading& r = readings_.at[i];
      if (!(alive_ & r.bit)) continue;
      std::optional<San> san = reading_in(token, *r.table);
      Move m = san ? find_move(lines_[i].pos, *san) : Move::none();
      if (m.is_none()) {
        alive_ &= ~r.bit;
        continue;
      }
      lines_[i].pos.play(m);
      ++lines_[i].plies;
    }
    return !alive_ || one_move(readings_, alive_) ? Visit::Skip : Visit::Continue;
  }
  // The tables whose reading went furthest: all that read the line to its end, else the
  // ones that failed last. None when the forking token was never met.
  [[nodiscard]] TableSet furthest() const {
    if (fork_depth_ < 0) return 0;
    int most = 0;
    for (const Line& l : lines_) most = std::max(most, l.plies);
    TableSet set = 0;
    for (std::size_t i = 0; i < lines_.size(); ++i)
      if (lines_[i].plies == most) set |= readings_.at[i].bit;
    return set;
  }

 private:
  struct Line {
    Position pos;  // after the line's last move read in this table
    int plies;     // moves read, the forking one included
  };
  std::uint64_t fork_;
  const TableReadings& readings_;
  std::vector<Line> lines_;  // one a reading, in its order
  TableSet alive_ = 0;       // the tables still reading
  int depth_ = 0, fork_depth_ = -1;
};

}  // namespace

struct Replayer::Impl {
  ReplayOptions options;
  GameHandler on_game;
  InputErrorHandler on_input_error;
  MoveHandler on_mainline_move;
  GameRecord rec;
  std::vector<Frame> frames;
  std::vector<std::string> pending_comments;
  std::vector<std::uint8_t> pending_nags;
  bool started = false;
  bool break_at_start = false;                       // a syntax error came before the position was set up
  int unreplayed = 0;                                // tokens kept as text in this game
  bool cut = false;                                  // MaxUnreplayed reached: later moves and notes are left out
  const Notation* preferred = nullptr;               // the table that read this game's last non-English move
  const Notation* const english_table = &english();  // looked up once: every move of a German game asks
  pgn::LineCounter lines;                            // places of diagnostics, from the reader's offsets
  std::array<int, KnownTagCount> known_tags{};       // index in rec.tags of each one's first, or -1
  // Skip once ReplayOptions::wanted said no: the reader leaves the rest of the game unread.
  pgn::Visit after_move = pgn::Visit::Continue;
  bool watching = false;  // ReplayOptions::watch wants the mainline's next position
  LetterPieces letters;   // what Sf3's S is in the game's table
  // The tables this game's moves may be written in, while `preferred` is not set: those
  // that read every lettered move so far as a legal move, and the same one.
  TableSet tables = 0;
  const TableSet english_bit = table_bit(english());
  std::string_view game_text;                 // read again when a token's table is in doubt
  std::unique_ptr<pgn::GameParser> rereader;  // made the first time

  // Notes tags[i], named `name`, if it is the first of a known name, as GameRecord::tag
  // finds the first.
  void note_tag(std::string_view name, std::size_t i) {
    if (!(KnownTagBits & name_bit(name))) return;  // most tags: Event, Site, White, …
    for (int k = 0; k < KnownTagCount; ++k)
      if (same_name(name, KnownTagNames[k])) {
        if (known_tags[k] < 0) known_tags[k] = int(i);
        return;
      }
  }
  [[nodiscard]] std::string_view known_tag(KnownTag k) const {
    return known_tags[k] < 0 ? std::string_view() : std::string_view(rec.tags[known_tags[k]].second);
  }

  void diagnose(Problem kind, bool error, SourcePos pos, int ply, std::string move, std::string message) {
    rec.diagnostics.push_back({error, pos, ply, std::move(move), std::move(message), kind});
  }
  void diagnose(Problem kind, bool error, std::uint64_t offset, int ply, std::string move, std::string message) {
    diagnose(kind, error, lines.at(offset), ply, std::move(move), std::move(message));
  }

  // Sets up the start position from the Variant, SetUp and FEN tags, once.
  void start() {
    if (!started) set_up();  // kept small: it runs before every move
  }
  void set_up() {
    started = true;
    StartTags tags{known_tag(TagFen), known_tag(TagVariant), known_tag(TagSetUp), known_tag(TagGame)};
    Result<void> start = set_up_start(rec, tags);
    if (!start) diagnose(Problem::bad_start_position, true, rec.start, 0, {}, start.error());
    if (!start.notes().empty()) {
      std::string repairs = "FEN tag: " + start.notes()[0];
      for (std::size_t i = 1; i < start.notes().size(); ++i) repairs += "; " + start.notes()[i];
      diagnose(Problem::fen_repaired, false, rec.start, 0, {}, repairs);
    }
    if (tags.setup == "1" && tags.fen.empty())
      diagnose(Problem::setup_without_fen, options.strict, rec.start, 0, {},
               "SetUp is \"1\" but there is no FEN tag: played from the standard start position");
    rec.mainline.reserve(128);
    start_mainline(!start || break_at_start);
    if (options.wanted && !(rec.wanted = options.wanted(rec))) after_move = pgn::Visit::Skip;
    watching = options.watch && after_move == pgn::Visit::Continue;
    if (watching) look(frames.front());
  }
  // Shows ReplayOptions::watch the position a mainline move reached; out of line, as
  // it is rare, and outside play(), which must stay small enough to inline.
  [[gnu::noinline]] void look(const Frame& f) {
    if (f.line != &rec.mainline) return;
    Watch w = options.watch(rec, f.state.position());
    if (w == Watch::More) return;
    watching = false;
    if (w == Watch::Skip) after_move = pgn::Visit::Skip;
  }
  // The mainline's frame lives from game to game, so that its key history keeps its memory.
  void start_mainline(bool broken) {
    if (frames.empty())
      return frames.push_back({&rec.mainline, GameState(rec.start_position), rec.start_position, broken});
    Frame& f = frames.front();
    f.state.reset(rec.start_position);
    f.start = rec.start_position;
    f.broken = broken;
  }

  // Where a move stands, for its diagnostics: taken before the move is played.
  struct MovePlace {
    int ply, fullmove;
    Color side;
  };
  static MovePlace place_of(const Position& p) { return {ply_of(p), p.fullmove_number(), p.side_to_move()}; }
  // The same, found from the position after the move.
  static MovePlace place_before(const Position& after) {
    Color side = ~after.side_to_move();
    int fullmove = after.fullmove_number() - (side == Black);
    return {2 * (fullmove - 1) + (side == Black) + 1, fullmove, side};
  }

  // Style departures are errors in strict mode, warnings otherwise. Reports are out of
  // line (as check_form): strings built inside play() made every move save and restore
  // registers it does not need.
  [[gnu::noinline]] void report_style(Problem kind, const MovePlace& at, std::uint64_t offset, std::string_view token,
                                      std::string msg) {
    diagnose(kind, options.strict, offset, at.ply, numbered_move(at.fullmove, at.side, token), std::move(msg));
  }

  [[gnu::noinline]] void report_suffix(const MovePlace& at, std::uint64_t offset, std::string_view token,
                                       San::Suffix written, San::Suffix actual) {
    report_style(Problem::wrong_check_sign, at, offset, token, suffix_problem(written, actual));
  }

  // No style flag, no origin a rival could make superfluous, and a capture sign exactly
  // when the move captures: nothing for check_form. A pawn's sign always agrees: the
  // pawn moves SAN can name without a style flag resolve only if it does. Both origin
  // parts are -1 when absent, so one sign test covers them.
  static bool usual_form(const San& san, const SanShape& shape) {
    return !san.style && (san.piece == Pawn || ((san.from_file & san.from_rank) < 0 && san.capture == shape.capture));
  }

  // How the move is written, judged on the position before it.
  [[gnu::noinline]] void check_form(const San& san, const SanShape& shape, const Position& before, Move m,
                                    std::uint64_t offset, std::string_view token) {
    MovePlace at = place_of(before);
    auto report = [&](std::string msg, Problem kind = Problem::nonstandard_san) {
      report_style(kind, at, offset, token, std::move(msg));
    };
    if (san.style & StyleZeroCastling) report("castling written with zeros: expected O-O or O-O-O");
    if (san.style & StyleLowerCastling) report("castling written in lower case: expected O-O or O-O-O");
    if (san.style & StylePawnLetter) report("pawn written with P: SAN gives pawns no letter");
    if (san.style & StyleLongAlgebraic) report("long algebraic notation: expected " + format_san(before, m));
    if (san.style & StyleEpSuffix) report("'e.p.' is not part of SAN");
    if (san.style & StyleDoubleCheck) report("'++' for check: SAN writes '+' for every check");
    bool san_shown = san.style & StyleLongAlgebraic;  // a message that gives the SAN, which has the capture sign right
    if (san.piece != Pawn && san.kind == San::Kind::Normal && !san_shown) {
      int given = (san.from_file >= 0) + (san.from_rank >= 0);
      san_shown = given > 0 && given > shape.from_file + shape.from_rank;
      if (san_shown)
        report("superfluous disambiguation: expected " + format_san(before, m), Problem::superfluous_disambiguation);
    }
    if (san.capture != shape.capture && !san_shown)  // Qd1d4 for Qxd4 and UCI: one message, not two
      report(std::string(san.capture ? "capture sign but the move takes nothing" : "the move captures") +
                 ": expected " + format_san(before, m),
             Problem::wrong_capture_sign);
  }

  void take_pending(MoveNode& node) {
    if (pending_comments.empty() && pending_nags.empty()) return;
    Annotations& a = node.annotate();
    a.pre_comments = std::move(pending_comments);
    pending_comments.clear();
    a.nags = std::move(pending_nags);
    pending_nags.clear();
  }

  // A capital in a letter language's game (Sf3, and Ke2 whose K English reads too): the
  // reader's board part with the piece the game's table gives the letter, as read_usual
  // reads it, in `san`, and the move it finds. Kept out of add_move, whose English path
  // it would lengthen; a Chinese word's reading names its piece already. Before the
  // game's language is known, the reader's reading when its piece has one meaning.
  [[gnu::noinline]] Move letter_move(const Position& now, std::string_view token, const San& plain, San& san) {
    if (!preferred) {
      san = plain;
      return plain.piece != NoPieceType && one_meaning(token, plain) ? find_move(now, plain) : Move::none();
    }
    if (token[0] < 'A' || token[0] > 'Z') return Move::none();
    san = plain;
    san.piece = letters.of(*preferred, token[0]);
    return find_move(now, san);
  }

  // `plain`: the reader's reading of a token of the usual SAN shape, when it made one.
  // The common path, kept small; every other token goes to add_other_move.
  void add_move(std::string_view token, std::uint64_t offset, const San* plain = nullptr) {
    start();
    Frame& f = frames.back();
    MoveNode& node = f.line->emplace_back();
    take_pending(node);
    if (f.broken) return keep_unreplayed(f, node, token);
    // Plain English SAN in a game not written in another language. The reader's San is
    // used in place: it was written a byte at a time, and a copy's wider load of those
    // fresh bytes would wait for the stores (a store-forwarding stall, seen with perf).
    // A pawn's plain SAN (e4, exd5) reads the same in every letter language; a piece's
    // takes its piece from the game's table (German's Sf3 and Ke2 both come this way).
    // A lettered reading (Sf3, piece NoPieceType) in an English game finds no move.
    // Before the game's language is known (no `preferred`) a piece's move is read as in
    // a letter language's game, by letter_move.
    bool english_game = preferred == english_table;
    if (plain && (english_game || (plain->piece == Pawn && plain->promotion == NoPieceType))) {
      if (Move m = find_move(f.state.position(), *plain); !m.is_none()) {
        play(f, node, *plain, m, offset, token);
        if (watching) [[unlikely]]
          look(f);
        return;
      }
    } else if (San san; plain) {
      if (Move m = letter_move(f.state.position(), token, *plain, san); !m.is_none()) {
        play(f, node, san, m, offset, token);
        if (watching) look(f);
        return;
      }
    }
    add_other_move(f, node, token, offset, plain);
    if (watching) look(f);  // asked again of the same position when the move failed: the same answer
  }

  // Whether a plain SAN token's letters mean one piece in every table the game may be
  // in: N and Q are English only (the game is then English), K a king wherever it is a
  // word, a Chinese word or figurine one piece everywhere; R (a French king) and B (a
  // German pawn, a Hungarian rook) are read in every table (add_unsettled).
  [[gnu::noinline]] bool one_meaning(std::string_view token, const San& san) {
    if (static_cast<unsigned char>(token[0]) >= 0x80) return true;
    PieceType named = san.promotion != NoPieceType ? san.promotion : san.piece;
    if (named == Bishop || named == Rook || san.piece == Bishop || san.piece == Rook) return false;
    if (named == King) return true;
    if (!(tables & english_bit)) return false;
    preferred = english_table;  // N or Q: an English game
    return true;
  }

  // Settles the game's language once the tables left read every letter alike.
  void settle() {
    const Notation* first = nullptr;
    const std::vector<Notation>& all = notations();
    for (std::size_t i = 0; i < all.size(); ++i)
      if (tables & TableSet{1} << i) {
        if (!first)
          first = &all[i];
        else if (!same_words(*first, all[i]))
          return;
      }
    preferred = first;
  }

  // A lettered token while the game's language is not known: read in each table the game
  // may still be in. Tables that give no legal move drop out; when the others give
  // different moves, the rest of the game decides (LookAhead), and when it cannot, the
  // move is refused as ambiguous: a game is never read in a guessed language.
  [[gnu::noinline]] void add_unsettled(Frame& f, MoveNode& node, std::string_view token, std::uint64_t offset,
                                       const San* plain) {
    const Position& now = f.state.position();
    TableReadings legal;
    TableSet readers = 0;
    const std::vector<Notation>& all = notations();
    for (std::size_t i = 0; i < all.size(); ++i) {
      TableSet bit = TableSet{1} << i;
      if (!(tables & bit)) continue;
      std::optional<San> san = reading_in(token, all[i], plain);
      if (Move m = san ? find_move(now, *san) : Move::none(); !m.is_none()) {
        bool pawn_word = san->piece == Pawn && token[0] >= 'A' && token[0] <= 'Z' && token[0] != 'O';
        legal.push_back({&all[i], bit, m, pawn_word});
        readers |= bit;
      }
    }
    if (legal.empty()) return add_any_reading(f, node, token, offset);  // its errors, NAGs, e.p. marks
    if (!one_move(legal, readers)) {
      if (TableSet furthest = look_ahead(offset, legal, now)) readers = furthest;
      if (!one_move(legal, readers)) readers = preferred_readings(legal, readers);
    }
    if (!one_move(legal, readers)) return refuse_ambiguous(f, node, token, offset, legal, readers);
    for (const auto& r : legal)
      if (readers & r.bit) {
        San san = *reading_in(token, *r.table, plain);
        tables = readers;
        settle();
        return play(f, node, san, r.first, offset, token);
      }
  }
  // Where the game's moves cannot tell the tables apart: a piece's letter before a pawn
  // written with a letter (nonstandard in every table: 2. Bf4 is a bishop, not German's
  // pawn; Pf3 a Dutch knight, not English's pawn), then English SAN, the PGN standard's.
  TableSet preferred_readings(const TableReadings& legal, TableSet set) const {
    TableSet pieces = 0;
    for (const auto& r : legal)
      if ((set & r.bit) && !r.pawn_word) pieces |= r.bit;
    if (pieces) set = pieces;
    return one_move(legal, set) || !(set & english_bit) ? set : english_bit;
  }
  // The tables whose reading of the rest of the line goes furthest (LookAhead).
  TableSet look_ahead(std::uint64_t offset, const TableReadings& legal, const Position& now) {
    if (!rereader) rereader = std::make_unique<pgn::GameParser>(replay_reader_options());
    pgn::RawGame raw;
    raw.text = game_text;
    raw.index = rec.index;
    raw.byte_offset = rec.start.offset;
    raw.line = rec.start.line;
    raw.column = rec.start.column;
    LookAhead ahead(offset, legal, now);
    pgn::ReadStats stats;
    rereader->parse(raw, ahead, stats);
    return ahead.furthest();
  }
  // The error for a token the game's moves leave in two tables with different moves:
  // each move with the languages that read it, and the codes --from takes.
  [[gnu::noinline]] void refuse_ambiguous(Frame& f, MoveNode& node, std::string_view token, std::uint64_t offset,
                                          const TableReadings& legal, TableSet set) {
    const Position& now = f.state.position();
    std::string readings, codes;
    TableSet told = 0;  // the tables named so far, each with the others that give its move
    for (const auto& r : legal) {
      if (!(set & r.bit) || (told & r.bit)) continue;
      readings += (readings.empty() ? "" : "; ") + format_san(now, r.first) + " in ";
      for (const auto& same : legal)
        if ((set & same.bit) && same.first == r.first) {
          readings += std::string(language_name(*same.table)) + ", ";
          codes += std::string(codes.empty() ? "" : ", ") + std::string(same.table->code);
          told |= same.bit;
        }
      readings.resize(readings.size() - 2);
    }
    diagnose(Problem::ambiguous_move, true, offset, ply_of(now), numbered_move(now, token),
             "the game's language is not known and '" + display_token(token) + "' reads as " + readings +
                 "; the game's moves do not tell which: name its language with --from (" + codes + ")");
    break_line(f, node, token);
  }

  // A token in a game written in another language, or not of the usual shape: its usual
  // readings first, without strings (a Chinese word's reading from the reader, the game's
  // letter table), then every reading read_move finds.
  [[gnu::noinline]] void add_other_move(Frame& f, MoveNode& node, std::string_view token, std::uint64_t offset,
                                        const San* plain) {
    if (!preferred && static_cast<unsigned char>(token[0]) < 0x80) return add_unsettled(f, node, token, offset, plain);
    bool english_game = !preferred || preferred == english_table;
    const Position& now = f.state.position();
    bool lettered = plain && plain->piece == NoPieceType;  // Sf3: the reader leaves the letter to the game's table
    if (english_game && (!plain || lettered)) {
      if (std::optional<San> san = english_san(token)) {
        if (Move m = find_move(now, *san); !m.is_none()) return play(f, node, *san, m, offset, token);
      } else if (San first; const Notation* n = read_first_letters(token, first)) {
        if (Move m = find_move(now, first); !m.is_none()) {
          preferred = n;
          return play(f, node, first, m, offset, token);
        }
      }
    }
    if (!english_game) {
      San usual;
      // A reading the reader made of a Chinese word or figurine names one piece in every
      // notation. A letter's reading add_move tried already (read_usual reads it alike).
      bool wide = plain && static_cast<unsigned char>(token[0]) >= 0x80;
      if (wide || read_usual(token, *preferred, usual)) {
        const San& san = wide ? *plain : usual;
        if (Move m = find_move(now, san); !m.is_none()) return play(f, node, san, m, offset, token);
      }
    }
    add_any_reading(f, node, token, offset);
  }

  // The general path: every reading read_move finds, the first legal one played; or the
  // token's error.
  void add_any_reading(Frame& f, MoveNode& node, std::string_view token, std::uint64_t offset) {
    const Position& now = f.state.position();
    if (special_token(f, token, offset)) return;
    Result<MoveReadings> readings = read_move(token, preferred);
    if (!readings) {
      diagnose(readings.kind(), true, offset, ply_of(now), numbered_move(now, token),
               "unknown move token '" + display_token(token) + "': " + readings.error());
      return break_line(f, node, token);
    }
    if (readings->ignorable) {
      drop_last_node(f);  // a lone e.p. mark adds nothing to the move before it
      return;
    }
    std::string first_error;
    bool ambiguous = false;
    for (const Reading& reading : readings->readings) {
      // Before the game's language is known, not in a table its earlier moves ruled out.
      TableSet table = table_bit(*reading.notation);
      if (!preferred && reading.notation != english_table && (letter_tables() & table) && !(tables & table)) continue;
      Result<Move> r = resolve_san(now, reading.san);
      if (r) {
        if (reading.notation != &english()) preferred = reading.notation;  // O-O or e4 say nothing of the language
        return play(f, node, reading.san, *r, offset, token);
      }
      if (first_error.empty()) first_error = r.error(), ambiguous = r.kind() == Problem::ambiguous_move;
    }
    diagnose(ambiguous ? Problem::ambiguous_move : Problem::illegal_move, true, offset, ply_of(now),
             numbered_move(now, token), (ambiguous ? "" : "illegal move: ") + first_error);
    break_line(f, node, token);
  }

  // Removes the node add_move began, giving back the annotations it had taken.
  void drop_last_node(Frame& f) {
    if (auto& notes = f.line->back().notes) {
      pending_comments = std::move(notes->pre_comments);
      pending_nags = std::move(notes->nags);
    }
    f.line->pop_back();
  }

  // Tokens that are not moves but reach the replayer as words: an evaluation sign
  // ("+-", "∞") is a NAG; a result glued to the move ("h6*") is the move, then the result.
  // Looked at only after the token failed as plain SAN, to keep the common path short.
  bool special_token(Frame& f, std::string_view token, std::uint64_t offset) {
    if (int n = glyph_nag(token)) {
      drop_last_node(f);
      if (f.line->empty())
        pending_nags.push_back(std::uint8_t(n));
      else
        f.line->back().annotate().nags.push_back(std::uint8_t(n));
      return true;
    }
    for (std::string_view r : {"1/2-1/2", "1-0", "0-1", "*"})
      if (token.size() > r.size() && token.substr(token.size() - r.size()) == r) {
        drop_last_node(f);
        add_move(token.substr(0, token.size() - r.size()), offset);
        rec.result = r;
        return true;
      }
    return false;
  }

  // Plays the move in place: no copy of the position per move (variations recompute
  // the position they start from when they open). The move by reference: by value, GCC
  // spilled its two bytes and read them back as eight, a load that waits on the store.
  void play(Frame& f, MoveNode& node, const San& san, const Move& m, std::uint64_t offset, std::string_view token) {
    const Position& before = f.state.position();
    SanShape shape = san_shape(before, m, san);
    if (!usual_form(san, shape)) check_form(san, shape, before, m, offset, token);
    if (on_mainline_move && f.line == &rec.mainline) on_mainline_move(rec, before, m);
    f.state.play(m);
    shape.suffix = check_suffix(f.state.position());
    node.move = m;
    node.shape = shape;
    if (san.suffix != shape.suffix)
      report_suffix(place_before(f.state.position()), offset, token, san.suffix, shape.suffix);
  }

  // A token after the line broke, in the node add_move began: kept as text, up to
  // MaxUnreplayed a game; past that the node and its notes go.
  [[gnu::noinline]] void keep_unreplayed(Frame& f, MoveNode& node, std::string_view token) {
    if (cut || ++unreplayed > MaxUnreplayed) {
      if (!cut)
        diagnose(Problem::movetext_left_out, false, rec.start, 0, {},
                 "the movetext after " + std::to_string(MaxUnreplayed) +
                     " tokens not replayed is left out (the game's text is kept whole for rejects)");
      cut = true;
      f.line->pop_back();
      pending_comments.clear();
      pending_nags.clear();
      return;
    }
    keep_text(node, token);
  }

  // Whether what comes now is left out: past MaxUnreplayed, in a line that broke.
  [[nodiscard]] bool left_out() const { return cut && !frames.empty() && frames.back().broken; }

  static void break_line(Frame& f, MoveNode& node, std::string_view token) {
    f.broken = true;
    keep_text(node, token);
  }
  // A token not replayed is kept as text, to be written back.
  [[gnu::noinline]] static void keep_text(MoveNode& node, std::string_view token) {
    node.annotate().token = cut_text(token, MaxKeptText);
  }

  Visit open_variation(std::uint64_t offset) {
    start();
    if (left_out()) return Visit::Skip;
    Frame& f = frames.back();
    if (f.line->empty()) {
      diagnose(Problem::misplaced_variation, true, offset, 0, {}, "a variation must follow the move it replaces");
      return Visit::Skip;
    }
    MoveNode& parent = f.line->back();
    Line& line = parent.annotate().variations.emplace_back();
    bool broken = parent.move.is_none();  // nothing to branch from when the move failed
    Position before = f.start;
    if (!broken)
      for (std::size_t i = 0; i + 1 < f.line->size(); ++i) before.play((*f.line)[i].move);
    Frame child{&line, broken ? f.state : f.state.rewind(before), before, broken};
    frames.push_back(std::move(child));
    return Visit::Continue;
  }

  // A variation with no move cannot stand as one: its comments and NAGs go to the
  // move it follows, and the empty variation is dropped.
  void close_variation() {
    if (frames.size() <= 1) return;
    bool empty = frames.back().line->empty();
    frames.pop_back();
    if (!empty) return;
    MoveNode& parent = frames.back().line->back();
    Annotations& a = parent.annotate();
    a.variations.pop_back();
    for (auto& c : pending_comments) a.comments.push_back(std::move(c));
    for (auto n : pending_nags) a.nags.push_back(n);
    pending_comments.clear();
    pending_nags.clear();
  }

  void finish_result_checks() {
    std::string_view tag_result = known_tag(TagResult);
    if (!rec.result.empty() && !tag_result.empty() && tag_result != rec.result)
      diagnose(Problem::result_tag_mismatch, false, rec.start, 0, {},
               "the Result tag says " + std::string(tag_result) + " but the movetext ends " + rec.result);
    std::string_view result = rec.result.empty() ? tag_result : std::string_view(rec.result);
    const Frame& main = frames.front();
    if (main.broken || result.empty() || result == "*") return;
    const Position& pos = main.state.position();
    bool decisive = result == "1-0" || result == "0-1";
    if (rec.termination == Termination::Checkmate) {
      std::string_view expected = pos.side_to_move() == White ? "0-1" : "1-0";
      if (result != expected)
        diagnose(Problem::result_contradicts_position, false, rec.start, 0, {},
                 "result " + std::string(result) + " but " + (pos.side_to_move() == White ? "White" : "Black") +
                     " is checkmated: expected " + std::string(expected));
    } else if (ends_game(rec.termination) && decisive) {
      diagnose(Problem::result_contradicts_position, false, rec.start, 0, {},
               "result " + std::string(result) + " but the game ended drawn by " +
                   std::string(termination_name(rec.termination)));
    }
  }

  // One warning a repeated tag, up to a few: a file may repeat one tag 80,000 times.
  void report_duplicate_tags() {
    constexpr int MaxReported = 8;
    int repeated = 0;
    for_each_repeated_tag(rec.tags, [&](std::size_t i) {
      if (++repeated <= MaxReported)
        diagnose(Problem::duplicate_tag, false, rec.start, 0, {}, "duplicate tag " + rec.tags[i].first);
    });
    if (repeated > MaxReported)
      diagnose(Problem::duplicate_tag, false, rec.start, 0, {},
               std::to_string(repeated - MaxReported) + " more duplicate tags");
  }

  void finish_tag_checks() {
    report_duplicate_tags();
    if (std::string_view d = known_tag(TagDate); !d.empty() && !date_well_formed(d))
      diagnose(Problem::malformed_date, false, rec.start, 0, {},
               "malformed Date \"" + std::string(d) + "\": expected YYYY.MM.DD with ? for unknown digits");
    if (std::string_view pc = known_tag(TagPlyCount); !pc.empty() && !frames.front().broken) {
      int n = -1;
      std::from_chars(pc.data(), pc.data() + pc.size(), n);
      int plies = int(rec.mainline.size());
      if (n != plies)
        diagnose(Problem::plycount_mismatch, false, rec.start, 0, {},
                 "PlyCount tag says " + std::string(pc) + " but the game has " + std::to_string(plies) + " plies");
    }
  }

  // A game ends with a result (1-0, 0-1, 1/2-1/2 or *); a missing one is a slip, shown
  // where it was expected: after the game's last text.
  void check_termination(std::string_view raw) {
    if (!rec.result.empty()) return;
    std::size_t last = raw.find_last_not_of(" \t\n\r\f\v");
    std::size_t end = last == std::string_view::npos ? 0 : last + 1;
    diagnose(Problem::missing_result, options.strict, rec.start.offset + end, 0, {},
             "no result at the end of the game: expected 1-0, 0-1, 1/2-1/2 or *");
  }

  void finish() {
    start();
    while (frames.size() > 1) frames.pop_back();
    if (!pending_comments.empty()) {
      if (rec.mainline.empty())
        rec.final_comments = std::move(pending_comments);
      else
        for (auto& c : pending_comments) rec.mainline.back().annotate().comments.push_back(std::move(c));
      pending_comments.clear();
    }
    pending_nags.clear();
    const Frame& main = frames.front();
    rec.final_position = main.state.position();
    if (skipped()) return;  // read in part: its end, tags and result are not judged
    rec.termination = main.broken ? Termination::None : main.state.termination();
    finish_tag_checks();
    finish_result_checks();
  }
  // Whether the caller left the rest of the game unread (ReplayOptions::wanted, watch).
  [[nodiscard]] bool skipped() const { return after_move == pgn::Visit::Skip; }
};

Replayer::Replayer(ReplayOptions options, GameHandler on_game, InputErrorHandler on_input_error,
                   MoveHandler on_mainline_move)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->on_game = std::move(on_game);
  impl_->on_input_error = std::move(on_input_error);
  impl_->on_mainline_move = std::move(on_mainline_move);
}
Replayer::~Replayer() = default;

Visit Replayer::begin_game(const pgn::GameInfo& info) {
  Impl& s = *impl_;
  s.rec.clear();
  s.rec.index = info.index;
  s.rec.start = info.start;
  s.lines = pgn::LineCounter(info.text, info.start);
  if (!s.frames.empty()) s.frames.erase(s.frames.begin() + 1, s.frames.end());  // the mainline's is kept
  s.pending_comments.clear();
  s.pending_nags.clear();
  s.started = false;
  s.break_at_start = false;
  s.unreplayed = 0;
  s.cut = false;
  s.after_move = Visit::Continue;
  s.watching = false;
  s.preferred = s.options.notation;
  s.tables = letter_tables();
  s.game_text = info.text;
  s.known_tags.fill(-1);
  return Visit::Continue;
}

Visit Replayer::tag(std::string_view name, std::string_view value, std::uint64_t offset) {
  if (value.size() > MaxKeptText)
    impl_->diagnose(Problem::tag_too_long, true, offset, 0, {},
                    "tag " + display_token(name) + " has a value of " + std::to_string(value.size()) +
                        " bytes: expected at most " + std::to_string(MaxKeptText));
  auto& tags = impl_->rec.tags;
  if (tags.empty()) tags.reserve(16);  // most games have 7 to 16 tags
  tags.emplace_back(name, cut_text(value, MaxKeptText));
  impl_->note_tag(name, tags.size() - 1);
  return Visit::Continue;
}

Visit Replayer::move(std::string_view token, std::uint64_t offset) {
  impl_->add_move(token, offset);
  return impl_->after_move;
}

Visit Replayer::san_move(std::string_view token, const San& san, std::uint64_t offset) {
  impl_->add_move(token, offset, &san);
  return impl_->after_move;
}

// Comments and NAGs before the first move wait for it without setting the position up:
// tags may still follow them (the reader allows comments between tags), and a FEN tag
// read after the set-up was kept but not played from.
Visit Replayer::nag(int nag, std::uint64_t) {
  Impl& s = *impl_;
  if (s.left_out()) return Visit::Continue;
  if (!s.started || s.frames.back().line->empty() || !s.pending_comments.empty())
    s.pending_nags.push_back(std::uint8_t(nag));
  else
    s.frames.back().line->back().annotate().nags.push_back(std::uint8_t(nag));
  return Visit::Continue;
}

Visit Replayer::comment(std::string_view text, std::uint64_t) {
  Impl& s = *impl_;
  if (s.left_out()) return Visit::Continue;
  if (!s.started || s.frames.back().line->empty())
    s.pending_comments.emplace_back(text);
  else
    s.frames.back().line->back().annotate().comments.emplace_back(text);
  return Visit::Continue;
}

Visit Replayer::begin_variation(std::uint64_t offset) { return impl_->open_variation(offset); }
void Replayer::end_variation() { impl_->close_variation(); }
void Replayer::result(std::string_view text, std::uint64_t) { impl_->rec.result = text; }

Visit Replayer::end_game(const pgn::GameEnd& end) {
  Impl& s = *impl_;
  s.finish();
  if (!s.skipped()) s.check_termination(end.raw);
  if (s.options.keep_raw || !s.rec.valid()) {
    s.rec.raw = end.raw;
    s.rec.encoding = end.encoding;
  }
  return s.on_game ? s.on_game(s.rec) : Visit::Continue;
}

void Replayer::syntax_error(const pgn::SyntaxError& error) {
  Impl& s = *impl_;
  if (error.game_index == 0 || error.game_index != s.rec.index) {
    if (s.on_input_error) s.on_input_error(error);
    return;
  }
  s.diagnose(error.kind, !error.warning || (error.strict && s.options.strict), error.pos, 0, {}, error.message);
  if (error.warning) return;  // read on: the tokens after it are aligned
  // Later tokens may be misaligned: keep them as text. Before the first move the
  // position is not set up yet (a FEN tag may still come), so the break waits for it.
  if (!s.started) s.break_at_start = true;
  for (Frame& f : s.frames) f.broken = true;
}

}  // namespace qipu::game
