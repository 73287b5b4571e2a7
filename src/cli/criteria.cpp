#include "cli/criteria.hpp"

#include <iostream>

#include "qipu/board/game_state.hpp"

namespace qipu::cli {

namespace {

// The declarations a command may take on their own (explore, rating: a subset).
void add_player_option(CLI::App& cmd, game::Criteria& c) {
  cmd.add_option("--player", c.player, "Either player's name has these words");
}

void add_color_option(CLI::App& cmd, game::Criteria& c) {
  cmd.add_option("--color", c.color, "With --player: the games the player had this colour in, white or black")
      ->check(CLI::IsMember({"white", "black"}));
}

void add_place_options(CLI::App& cmd, game::Criteria& c) {
  cmd.add_option("--event", c.event, "Event name contains this");
  cmd.add_option("--site", c.site, "Site contains this");
}

void add_date_options(CLI::App& cmd, game::Criteria& c) {
  cmd.add_option("--date-from", c.date_from, "Played on or after this date: 1990, 1990.05 or 1990.05.17");
  cmd.add_option("--date-to", c.date_to, "Played on or before this date: 1990 means up to the end of 1990");
}

void add_elo_options(CLI::App& cmd, game::Criteria& c) {
  cmd.add_option("--min-elo", c.min_elo, "A player (both with --both-elo) rated at least this");
  cmd.add_option("--max-elo", c.max_elo, "A player (both with --both-elo) rated at most this");
  cmd.add_flag("--both-elo", c.both_elo, "Apply --min-elo/--max-elo to both players rather than either");
}

void add_name_options(CLI::App& cmd, CriteriaOptions& o, CriteriaScope scope) {
  game::Criteria& c = o.criteria;
  cmd.add_option("--white", c.white,
                 "White's name has these words, in any order: \"anand\", \"Magnus Carlsen\", \"Carlsen M\" (case, "
                 "accents, full-width letters and 對/对 folded; any script, e.g. 王皓)");
  cmd.add_option("--black", c.black, "Black's name has these words");
  add_player_option(cmd, c);
  cmd.add_flag("--substring", o.substring, "Names match anywhere, not by words (\"anand\" then finds Praggnanandhaa)");
  cmd.add_flag("--exact", c.exact, "Names (players, --event, --site) must match whole, still case-insensitive");
  cmd.add_flag("--regex", c.regex,
               "Names (players, --event, --site, --annotator) are regular expressions (ECMAScript, case-insensitive)");
  auto* won = cmd.add_flag("--won", o.won, "With --player: the games the player won");
  auto* lost = cmd.add_flag("--lost", o.lost, "With --player: the games the player lost");
  auto* drew = cmd.add_flag("--drew", o.drew, "With --player: the games the player drew");
  won->excludes(lost)->excludes(drew);
  lost->excludes(drew);
  add_color_option(cmd, c);
  if (scope == CriteriaScope::filter) {
    cmd.add_option("--round", c.round, "The Round tag is exactly this");
    cmd.add_option("--annotator", c.annotator, "The annotator's name contains this");
  }
  add_place_options(cmd, c);
}

void add_tag_options(CLI::App& cmd, CriteriaOptions& o, CriteriaScope scope) {
  game::Criteria& c = o.criteria;
  cmd.add_option("--result", c.result, "1-0, 0-1, 1/2-1/2, *, decisive or draw");
  add_date_options(cmd, c);
  add_elo_options(cmd, c);
  if (scope == CriteriaScope::search) return;
  cmd.add_option("--elo-diff", c.elo_diff, "Both players rated, at most this many points apart");
  cmd.add_option("--tag", o.tags, "Any tag: NAME=VALUE (exactly this value) or NAME~REGEX; may be repeated")
      ->allow_extra_args(false);
  cmd.add_option("--time-control", c.time_control, "The TimeControl tag is exactly this, e.g. 180+2");
  cmd.add_option("--speed", c.speed,
                 "ultrabullet, bullet, blitz, rapid, classical or correspondence, from TimeControl by lichess's rule: "
                 "base + 40 × increment seconds under 30, 180, 480, 1500, else classical; \"-\" correspondence");
}

void add_game_options(CLI::App& cmd, CriteriaOptions& o, CriteriaScope scope) {
  game::Criteria& c = o.criteria;
  bool filter = scope == CriteriaScope::filter;
  cmd.add_option("--eco", c.eco,
                 filter
                     ? "ECO code (C60), range (C60-C99) or letter (C), classified by position with the ECO table"
                     : "ECO code (C60), range (C60-C99) or letter (C); classified at import when the tag is missing");
  cmd.add_option("--opening", c.opening, "Opening or variation name contains this (e.g. Sicilian, Najdorf)");
  cmd.add_option("--min-plies", c.min_plies, "At least this many half-moves");
  cmd.add_option("--max-plies", c.max_plies, "At most this many half-moves");
  if (filter) cmd.add_option("--plies", c.plies, "Half-moves in this range: 20-60, 80- or -30");
  std::vector<std::string> terms;
  for (int t = 0; t <= int(Termination::FiftyMoveRule); ++t) terms.emplace_back(termination_name(Termination(t)));
  cmd.add_option("--termination", o.termination,
                 "How the final position stands: checkmate, stalemate, insufficient_material, …")
      ->check(CLI::IsMember(terms));
  cmd.add_option("--material", c.material,
                 filter ? "Material reached at any ply, White first: KRPvKR (kings may be left out: RPvR)"
                        : "Material at the end, White first: KRPvKR (kings may be left out: RPvR)");
  cmd.add_option("--fen", c.fen,
                 filter ? "Games reaching this position at any ply of the mainline"
                        : "Games reaching this position at any ply (through the position index)");
  cmd.add_option("--moves", c.moves,
                 "Games beginning with these moves, in any notation: \"1.e4 c5 2.Nf3\", \"1.e4 c5 2.马f3\"");
  cmd.add_flag("--transpose", c.transpose, "With --moves: also games reaching the same position by another move order");
  if (!filter) return;
  cmd.add_option("--stable", c.stable, "With --material: held for at least this many plies (default 1)");
  cmd.add_flag("--valid", c.valid, "Games without errors");
  cmd.add_flag("--invalid", c.invalid, "Games with errors (an illegal move, a bad tag, …)");
  cmd.add_flag("--with-comments", c.with_comments, "Games with comments");
  cmd.add_flag("--with-variations", c.with_variations, "Games with variations");
  cmd.add_flag("--not", o.nots, "Negates the criterion that follows: --not --player Carlsen");
}

// NAME=VALUE or NAME~REGEX; a bad one keeps an empty name, for check_criteria to refuse.
game::TagTest tag_test(const std::string& text) {
  auto at = text.find_first_of("=~");
  if (at == std::string::npos) return {};
  return {text.substr(0, at), text.substr(at + 1), text[at] == '~'};
}

// Marks the criterion after each --not as negated; false when one is followed by none.
bool resolve_nots(const CLI::App& cmd, game::Criteria& c) {
  bool pending = false;
  int tags = 0;
  for (const CLI::Option* opt : cmd.parse_order()) {
    std::string name = opt->get_single_name();
    if (name == "tag") name += std::to_string(++tags);
    if (pending && (name == "not" || !opt->nonpositional() || name == "exact" || name == "regex" ||
                    name == "substring" || name == "won" || name == "lost" || name == "drew" || name == "color" ||
                    name == "transpose" || name == "both-elo"))
      return false;
    if (pending) c.negated.insert(name);
    pending = name == "not";
  }
  return !pending;
}

}  // namespace

void add_criteria_options(CLI::App& cmd, CriteriaOptions& o, CriteriaScope scope) {
  game::Criteria& c = o.criteria;
  if (scope == CriteriaScope::explore) {
    add_player_option(cmd, c);
    add_color_option(cmd, c);
    add_elo_options(cmd, c);
    return add_date_options(cmd, c);
  }
  if (scope == CriteriaScope::rating) {
    add_place_options(cmd, c);
    return add_date_options(cmd, c);
  }
  add_name_options(cmd, o, scope);
  add_tag_options(cmd, o, scope);
  add_game_options(cmd, o, scope);
}

bool finish_criteria(const char* command, const CLI::App& cmd, CriteriaOptions& o) {
  game::Criteria& c = o.criteria;
  c.names = o.substring ? game::NameMatch::Substring : game::NameMatch::Words;
  c.outcome = o.won ? "won" : o.lost ? "lost" : o.drew ? "drew" : "";
  if (!o.termination.empty()) c.termination = game::termination_from_name(o.termination);
  c.tags.clear();
  for (const auto& t : o.tags) c.tags.push_back(tag_test(t));
  if (o.nots > 0 && !resolve_nots(cmd, c)) {
    std::cerr << "qipu " << command << ": --not: expected a criterion after it, such as --not --player Carlsen\n";
    return false;
  }
  if (auto p = game::check_criteria(c)) {
    std::cerr << "qipu " << command << ": --" << p->criterion << ": " << p->message << "\n";
    return false;
  }
  return true;
}

}  // namespace qipu::cli
