#include "qipu/game/criteria.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <regex>

#include "qipu/game/pipeline.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu::game {

// ---- values users give -----------------------------------------------------------

namespace {

constexpr std::string_view PieceLetters = "KQRBNP";
constexpr std::array<PieceType, 6> PieceOrder = {King, Queen, Rook, Bishop, Knight, Pawn};
using MaterialCounts = std::array<int, 12>;  // White's K Q R B N P, then Black's

std::string side_material(const int* counts) {
  std::string s;
  for (std::size_t i = 0; i < PieceOrder.size(); ++i) s.append(std::size_t(counts[i]), PieceLetters[i]);
  return s;
}

MaterialCounts material_counts(const Position& pos) {
  MaterialCounts m{};
  for (std::size_t i = 0; i < PieceOrder.size(); ++i) {
    m[i] = popcount(pos.pieces(White, PieceOrder[i]));
    m[i + 6] = popcount(pos.pieces(Black, PieceOrder[i]));
  }
  return m;
}

// Whether a position with `now` can still come to `target`: pieces are only lost, and
// a piece gained is a pawn promoted, so each side needs its target's pawns plus one
// spare pawn for each piece it lacks. Once false it stays false.
bool counts_reachable(const MaterialCounts& now, const MaterialCounts& target) {
  for (std::size_t side : {0, 6}) {
    int spare = now[side + 5] - target[side + 5];
    for (std::size_t i = side + 1; i < side + 5; ++i) spare -= std::max(0, target[i] - now[i]);
    if (spare < 0) return false;
  }
  return true;
}

// "KRPvKR" (as parse_material gives it) back to counts.
MaterialCounts counts_of(std::string_view signature) {
  MaterialCounts m{};
  std::size_t side = 0;
  for (char c : signature)
    if (c == 'v')
      side = 6;
    else
      ++m[side + PieceLetters.find(c)];
  return m;
}

std::optional<int> tag_int(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool valid_eco(std::string_view s) {
  return s.size() == 3 && s[0] >= 'A' && s[0] <= 'E' && std::isdigit(static_cast<unsigned char>(s[1])) &&
         std::isdigit(static_cast<unsigned char>(s[2]));
}

// "MIN-MAX", "MIN-", "-MAX" or "N" as a range of plies.
std::optional<std::pair<std::optional<int>, std::optional<int>>> plies_range(std::string_view s) {
  auto dash = s.find('-');
  std::string_view lo = s.substr(0, dash), hi = dash == std::string_view::npos ? lo : s.substr(dash + 1);
  std::pair<std::optional<int>, std::optional<int>> r;
  if (!lo.empty() && !(r.first = tag_int(lo))) return std::nullopt;
  if (!hi.empty() && !(r.second = tag_int(hi))) return std::nullopt;
  if ((!r.first && !r.second) || (r.first && r.second && *r.first > *r.second)) return std::nullopt;
  return r;
}

const std::array<std::string_view, 6> Speeds = {"ultrabullet", "bullet",    "blitz",
                                                "rapid",       "classical", "correspondence"};

}  // namespace

std::string material_signature(const Position& pos) {
  MaterialCounts m = material_counts(pos);
  return side_material(m.data()) + "v" + side_material(m.data() + 6);
}

std::optional<std::string> parse_material(std::string_view spec) {
  std::array<std::array<int, 6>, 2> counts{};
  int side = 0;
  for (char ch : spec) {
    char c = char(std::toupper(static_cast<unsigned char>(ch)));
    if (c == ' ') continue;
    if (c == 'V' || c == '-') {
      if (++side > 1) return std::nullopt;
      continue;
    }
    auto at = PieceLetters.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    ++counts[std::size_t(side)][at];
  }
  if (side != 1) return std::nullopt;
  for (auto& c : counts) {
    if (c[0] > 1) return std::nullopt;
    c[0] = 1;  // the king may be left out: "RPvR"
  }
  return side_material(counts[0].data()) + "v" + side_material(counts[1].data());
}

std::optional<Termination> termination_from_name(std::string_view name) {
  for (int t = 0; t <= int(Termination::FiftyMoveRule); ++t)
    if (termination_name(Termination(t)) == name) return Termination(t);
  return std::nullopt;
}

std::optional<std::int64_t> date_bound(std::string_view s, bool upper) {
  int parts[3] = {-1, -1, -1}, n = 0;
  for (std::size_t i = 0; i < s.size() && n < 3;) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    int v = 0, digits = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, ++digits) v = v * 10 + (s[i] - '0');
    if (digits > (n == 0 ? 4 : 2)) return std::nullopt;
    parts[n++] = v;
    if (i < s.size() && std::string_view(".-/").find(s[i]) == std::string_view::npos) return std::nullopt;
    if (i < s.size()) ++i;
  }
  if (n == 0 || parts[0] <= 0 || parts[1] > 12 || parts[2] > 31) return std::nullopt;
  std::int64_t month = parts[1] >= 0 ? parts[1] : upper ? 99 : 0;
  std::int64_t day = parts[2] >= 0 ? parts[2] : upper ? 99 : 0;
  return std::int64_t(parts[0]) * 10000 + month * 100 + day;
}

