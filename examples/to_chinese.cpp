// Reads a PGN file and writes its games back in Chinese notation (马f3, 后xf7#).
// Usage: to_chinese FILE.pgn
#include <iostream>

#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: to_chinese FILE.pgn\n";
    return 2;
  }
  qipu::game::WriterOptions writer;
  writer.notation = qipu::find_notation("zh");  // or "zh-Hant", "de", "fan", …
  qipu::game::PipelineOptions options;
  options.jobs = 1;
  qipu::game::PipelineCallbacks callbacks;
  int status = 0;
  callbacks.game = [&](const qipu::game::InputReport&, qipu::game::GameRecord& game) {
    if (!game.valid()) {  // a move that could not be replayed cannot be translated
      std::cerr << "game " << game.index << ": " << game.diagnostics.front().message << "\n";
      status = 1;
      return;
    }
    std::cout << qipu::game::write_pgn(game, writer);
  };
  callbacks.input_done = [&](const qipu::game::InputReport& input) {
    if (!input.input_errors.empty()) {
      std::cerr << input.path << ": " << input.input_errors.front().message << "\n";
      status = 2;
    }
  };
  qipu::game::run_pipeline(std::vector<std::string>{argv[1]}, options, callbacks);
  return status;
}
