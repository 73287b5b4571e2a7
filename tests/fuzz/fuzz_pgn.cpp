// libFuzzer target: bytes in as a PGN file, through the reader and the replayer, every
// game written back out in English and Chinese and read again, which must give the
// same moves. Build with -DQIPU_FUZZ=ON (clang).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_util.hpp"
#include "qipu/game/writer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto games = fuzz::read_all(std::string(reinterpret_cast<const char*>(data), size));
  for (const auto& g : games) {
    if (!g.valid()) continue;
    for (const char* code : {"en", "zh"}) {
      qipu::game::WriterOptions w;
      w.notation = qipu::find_notation(code);
      std::string written = qipu::game::write_pgn(g, w);
      auto back = fuzz::read_all(written);
      // What the writer writes, the reader reads back to the same game.
      if (back.size() != 1 || !back[0].valid() || qipu::game::write_pgn(back[0]) != qipu::game::write_pgn(g))
        std::abort();
    }
  }
  return 0;
}
