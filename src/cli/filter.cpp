// qipu filter [criteria] [output options] FILE... — the games of PGN files that meet the
// criteria (the same as search's), cleaned, tagged and written as PGN in any notation, or
// JSON, FENs, EPD or UCI; no database. Games are tested and written on the workers.
#include <sys/resource.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <unordered_set>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/criteria.hpp"
#include "cli/game_output.hpp"
#include "cli/lang.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/db/sqlite.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/criteria.hpp"
#include "qipu/game/duplicate.hpp"

namespace qipu::cli {

namespace {

struct FilterOptions {
  InputOptions input;
  CriteriaOptions criteria;
  std::string to = "en";
  StyleOptions style;
  std::string output, duplicates, split_by, eco_file = db::DefaultEcoFile;
  bool count = false, no_comments = false, no_nags = false, no_variations = false, no_clock = false;
  bool seven_tags = false, add_eco = false, add_plycount = false, add_termination = false, fix_result = false;
  bool dedup = false;
  int ply_limit = -1;
  std::uint64_t split = 0;
};

// What the workers found of a game, for the calling thread.
struct Verdict {
  bool matched = false;
  std::uint64_t key = 0;                     // the duplicate key, with --dedup or --duplicates
  std::string eco;                           // the game's code, for --split-by eco
  db::EcoTable::Walk opening;                // the opening, from the replay's positions (opening_watch)
  game::Watch position = game::Watch::More;  // the Matcher's last answer, while it watches
};

// ---- changing a game ------------------------------------------------------------

// A comment without its [%clk …] and [%eval …] commands (lichess's clocks and engine
// evaluations), and without the spaces they leave.
std::string drop_clock(std::string_view comment) {
  std::string out;
  for (std::size_t i = 0; i < comment.size();) {
    if (comment.compare(i, 5, "[%clk") == 0 || comment.compare(i, 6, "[%eval") == 0) {
      auto end = comment.find(']', i);
      i = end == std::string_view::npos ? comment.size() : end + 1;
      while (i < comment.size() && comment[i] == ' ') ++i;
      continue;
    }
    out += comment[i++];
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  while (!out.empty() && (out.front() == ' ' || out.front() == '\n')) out.erase(0, 1);
  return out;
}

void drop_clocks(std::vector<std::string>& comments) {
  for (auto& c : comments) c = drop_clock(c);
  std::erase_if(comments, [](const std::string& c) { return c.empty(); });
}

// Removes what the options strip from a line and its variations.
void strip_line(game::Line& line, const FilterOptions& o) {
  for (auto& node : line) {
    if (!node.notes) continue;
    game::Annotations& a = *node.notes;
    if (o.no_comments) a.comments.clear(), a.pre_comments.clear();
    if (o.no_nags) a.nags.clear();
    if (o.no_variations) a.variations.clear();
    if (o.no_clock) drop_clocks(a.comments), drop_clocks(a.pre_comments);
    for (auto& v : a.variations) strip_line(v, o);
  }
}

void set_tag(game::GameRecord& rec, std::string_view name, std::string value) {
  for (auto& [n, v] : rec.tags)
    if (game::same_name(n, name)) {
      v = std::move(value);
      return;
    }
  rec.tags.emplace_back(std::string(name), std::move(value));
}

// The Seven Tag Roster, and the tags that say where a set-up game starts.
void keep_seven_tags(game::GameRecord& rec) {
  static const std::unordered_set<std::string_view> keep = {"Event", "Site",   "Date", "Round", "White",
                                                            "Black", "Result", "FEN",  "SetUp", "Variant"};
  std::erase_if(rec.tags, [](const auto& t) { return !keep.count(t.first); });
}

// A result that contradicts a mate or a draw on the board (the replayer's warning)
// becomes the board's; the warning then says so. False when nothing changed.
bool fix_result(game::GameRecord& rec) {
  auto d = std::find_if(rec.diagnostics.begin(), rec.diagnostics.end(),
                        [](const auto& d) { return d.kind == Problem::result_contradicts_position; });
  if (d == rec.diagnostics.end()) return false;
  std::string right = rec.termination != Termination::Checkmate    ? "1/2-1/2"
                      : rec.final_position.side_to_move() == White ? "0-1"
                                                                   : "1-0";
  set_tag(rec, "Result", right);
  rec.result = right;
  d->message += "; corrected to " + right;
  return true;
}

// ---- duplicates ------------------------------------------------------------------

// The key import gives the game (game/duplicate.hpp), the moves as their raw values,
// written into room made once (appended two bytes at a time, they cost more than the hash).
std::uint64_t dedup_key(const game::GameRecord& rec) {
  std::string moves(2 * rec.mainline.size(), '\0');
  char* end = moves.data();
  for (const auto& node : rec.mainline) {
    if (node.move.is_none()) break;
    std::uint16_t m = node.move.raw();
    end = std::copy_n(reinterpret_cast<const char*>(&m), sizeof m, end);
  }
  moves.resize(std::size_t(end - moves.data()));
  return game::duplicate_key(game::identity_of(rec, moves));
}

// ---- output files ---------------------------------------------------------------

// A file name from a tag value: no path separators or control characters, not empty.
std::string file_name_of(std::string_view value) {
  std::string s;
  for (char c : value.substr(0, 100))
    s += (static_cast<unsigned char>(c) < 0x20 || std::string_view("/\\:*?\"<>|").find(c) != std::string_view::npos)
             ? '_'
             : c;
  while (!s.empty() && (s.back() == ' ' || s.back() == '.')) s.pop_back();
  while (!s.empty() && (s.front() == ' ' || s.front() == '.')) s.erase(0, 1);
  return s.empty() ? "unknown" : s;
}

// Where each written game goes: one output, or files in a directory (--split).
class Sink {
 public:
  explicit Sink(const FilterOptions& o) : o_(o) {}
  bool open() {
    if (!split()) {
      if (!main_.open(o_.output, o_.input.files)) return false;
      out_ = std::make_unique<BlockWriter>(main_.stream());
      return true;
    }
    if (o_.output.empty() || o_.output == "-") {
      std::cerr << "qipu filter: --split and --split-by write files: give a directory with -o DIR\n";
      set_exit_code(2);
      return false;
    }
    std::error_code ec;
    std::filesystem::create_directories(o_.output, ec);
    if (ec) {
      std::cerr << "qipu filter: " << shown(o_.output) << ": cannot make the directory: " << ec.message() << "\n";
      set_exit_code(2);
      return false;
    }
    raise_file_limit();
    return true;
  }
  // False when a file could not be opened (after a message).
  // Text that is no game's (--count's number), to the one output.
  void text(std::string_view s) { out_->add(s); }
  bool write(std::string_view text, const game::GameRecord& rec, const Verdict& v) {
    if (!split()) {
      out_->add(text);
      return true;
    }
    std::string name = part_name(rec, v);
    auto it = parts_.find(name);
    if (it == parts_.end()) {
      auto part = std::make_unique<Part>();
      if (!part->output.open((std::filesystem::path(o_.output) / name).string(), o_.input.files)) return false;
      part->writer = std::make_unique<BlockWriter>(part->output.stream());
      it = parts_.emplace(name, std::move(part)).first;
    }
    it->second->writer->add(text);
    ++written_;
    return true;
  }
  void finish() {
    if (out_) out_->flush();
    for (auto& [name, part] : parts_) part->writer->flush();
    main_.finish();
    for (auto& [name, part] : parts_) part->output.finish();
  }

 private:
  struct Part {
    Output output{"filter"};
    std::unique_ptr<BlockWriter> writer;
  };
  [[nodiscard]] bool split() const { return o_.split > 0 || !o_.split_by.empty(); }
  std::string extension() const {
    return o_.to == "json"  ? ".json"
           : o_.to == "fen" ? ".fen"
           : o_.to == "epd" ? ".epd"
           : o_.to == "uci" ? ".uci"
                            : ".pgn";
  }
  std::string part_name(const game::GameRecord& rec, const Verdict& v) const {
    if (o_.split > 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%06llu", static_cast<unsigned long long>(written_ / o_.split + 1));
      return buf + extension();
    }
    if (o_.split_by == "eco") return file_name_of(v.eco.empty() ? rec.tag("ECO") : v.eco) + extension();
    if (o_.split_by == "event") return file_name_of(rec.tag("Event")) + extension();
    std::string_view year = rec.tag("Date").substr(0, 4);
    return file_name_of(year.find_first_not_of("0123456789") == std::string_view::npos ? year : "") + extension();
  }
  // --split-by may open a file per event: as many as the system allows.
  static void raise_file_limit() {
    rlimit r{};
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
      r.rlim_cur = r.rlim_max;
      setrlimit(RLIMIT_NOFILE, &r);
    }
  }
  const FilterOptions& o_;
  Output main_{"filter"};
  std::unique_ptr<BlockWriter> out_;
  std::map<std::string, std::unique_ptr<Part>> parts_;
  std::uint64_t written_ = 0;
};

// ---- the command ---------------------------------------------------------------

std::optional<db::EcoTable> load_eco(const FilterOptions& o) {
  const game::Criteria& c = o.criteria.criteria;
  if (!o.add_eco && c.eco.empty() && c.opening.empty() && o.split_by != "eco") return std::nullopt;
  try {
    return db::EcoTable::load(o.eco_file);
  } catch (const db::DbError& e) {
    std::cerr << "qipu filter: " << e.what() << " (install pgn-extract, or give --eco-file)\n";
    set_exit_code(2);
    return std::nullopt;
  }
}

game::Classifier classifier(const std::optional<db::EcoTable>& table) {
  if (!table) return {};
  return [&t = *table](const std::vector<Key>& keys) -> std::optional<game::OpeningNames> {
    const db::Opening* op = t.classify(keys);
    if (!op) return std::nullopt;
    return game::OpeningNames{op->eco, op->name, op->variation};
  };
}

// The game as the options want it written.
std::string render(const game::GameRecord& rec, const FilterOptions& o, const game::WriterOptions& w) {
  if (o.count) return {};
  if (w.notation) return game::write_pgn(rec, w);  // PGN, the common case: no comparing of names a game
  if (o.to == "json") return to_json(rec);
  if (o.to == "fen") return to_fen_lines(rec);
  if (o.to == "epd") return to_epd_lines(rec);
  if (o.to == "uci") return to_uci_line(rec);
  return game::write_pgn(rec, w);
}

// Whether the game's opening is classified (--add-eco, --split-by eco).
bool classifies(const FilterOptions& o) { return o.add_eco || o.split_by == "eco"; }

// The replay's watch when the opening is classified: the opening walks the game's first
// positions as the replay reaches them (no second replay of the opening), beside the
// watch of a position criterion (`watcher`, else nullptr); More while either wants the
// next position.
game::Watch opening_watch(const game::GameRecord& rec, Verdict& v, const Position& now, const game::Matcher* watcher,
                          const db::EcoTable& eco) {
  if (watcher && v.position == game::Watch::More) v.position = watcher->watch(rec, now);
  if (v.position == game::Watch::Skip) return game::Watch::Skip;  // the game cannot match
  bool opening = eco.visit(v.opening, now);
  return opening || (watcher && v.position == game::Watch::More) ? game::Watch::More : game::Watch::Whole;
}

// On a worker: tests the game, changes it as asked, and writes it into rec.output. The
// tags were tested by ReplayOptions::wanted (rec.wanted), and are not tested again.

void prepare(game::GameRecord& rec, Verdict& v, const FilterOptions& o, const game::Matcher& matcher,
             const db::EcoTable* eco, const game::WriterOptions& w) {
  if (!rec.wanted || !matcher.matches_after_tags(rec)) return;
  v.matched = true;
  if (o.dedup || !o.duplicates.empty()) v.key = dedup_key(rec);
  if (o.seven_tags) keep_seven_tags(rec);  // before the tags added below
  if (eco && classifies(o))
    if (const db::Opening* op = eco->opening(v.opening)) {
      v.eco = op->eco;
      if (o.add_eco) {
        // Games written in Chinese get the openings' Chinese names (cli/lang.hpp).
        auto names = opening_names(lang_from_code(o.to).value_or(Lang::En), op->name, op->variation);
        set_tag(rec, "ECO", op->eco);
        set_tag(rec, "Opening", names.name);
        if (!names.variation.empty()) set_tag(rec, "Variation", names.variation);
      }
    }
  if (o.fix_result) fix_result(rec);
  if (o.ply_limit >= 0 && rec.mainline.size() > std::size_t(o.ply_limit)) rec.mainline.resize(std::size_t(o.ply_limit));
  if (o.add_plycount) set_tag(rec, "PlyCount", std::to_string(rec.plies()));
  if (o.add_termination && rec.termination != Termination::None)
    set_tag(rec, "Termination", std::string(termination_name(rec.termination)));
  if (o.no_comments) rec.final_comments.clear();
  if (o.no_comments || o.no_nags || o.no_variations || o.no_clock) strip_line(rec.mainline, o);
  rec.output = render(rec, o, w);
}

struct Tally {
  std::uint64_t games = 0, written = 0, duplicates = 0, invalid_written = 0;
  bool io_failed = false;
};

void run_filter(const FilterOptions& o) {
  if (o.count && (o.split > 0 || !o.split_by.empty())) {
    std::cerr << "qipu filter: --count prints a number: give it without --split or --split-by\n";
    return set_exit_code(2);
  }
  auto table = load_eco(o);
  if (exit_code() == 2) return;
  game::Classifier classify = classifier(table);
  game::Matcher matcher(o.criteria.criteria, classify);
  const Notation* notation = find_notation(o.to);
  game::WriterOptions w = notation ? writer_options(*notation, o.style) : game::WriterOptions{};
  Sink sink(o);
  if (!sink.open()) return;
  Output dups("filter");
  if (!o.duplicates.empty() && !dups.open(o.duplicates, o.input.files)) return;
  db::HashSet64 seen;  // one array: a node per game cost a cache miss or two per look-up
  Tally t;
  bool first_fen = true;
  Progress progress(o.input.files);
  game::PipelineCallbacks<Verdict> cb;
  cb.prepare = [&](game::GameRecord& rec, Verdict& v) { prepare(rec, v, o, matcher, table ? &*table : nullptr, w); };
  cb.game = [&](const game::InputReport& in, game::GameRecord& rec, Verdict& v) {
    ++t.games;
    if (!v.matched) return;
    for (const auto& d : rec.diagnostics)
      if (o.fix_result && d.kind == Problem::result_contradicts_position)
        std::cerr << format_diagnostic(in.path, rec, d) << "\n";
    if ((o.dedup || !o.duplicates.empty()) && !seen.insert(v.key)) {
      ++t.duplicates;
      if (!o.duplicates.empty()) dups.stream() << rec.output;
      return;
    }
    ++t.written;
    t.invalid_written += !rec.valid();
    if (o.count) return;
    if ((o.to == "fen" || o.to == "epd") && !first_fen) sink.write("\n", rec, v);
    first_fen = false;
    if (!sink.write(rec.output, rec, v)) t.io_failed = true;
  };
  cb.input_done = [&](const game::InputReport& in) { t.io_failed |= report_input(in, &std::cerr); };
  cb.progress = [&](std::uint64_t bytes, std::uint64_t games) { progress.update(bytes, games); };
  game::PipelineOptions po = pipeline_options(o.input);
  po.replay.wanted = [&](const game::GameRecord& rec) { return matcher.matches_tags(rec); };  // else not replayed
  if (table && classifies(o))  // in place of po.replay.watch
    cb.watch = [&, watcher = matcher.watches() ? &matcher : nullptr](const game::GameRecord& rec, Verdict& v,
                                                                     const Position& now) {
      return opening_watch(rec, v, now, watcher, *table);
    };
  else if (matcher.watches())  // a position it can no longer reach: the rest is not replayed
    po.replay.watch = [&](const game::GameRecord& rec, const Position& now) { return matcher.watch(rec, now); };
  game::run_pipeline(o.input.files, po, cb);
  progress.finish();
  if (o.count) sink.text(std::to_string(t.written) + "\n");
  if (t.invalid_written > 0)
    std::cerr << "qipu filter: note: " << t.invalid_written
              << " games written have errors (qipu check lists them; --valid leaves them out)\n";
  set_exit_code(t.io_failed ? 2 : t.invalid_written ? 1 : 0);
  sink.finish();
  dups.finish();
}

std::vector<std::string> target_names() {
  std::vector<std::string> names{"json", "fen", "epd", "uci"};
  for (const auto& n : notations()) names.emplace_back(n.code);
  return names;
}

void add_output_options(CLI::App& cmd, FilterOptions& o) {
  cmd.add_option(
         "--to", o.to,
         "What to write: PGN in a notation (en, the default; zh, zh-Hant, fan, de, … as convert), or json, fen, "
         "epd (one line per ply, a blank line between games) or uci")
      ->check(CLI::IsMember(target_names()));
  add_style_options(cmd, o.style);
  cmd.add_flag("--count", o.count, "Print only the number of games that match");
  cmd.add_flag("--no-comments", o.no_comments, "Leave out comments");
  cmd.add_flag("--no-nags", o.no_nags, "Leave out NAGs ($1, !, ?)");
  cmd.add_flag("--no-variations", o.no_variations, "Leave out variations");
  cmd.add_flag("--no-clock", o.no_clock, "Leave out [%clk …] and [%eval …] from comments, and comments left empty");
  cmd.add_flag("--seven-tags", o.seven_tags, "Keep only the Seven Tag Roster (and FEN/SetUp of set-up games)");
  cmd.add_option("--ply-limit", o.ply_limit, "Write at most this many plies of each game's mainline")
      ->check(CLI::NonNegativeNumber);
  cmd.add_flag(
      "--add-eco", o.add_eco,
      "Set ECO, Opening and Variation tags from the ECO table, by position (in Chinese with --to zh or zh-Hant)");
  cmd.add_option("--eco-file", o.eco_file, "ECO lines for --eco, --opening, --add-eco (default: pgn-extract's)");
  cmd.add_flag("--add-plycount", o.add_plycount, "Set a PlyCount tag");
  cmd.add_flag("--add-termination", o.add_termination,
               "Set a Termination tag when the board ends the game (checkmate, stalemate, insufficient_material, …)");
  cmd.add_flag("--fix-result", o.fix_result,
               "Correct a result that contradicts a mate or a draw on the board (a warning per game)");
  cmd.add_flag("--dedup", o.dedup, "Leave out duplicates: the same roster, start and moves, as import decides");
  cmd.add_option("--duplicates", o.duplicates, "Write the duplicates left out to this file (implies --dedup)");
  cmd.add_option("--split", o.split, "Write N games a file, into -o DIR as 000001.pgn, 000002.pgn, …")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--split-by", o.split_by, "Write a file per eco (code), event or date (year), into -o DIR")
      ->check(CLI::IsMember({"eco", "event", "date"}));
  cmd.add_option("-o,--output", o.output, "Write to this file (or directory, with --split) instead of standard output");
}

}  // namespace

void setup_filter(CLI::App& app) {
  auto o = std::make_shared<FilterOptions>();
  auto* cmd =
      app.add_subcommand("filter", "Select, clean and tag games of PGN files by the criteria of search, no database");
  add_input_options(*cmd, o->input);
  add_criteria_options(*cmd, o->criteria, CriteriaScope::filter);
  add_output_options(*cmd, *o);
  cmd->footer(
      "Criteria combine with AND; --not before one negates it. Games are written in input order;\n"
      "--jobs as in check. Bad criteria fail before any game is read, with search's messages.\n"
      "Examples: qipu filter --player carlsen --speed blitz --min-elo 2500 lichess.pgn.zst -o carlsen.pgn\n"
      "          qipu filter --moves \"1.e4 c5 2.Nf3 d6\" --transpose --count games.pgn\n"
      "          qipu filter --material KRPvKR --stable 4 --to zh games.pgn\n"
      "          qipu filter --no-comments --no-variations --add-eco --dedup --duplicates dups.pgn big.pgn -o "
      "clean.pgn\n"
      "          qipu filter --not --result draw --split-by eco -o by_eco/ games.pgn");
  cmd->callback([o, cmd] {
    if (!finish_criteria("filter", *cmd, o->criteria)) return set_exit_code(2);
    run_filter(*o);
  });
}

}  // namespace qipu::cli