std::optional<std::int64_t> date_value(std::string_view d) {
  auto digits = [&](std::size_t at, std::size_t n) -> int {
    if (d.size() < at + n) return 0;
    auto v = tag_int(d.substr(at, n));
    return v && *v >= 0 ? *v : 0;
  };
  if (d.size() < 4) return std::nullopt;
  auto year = tag_int(d.substr(0, 4));
  if (!year || *year <= 0) return std::nullopt;
  return std::int64_t(*year) * 10000 + digits(5, 2) * 100 + digits(8, 2);
}

std::optional<std::pair<std::string, std::string>> eco_range(std::string_view spec) {
  std::string eco(spec);
  for (char& c : eco) c = char(std::toupper(static_cast<unsigned char>(c)));
  std::string lo = eco, hi = eco;
  if (auto dash = eco.find('-'); dash != std::string::npos) {
    lo = eco.substr(0, dash);
    hi = eco.substr(dash + 1);
  } else if (eco.size() == 1) {
    lo = eco + "00";
    hi = eco + "99";
  }
  if (!valid_eco(lo) || !valid_eco(hi) || lo > hi) return std::nullopt;
  return std::pair{lo, hi};
}

std::string speed_of(std::string_view tc) {
  if (tc == "-") return "correspondence";
  if (auto slash = tc.find('/'); slash != std::string_view::npos) tc.remove_prefix(slash + 1);  // "40/7200:3600"
  tc = tc.substr(0, tc.find(':'));
  if (!tc.empty() && tc[0] == '*') tc.remove_prefix(1);  // a sandglass
  auto plus = tc.find('+');
  auto base = tag_int(tc.substr(0, plus));
  auto increment = plus == std::string_view::npos ? std::optional<int>(0) : tag_int(tc.substr(plus + 1));
  if (!base || !increment || *base < 0 || *increment < 0) return {};
  long long seconds = *base + 40LL * *increment;
  const long long limits[] = {30, 180, 480, 1500};
  for (std::size_t i = 0; i < 4; ++i)
    if (seconds < limits[i]) return std::string(Speeds[i]);
  return "classical";
}

// The text goes through the PGN reader and replayer as the movetext of one game, so the
// moves are read exactly as in a file (move numbers, every notation).
Result<MoveListText> read_move_list(std::string_view text) {
  MoveListText out;
  std::string error;
  PipelineOptions o;
  o.jobs = 1;
  o.reader.words.pieces = all_piece_words();  // every language's piece words, as import reads them
  PipelineCallbacks cb;
  int games = 0;
  cb.game = [&](const InputReport&, GameRecord& rec) {
    if (++games > 1) return;
    for (const auto& d : rec.diagnostics)
      if (d.error && error.empty()) error = (d.move.empty() ? "" : d.move + ": ") + d.message;
    if (!error.empty()) return;
    out.position = rec.start_position;
    out.keys.push_back(rec.start_position.key());
    for_each_move(rec.start_position, rec.mainline, [&](const Position&, const MoveNode& node, const Position& after) {
      out.moves.push_back(node.move);
      out.keys.push_back(after.key());
      out.position = after;
    });
  };
  std::string movetext(text);  // the reader reads "１．e4" as people type it with a Chinese IME, and "e4；e5"
  movetext += " *\n";
  run_pipeline(std::vector<PipelineInput>{{"moves", movetext}}, o, cb);
  if (games != 1 && error.empty()) error = "expected one line of moves such as \"1.e4 c5 2.Nf3\"";
  if (!error.empty()) return Failure{error};
  return out;
}

