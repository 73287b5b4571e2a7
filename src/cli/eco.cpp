// qipu eco FILE... — the ECO code and opening names of every game in PGN files, found by
// the positions the game reaches, so transpositions are classified too.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/lang.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/game/criteria.hpp"
#include "qipu/db/store.hpp"

namespace qipu::cli {

namespace {

struct EcoOptions {
  InputOptions input;
  std::string eco_file = db::DefaultEcoFile;
  std::string lang;  // of the opening names
};

void eco(std::ostream& out, const EcoOptions& o) {
  std::optional<db::EcoTable> table;
  try {
    table = db::EcoTable::load(o.eco_file);
  } catch (const db::DbError& e) {
    std::cerr << "qipu eco: " << e.what() << " (install pgn-extract, or give --eco-file)\n";
    return set_exit_code(2);
  }
  Lang lang = resolve_lang(o.lang);
  game::PipelineCallbacks cb;
  cb.prepare = [&](game::GameRecord& rec) {
    const db::Opening* op = table->classify(game::position_keys(rec));
    auto names = op ? opening_names(lang, op->name, op->variation) : OpeningNames{};
    rec.output = (op ? op->eco : "") + "\t" + names.name + "\t" + names.variation;
  };
  cb.game = [&](const game::InputReport& in, game::GameRecord& rec) {
    out << shown(in.path) << ":" << rec.index << "\t" << players(rec) << "\t" << rec.output << "\n";
    if (!rec.valid()) set_exit_code(1);
  };
  cb.input_done = [&](const game::InputReport& in) {
    for (const auto& e : in.input_errors) std::cerr << format_input_error(in.path, e) << "\n";
    if (!in.opened) set_exit_code(2);
  };
  game::run_pipeline(o.input.files, pipeline_options(o.input), cb);
}

void run_eco(const EcoOptions& o) {
  Output output("eco");
  if (!output.open("", o.input.files)) return;
  eco(output.stream(), o);
  output.finish();
}

}  // namespace

void setup_eco(CLI::App& app) {
  auto o = std::make_shared<EcoOptions>();
  auto* cmd = app.add_subcommand("eco", "Classify the games of PGN files by ECO code, opening and variation");
  add_input_options(*cmd, o->input);
  cmd->add_option("--eco-file", o->eco_file,
                  "ECO lines to classify by (default: " + std::string(db::DefaultEcoFile) + ")");
  add_lang_option(*cmd, o->lang, "--lang,--to");
  cmd->footer(
      "Prints one line per game: FILE:GAME, the players, the code, the opening and the variation, tab-separated.\n"
      "The deepest named position the game reaches wins, whatever the move order. A game whose moves\n"
      "fail to replay is classified up to its first bad move.\n"
      "With --to zh (or zh-Hant) the names are Chinese: the opening's established name, else its family's,\n"
      "and the variation's where one is established (西西里防御 纳道夫变例), else none.\n"
      "Examples: qipu eco games.pgn | cut -f3 | sort | uniq -c | sort -rn | head\n"
      "          qipu eco --to zh games.pgn");
  cmd->callback([o] { run_eco(*o); });
}

}  // namespace qipu::cli
