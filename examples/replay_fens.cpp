// Reads a PGN file, replays every game and prints each position of its mainline as a
// FEN, the start position first. Problems found (illegal moves, …) go to stderr.
// Usage: replay_fens FILE.pgn
#include <iostream>

#include "qipu/game/pipeline.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: replay_fens FILE.pgn\n";
    return 2;
  }
  qipu::game::PipelineOptions options;
  options.jobs = 1;  // everything on this thread, games in order
  qipu::game::PipelineCallbacks callbacks;
  int status = 0;
  callbacks.game = [&](const qipu::game::InputReport& input, qipu::game::GameRecord& game) {
    std::cout << "game " << game.index << ": " << game.tag("White") << " - " << game.tag("Black") << "\n";
    std::cout << game.start_position.fen() << "\n";
    qipu::game::for_each_move(game.start_position, game.mainline,
                              [](const qipu::Position&, const qipu::game::MoveNode&, const qipu::Position& after) {
                                std::cout << after.fen() << "\n";
                              });
    for (const qipu::game::Diagnostic& d : game.diagnostics) {
      std::cerr << input.path << ":" << d.pos.line << ":" << d.pos.column << ": " << d.move << ": " << d.message
                << "\n";
      if (d.error) status = 1;
    }
  };
  callbacks.input_done = [&](const qipu::game::InputReport& input) {
    for (const qipu::pgn::SyntaxError& e : input.input_errors) {
      std::cerr << input.path << ": " << e.message << "\n";
      status = 2;
    }
  };
  qipu::game::run_pipeline(std::vector<std::string>{argv[1]}, options, callbacks);
  return status;
}