std::vector<Key> position_keys(const GameRecord& rec) {
  std::vector<Key> keys{rec.start_position.key()};
  for_each_move(rec.start_position, rec.mainline,
                [&](const Position&, const MoveNode&, const Position& after) { keys.push_back(after.key()); });
  return keys;
}

// ---- checking criteria ------------------------------------------------------------

namespace {

using FoundProblem = std::optional<CriteriaProblem>;

FoundProblem check_names(const Criteria& c) {
  const std::pair<const char*, const std::string*> people[] = {
      {"white", &c.white}, {"black", &c.black}, {"player", &c.player}};
  const std::pair<const char*, const std::string*> places[] = {
      {"event", &c.event}, {"site", &c.site}, {"annotator", &c.annotator}};
  for (const auto& [name, value] : people)
    if (!value->empty())
      if (auto e = name_query_error(*value, c.name_mode()); !e.empty()) return CriteriaProblem{name, e};
  for (const auto& [name, value] : places)
    if (!value->empty())
      if (auto e = name_query_error(*value, c.place_mode()); !e.empty()) return CriteriaProblem{name, e};
  if (!c.color.empty() && c.color != "white" && c.color != "black")
    return CriteriaProblem{"color", "expected white or black"};
  if (!c.outcome.empty() && c.outcome != "won" && c.outcome != "lost" && c.outcome != "drew")
    return CriteriaProblem{"won", "expected won, lost or drew"};
  if ((!c.color.empty() || !c.outcome.empty()) && c.player.empty())
    return CriteriaProblem{c.color.empty() ? c.outcome : "color", "is the player's side: give the player's name too"};
  return std::nullopt;
}

FoundProblem check_tags(const Criteria& c) {
  for (const auto& t : c.tags) {
    if (t.name.empty() || t.name.find_first_of(" \"[]") != std::string::npos)
      return CriteriaProblem{"tag", "expected NAME=VALUE or NAME~REGEX, such as Round=5 or Event~Olympiad"};
    if (t.regex)
      if (auto e = name_query_error(t.value, NameMatch::Regex); !e.empty()) return CriteriaProblem{"tag", e};
  }
  return std::nullopt;
}

FoundProblem check_values(const Criteria& c) {
  static const std::set<std::string, std::less<>> results = {"1-0", "0-1", "1/2-1/2", "*", "decisive", "draw"};
  if (!c.result.empty() && !results.count(c.result))
    return CriteriaProblem{"result", "expected 1-0, 0-1, 1/2-1/2, *, decisive or draw"};
  if (!c.eco.empty() && !eco_range(c.eco))
    return CriteriaProblem{"eco", "expected a code such as C60, a range such as C60-C99, or a letter A-E"};
  const char* date_want = "expected a date such as 1990, 1990.05 or 1990.05.17";
  if (!c.date_from.empty() && !date_bound(c.date_from, false)) return CriteriaProblem{"date-from", date_want};
  if (!c.date_to.empty() && !date_bound(c.date_to, true)) return CriteriaProblem{"date-to", date_want};
  if (!c.material.empty() && !parse_material(c.material))
    return CriteriaProblem{"material", "expected the pieces of each side, White first, such as KRPvKR"};
  if (c.stable < 1) return CriteriaProblem{"stable", "expected a number of plies, 1 or more"};
  if (!c.plies.empty() && !plies_range(c.plies))
    return CriteriaProblem{"plies", "expected a range of half-moves such as 20-60, 80- or -30"};
  if (!c.speed.empty() && std::find(Speeds.begin(), Speeds.end(), c.speed) == Speeds.end())
    return CriteriaProblem{"speed", "expected ultrabullet, bullet, blitz, rapid, classical or correspondence"};
  if (c.elo_diff && *c.elo_diff < 0) return CriteriaProblem{"elo-diff", "expected a rating difference, 0 or more"};
  return std::nullopt;
}

FoundProblem check_positions(const Criteria& c) {
  if (!c.fen.empty())
    if (auto r = Position::from_fen(c.fen); !r) return CriteriaProblem{"fen", r.error()};
  if (!c.moves.empty())
    if (auto l = read_move_list(c.moves); !l) return CriteriaProblem{"moves", l.error()};
  return std::nullopt;
}

}  // namespace

