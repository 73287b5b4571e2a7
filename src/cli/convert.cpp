// qipu convert --to json|fen|uci FILE... — games in machine-readable forms.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/game_output.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu::cli {

namespace {

struct ConvertOptions {
  InputOptions input;
  std::string to;
  std::string output;
  StyleOptions style;
  std::string moves;  // an inline move list instead of files
  bool skip_invalid = false;
};

void run_convert(const ConvertOptions& o) {
  Output output("convert");
  if (!output.open(o.output, o.input.files)) return;
  BlockWriter out(output.stream());
  bool any_invalid = false, io_failed = false, first_game = true;
  const Notation* notation = find_notation(o.to);
  bool pgn = notation != nullptr;
  game::WriterOptions writer = pgn ? writer_options(*notation, o.style) : game::WriterOptions{};
  game::PipelineCallbacks cb;
  // Games are written on the workers, beside their replay.
  cb.prepare = [&](game::GameRecord& rec) {
    if (o.skip_invalid && !rec.valid()) return;
    if (pgn)
      rec.output = game::write_pgn(rec, writer);
    else if (o.to == "json")
      rec.output = to_json(rec);
    else if (o.to == "uci")
      rec.output = to_uci_line(rec);
    else
      rec.output = to_fen_lines(rec);
  };
  cb.trim = release_on_worker;  // only the text and the diagnostics are needed from here on
  cb.game = [&](const game::InputReport& in, game::GameRecord& rec) {
    for (const auto& d : rec.diagnostics)
      if (d.error) std::cerr << format_diagnostic(in.path, rec, d) << "\n";
    if (!rec.valid()) {
      any_invalid = true;
      if (o.skip_invalid) return;
    }
    if (o.to == "fen" && !first_game) out.add("\n");
    out.add(rec.output);
    first_game = false;
  };
  cb.input_done = [&](const game::InputReport& in) { io_failed |= report_input(in, &std::cerr); };
  std::vector<game::PipelineInput> inputs;
  for (const auto& f : o.input.files) inputs.push_back({f, std::nullopt});
  if (!o.moves.empty()) inputs.push_back({"--moves", o.moves});
  if (inputs.empty()) {
    std::cerr << "qipu convert: give PGN files, '-' for standard input, or --moves \"1.e4 e5\"\n";
    set_exit_code(2);
    return;
  }
  game::run_pipeline(inputs, pipeline_options(o.input), cb);
  set_exit_code(io_failed ? 2 : any_invalid ? 1 : 0);
  out.flush();
  output.finish();
}

std::vector<std::string> convert_targets() {
  std::vector<std::string> names{"json", "fen", "uci"};
  for (const auto& n : notations()) names.emplace_back(n.code);
  return names;
}

std::string target_help() {
  std::string h = "What to write. PGN in a notation: ";
  for (const auto& n : notations()) h += std::string(n.code) + " (" + std::string(n.description) + "), ";
  return h +
         "or json (one object per game: tags, moves with SAN, UCI, FEN and Polyglot key, result, termination, "
         "errors and warnings as \"[code] LINE:COL: message\", code as in check --json), fen (one FEN per ply, a blank "
         "line between games), uci (one line of UCI moves per game)";
}

}  // namespace

void setup_convert(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand(
      "convert", "Write games in another notation (English, Chinese, figurines, …) or as JSON, FENs or UCI");
  add_input_options(*cmd, o->input, false);
  cmd->add_option("--to", o->to, target_help())->required()->check(CLI::IsMember(convert_targets()));
  add_style_options(*cmd, o->style);
  cmd->add_option("--moves", o->moves, "Convert this move list instead of files, e.g. \"1.e4 e5 2.马f3\"");
  cmd->add_option("-o,--output", o->output, "Write to this file instead of standard output");
  cmd->add_flag("--skip-invalid", o->skip_invalid, "Leave out games with errors instead of writing them");
  cmd->footer(
      "Every move is replayed, so the output is proper SAN whatever the input's notation or style.\n"
      "A game with an error is reported on stderr and still written, its movetext from the error on\n"
      "left as it was. Tag values and comments are never changed.\n"
      "Examples: qipu convert --to zh games.pgn\n"
      "          qipu convert --to en --moves \"1.e4 e5 2.马f3 马c6\"\n"
      "          qipu convert --to json games.pgn > games.jsonl");
  cmd->callback([o] { run_convert(*o); });
}

}  // namespace qipu::cli
