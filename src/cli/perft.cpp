// qipu perft <FEN|startpos> <depth> [--divide]
#include <chrono>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "qipu/board/perft.hpp"

namespace qipu::cli {

namespace {
struct PerftOptions {
  std::string fen;
  int depth = 1;
  bool divide = false;
  bool chess960 = false;
};

void run_perft(const PerftOptions& o) {
  auto parsed = Position::from_fen(o.fen == "startpos" ? StartFen : std::string_view(o.fen), o.chess960);
  if (!parsed) {
    std::cerr << "qipu perft: invalid FEN: " << parsed.error() << "\n";
    set_exit_code(2);
    return;
  }
  const Position& pos = *parsed;
  auto start = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (o.divide) {
    for (const auto& [move, count] : perft_divide(pos, o.depth)) {
      std::cout << move << ": " << count << "\n";
      total += count;
    }
  } else {
    total = perft(pos, o.depth);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << "perft " << o.depth << ": " << total << " nodes in " << secs << " s ("
            << (secs > 0 ? total / secs / 1e6 : 0) << " M nodes/s)\n";
  std::cout << total << "\n";
}
}  // namespace

void setup_perft(CLI::App& app) {
  auto opts = std::make_shared<PerftOptions>();
  auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree (tests the move generator)");
  cmd->add_option("fen", opts->fen, "A FEN in quotes, or 'startpos'")->required();
  cmd->add_option("depth", opts->depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
  cmd->add_flag("--divide", opts->divide, "First print each root move (UCI) with its count");
  cmd->add_flag("--chess960", opts->chess960, "Read KQkq castling rights as Chess960 (X-FEN)");
  cmd->footer(
      "The last line of output is the node count alone; timing goes to stderr.\n"
      "Example: qipu perft startpos 5   →   4865609");
  cmd->callback([opts] { run_perft(*opts); });
}

}  // namespace qipu::cli