std::optional<CriteriaProblem> check_criteria(const Criteria& c) {
  if (auto p = check_values(c)) return p;
  if (auto p = check_names(c)) return p;
  if (auto p = check_tags(c)) return p;
  return check_positions(c);
}

// ---- testing records ---------------------------------------------------------------

namespace {

// What the positional criteria need of a game, found in one walk over its mainline.
struct Walk {
  std::vector<Key> keys;  // from ply 0
  bool material_held = false;
};

bool has_comments(const Line& line) {
  return std::any_of(line.begin(), line.end(), [](const MoveNode& n) {
    if (!n.notes) return false;
    const Annotations& a = *n.notes;
    return !a.comments.empty() || !a.pre_comments.empty() ||
           std::any_of(a.variations.begin(), a.variations.end(), has_comments);
  });
}

bool has_variations(const Line& line) {
  return std::any_of(line.begin(), line.end(),
                     [](const MoveNode& n) { return n.notes && !n.notes->variations.empty(); });
}

std::string_view result_of(const GameRecord& rec) {
  std::string_view r = rec.tag("Result");
  return r.empty() ? std::string_view(rec.result) : r;
}

bool result_is(std::string_view r, const std::string& want) {
  if (want == "decisive") return r == "1-0" || r == "0-1";
  if (want == "draw") return r == "1/2-1/2";
  return r == want;
}

}  // namespace

// The one position criterion a game's replay watches to stop early (Matcher::watch).
struct Goal {
  enum class Kind { None, Position, Moves, Material } kind = Kind::None;
  Key key = 0;                // Position: the target's key
  MaterialCounts counts{};    // Position and Material: the target's pieces
  Bitboard home[2] = {0, 0};  // Position: the target's pawns on their start squares
  std::uint8_t castling = 0;  // Position: the target's castling rights
  std::vector<Move> moves;    // Moves: the moves the game begins with
};

// A position the game must reach: everything that cannot come back once lost.
Goal position_goal(const Position& target) {
  Goal g;
  g.kind = Goal::Kind::Position;
  g.key = target.key();
  g.counts = material_counts(target);
  g.home[White] = target.pieces(White, Pawn) & rank_bb(1);
  g.home[Black] = target.pieces(Black, Pawn) & rank_bb(6);
  g.castling = target.castling_rights();
  return g;
}

Watch watch_position(const Goal& g, const Position& now) {
  if (now.key() == g.key) return Watch::Whole;
  if ((now.castling_rights() & g.castling) != g.castling) return Watch::Skip;
  if ((now.pieces(White, Pawn) & g.home[White]) != g.home[White]) return Watch::Skip;
  if ((now.pieces(Black, Pawn) & g.home[Black]) != g.home[Black]) return Watch::Skip;
  return counts_reachable(material_counts(now), g.counts) ? Watch::More : Watch::Skip;
}

// The game begins with g.moves: the start position is ply 0, the last move played ply n.
Watch watch_moves(const Goal& g, const GameRecord& rec) {
  if (rec.start_fen) return Watch::Skip;
  std::size_t n = rec.mainline.size();
  if (n > 0 && (n > g.moves.size() || rec.mainline[n - 1].move != g.moves[n - 1])) return Watch::Skip;
  return n >= g.moves.size() ? Watch::Whole : Watch::More;
}

// Material once held may be all the criterion wants (it asks for it held --stable plies):
// the game is wanted whole from then on.
Watch watch_material(const Goal& g, const Position& now) {
  MaterialCounts m = material_counts(now);
  if (m == g.counts) return Watch::Whole;
  return counts_reachable(m, g.counts) ? Watch::More : Watch::Skip;
}

