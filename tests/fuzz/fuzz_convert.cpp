// libFuzzer target: the notation converter. A movetext in any notation is read and
// replayed; each valid game is written in every notation (the style varies with the
// input) and must read back to the same game, as English SAN shows it, when read as
// that notation (as `--from`: Hungarian H is a knight, Polish H a queen).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_util.hpp"
#include "qipu/game/writer.hpp"

namespace {

// One of the six styles (spaced or not, three castling forms), picked by `n`.
qipu::WriteStyle style_of(std::size_t n) {
  qipu::WriteStyle s;
  s.spaced = n % 2 == 1;
  s.castling = static_cast<qipu::WriteStyle::Castling>(n / 2 % 3);
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto games = fuzz::read_all(std::string(reinterpret_cast<const char*>(data), size));
  for (const auto& g : games) {
    if (!g.valid()) continue;
    const std::string english = qipu::game::write_pgn(g);
    std::size_t i = size;
    for (const auto& n : qipu::notations()) {
      qipu::game::WriterOptions w;
      w.notation = &n;
      w.style = style_of(i++);
      auto back = fuzz::read_all(qipu::game::write_pgn(g, w), &n);
      if (back.size() != 1 || !back[0].valid() || qipu::game::write_pgn(back[0]) != english) std::abort();
    }
  }
  return 0;
}