struct Matcher::Impl {
  using Test = std::function<bool(const GameRecord&, const Walk&)>;
  struct Entry {
    Test test;
    bool negate;
    bool tags_only;  // needs nothing of the game but its tags
  };
  std::vector<Entry> tests;
  bool walk_keys = false;
  // Keys wanted only while the board has at least this many pieces (a position to find):
  // captures cannot be undone, so the walk stops below. all_keys: every key (ECO).
  int min_pieces = 64;
  bool all_keys = false;
  std::optional<MaterialCounts> material;
  int stable = 1;
  Classifier classify;
  bool adding_tag_tests = false;  // set while the tests of tags alone are added
  Goal goal;                      // the first position criterion not negated

  void set_goal(const Criteria& c, std::string_view name, Goal g) {
    if (goal.kind == Goal::Kind::None && !c.negated.count(std::string(name))) goal = std::move(g);
  }

  // A test, negated when --not came before any of the options that give it.
  void add(const Criteria& c, std::initializer_list<std::string_view> names, Test t) {
    bool negate = std::any_of(names.begin(), names.end(),
                              [&](std::string_view n) { return c.negated.count(std::string(n)) > 0; });
    tests.push_back({std::move(t), negate, adding_tag_tests});
  }
  void add(const Criteria& c, std::string_view name, Test t) { add(c, {name}, std::move(t)); }
  void add_names(const Criteria& c);
  void add_tags(const Criteria& c);
  void add_numbers(const Criteria& c);
  void add_outcome(const Criteria& c);
  void add_positions(const Criteria& c);
  [[nodiscard]] Walk walk(const GameRecord& rec) const;
};

// The player on one side: --color allows it, the name matches, and the result is the
// player's --won, --lost or --drew.
bool plays_side(const GameRecord& rec, const Criteria& c, const NameQuery& player, bool white) {
  if (!c.color.empty() && c.color != (white ? "white" : "black")) return false;
  if (!player.matches(rec.tag(white ? "White" : "Black"))) return false;
  std::string_view r = rec.tag("Result");
  if (c.outcome == "drew") return r == "1/2-1/2";
  if (c.outcome == "won") return r == (white ? "1-0" : "0-1");
  if (c.outcome == "lost") return r == (white ? "0-1" : "1-0");
  return true;
}

void Matcher::Impl::add_names(const Criteria& c) {
  NameMatch mode = c.name_mode(), place = c.place_mode();
  auto by_tag = [&](const std::string& name, const std::string& query, std::string_view tag, NameMatch how) {
    if (query.empty()) return;
    auto q = std::make_shared<const NameQuery>(query, how);  // folded, split or compiled once, not once a game
    add(c, name, [q, tag](const GameRecord& rec, const Walk&) { return q->matches(rec.tag(tag)); });
  };
  by_tag("white", c.white, "White", mode);
  by_tag("black", c.black, "Black", mode);
  by_tag("event", c.event, "Event", place);
  by_tag("site", c.site, "Site", place);
  by_tag("annotator", c.annotator, "Annotator", place);
  if (!c.player.empty())
    add(c, "player",
        [side = c, q = std::make_shared<const NameQuery>(c.player, mode)](const GameRecord& rec, const Walk&) {
          return plays_side(rec, side, *q, true) || plays_side(rec, side, *q, false);
        });
}

void Matcher::Impl::add_tags(const Criteria& c) {
  if (!c.round.empty())
    add(c, "round", [v = c.round](const GameRecord& rec, const Walk&) { return rec.tag("Round") == v; });
  if (!c.time_control.empty())
    add(c, "time-control",
        [v = c.time_control](const GameRecord& rec, const Walk&) { return rec.tag("TimeControl") == v; });
  if (!c.speed.empty())
    add(c, "speed",
        [v = c.speed](const GameRecord& rec, const Walk&) { return speed_of(rec.tag("TimeControl")) == v; });
  for (std::size_t i = 0; i < c.tags.size(); ++i) {
    const TagTest& t = c.tags[i];
    auto has = [name = t.name](const GameRecord& g) {
      return std::any_of(g.tags.begin(), g.tags.end(), [&](const auto& kv) { return same_name(kv.first, name); });
    };
    std::string key = "tag" + std::to_string(i + 1);  // as the command line numbers them
    if (t.regex) {
      auto re = std::make_shared<std::regex>(t.value, std::regex::ECMAScript);
      add(c, key, [t, re, has](const GameRecord& rec, const Walk&) {
        std::string_view v = rec.tag(t.name);
        return has(rec) && std::regex_search(v.begin(), v.end(), *re);
      });
    } else {
      add(c, key, [t, has](const GameRecord& rec, const Walk&) { return has(rec) && rec.tag(t.name) == t.value; });
    }
  }
}

void Matcher::Impl::add_numbers(const Criteria& c) {
  auto date_test = [&](std::string_view name, std::int64_t lo, std::int64_t hi) {
    add(c, name, [lo, hi](const GameRecord& rec, const Walk&) {
      auto d = date_value(rec.tag("Date"));
      return d && *d >= lo && *d <= hi;
    });
  };
  if (!c.date_from.empty()) date_test("date-from", *date_bound(c.date_from, false), 99999999);
  if (!c.date_to.empty()) date_test("date-to", 0, *date_bound(c.date_to, true));
  if (c.min_elo || c.max_elo) {
    int lo = c.min_elo.value_or(0), hi = c.max_elo.value_or(99999);
    bool both = c.both_elo;
    add(c, {"min-elo", "max-elo"}, [lo, hi, both](const GameRecord& rec, const Walk&) {
      auto in = [&](std::string_view tag) {
        auto e = tag_int(tag);
        return e && *e >= lo && *e <= hi;
      };
      return both ? in(rec.tag("WhiteElo")) && in(rec.tag("BlackElo"))
                  : in(rec.tag("WhiteElo")) || in(rec.tag("BlackElo"));
    });
  }
  if (c.elo_diff)
    add(c, "elo-diff", [d = *c.elo_diff](const GameRecord& rec, const Walk&) {
      auto w = tag_int(rec.tag("WhiteElo")), b = tag_int(rec.tag("BlackElo"));
      return w && b && std::abs(*w - *b) <= d;
    });
  adding_tag_tests = false;  // plies need the replay
  std::optional<int> lo = c.min_plies, hi = c.max_plies;
  if (auto r = plies_range(c.plies)) std::tie(lo, hi) = *r;
  if (lo || hi)
    add(c, {"min-plies", "max-plies", "plies"},
        [lo = lo.value_or(0), hi = hi.value_or(1 << 30)](const GameRecord& rec, const Walk&) {
          int n = rec.plies();
          return n >= lo && n <= hi;
        });
}

void Matcher::Impl::add_outcome(const Criteria& c) {
  // The movetext's result when the tag is missing: known at the end of the game only.
  if (!c.result.empty())
    add(c, "result", [v = c.result](const GameRecord& rec, const Walk&) { return result_is(result_of(rec), v); });
  if (c.termination)
    add(c, "termination", [t = *c.termination](const GameRecord& rec, const Walk&) { return rec.termination == t; });
  if (c.valid) add(c, "valid", [](const GameRecord& rec, const Walk&) { return rec.valid(); });
  if (c.invalid) add(c, "invalid", [](const GameRecord& rec, const Walk&) { return !rec.valid(); });
  if (c.with_comments)
    add(c, "with-comments",
        [](const GameRecord& rec, const Walk&) { return !rec.final_comments.empty() || has_comments(rec.mainline); });
  if (c.with_variations)
    add(c, "with-variations", [](const GameRecord& rec, const Walk&) { return has_variations(rec.mainline); });
}

void Matcher::Impl::add_positions(const Criteria& c) {
  if (!c.fen.empty()) {
    walk_keys = true;
    Position target = Position::from_fen(c.fen).value();
    min_pieces = std::min(min_pieces, popcount(target.pieces()));
    set_goal(c, "fen", position_goal(target));
    Key k = target.key();
    add(c, "fen",
        [k](const GameRecord&, const Walk& w) { return std::find(w.keys.begin(), w.keys.end(), k) != w.keys.end(); });
  }
  if (!c.moves.empty()) {
    MoveListText l = read_move_list(c.moves).value();  // check_criteria has read them
    if (c.transpose) {
      set_goal(c, "moves", position_goal(l.position));
      walk_keys = true;
      min_pieces = std::min(min_pieces, popcount(l.position.pieces()));
      add(c, "moves", [k = l.position.key()](const GameRecord&, const Walk& w) {
        return std::find(w.keys.begin(), w.keys.end(), k) != w.keys.end();
      });
    } else {
      Goal g;
      g.kind = Goal::Kind::Moves;
      g.moves = l.moves;
      set_goal(c, "moves", std::move(g));
      add(c, "moves", [m = l.moves](const GameRecord& rec, const Walk&) {
        if (rec.start_fen || rec.mainline.size() < m.size()) return false;
        for (std::size_t i = 0; i < m.size(); ++i)
          if (rec.mainline[i].move != m[i]) return false;
        return true;
      });
    }
  }
  if (!c.material.empty()) {
    material = counts_of(*parse_material(c.material));
    stable = c.stable;
    Goal g;
    g.kind = Goal::Kind::Material;
    g.counts = *material;
    set_goal(c, "material", std::move(g));
    add(c, "material", [](const GameRecord&, const Walk& w) { return w.material_held; });
  }
  if ((!c.eco.empty() || !c.opening.empty()) && classify) {
    walk_keys = all_keys = true;
    auto range = c.eco.empty() ? std::nullopt : eco_range(c.eco);
    std::string name = fold_name(c.opening);
    add(c, {"eco", "opening"}, [this, range, name](const GameRecord&, const Walk& w) {
      auto o = classify(w.keys);
      if (!o) return false;
      if (range && (o->eco < range->first || o->eco > range->second)) return false;
      return name.empty() || fold_name(o->name).find(name) != std::string::npos ||
             fold_name(o->variation).find(name) != std::string::npos;
    });
  }
}

Walk Matcher::Impl::walk(const GameRecord& rec) const {
  Walk w;
  if (!walk_keys && !material) return w;
  int held = 0;
  auto visit = [&](const Position& pos) {
    if (walk_keys) w.keys.push_back(pos.key());
    if (material) {
      held = material_counts(pos) == *material ? held + 1 : 0;
      w.material_held |= held >= stable;
    }
  };
  const bool may_stop = !all_keys && !material;
  Position pos = rec.start_position;
  visit(pos);
  for (const MoveNode& node : rec.mainline) {
    if (node.move.is_none()) break;
    pos.play(node.move);
    if (may_stop && popcount(pos.pieces()) < min_pieces) break;
    visit(pos);
  }
  return w;
}

Matcher::Matcher(const Criteria& c, Classifier classify) : impl_(std::make_unique<Impl>()) {
  impl_->classify = std::move(classify);
  impl_->adding_tag_tests = true;
  impl_->add_names(c);
  impl_->add_tags(c);
  impl_->add_numbers(c);
  impl_->add_outcome(c);
  impl_->add_positions(c);
}

Matcher::~Matcher() = default;
Matcher::Matcher(Matcher&&) noexcept = default;

bool Matcher::matches_tags(const GameRecord& rec) const {
  return std::all_of(impl_->tests.begin(), impl_->tests.end(),
                     [&](const Impl::Entry& e) { return !e.tags_only || e.test(rec, Walk{}) != e.negate; });
}

bool Matcher::watches() const { return impl_->goal.kind != Goal::Kind::None; }

Watch Matcher::watch(const GameRecord& rec, const Position& now) const {
  const Goal& g = impl_->goal;
  switch (g.kind) {
    case Goal::Kind::Position: return watch_position(g, now);
    case Goal::Kind::Moves: return watch_moves(g, rec);
    case Goal::Kind::Material: return watch_material(g, now);
    case Goal::Kind::None: break;
  }
  return Watch::Whole;
}

bool Matcher::matches(const GameRecord& rec) const { return matches_rest(rec, true); }

bool Matcher::matches_rest(const GameRecord& rec, bool with_tags) const {
  Walk w = impl_->walk(rec);
  return std::all_of(impl_->tests.begin(), impl_->tests.end(),
                     [&](const Impl::Entry& e) { return (e.tags_only && !with_tags) || e.test(rec, w) != e.negate; });
}

}  // namespace qipu::game
