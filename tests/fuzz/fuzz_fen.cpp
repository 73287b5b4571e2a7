// libFuzzer target: the FEN reader. Whatever it accepts, it writes back in a form it
// reads again to the same position; nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "qipu/board/movegen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool chess960 : {false, true}) {
    auto r = qipu::Position::from_fen(text, chess960);
    if (!r) continue;
    std::string fen = r->fen();
    auto again = qipu::Position::from_fen(fen, r->chess960());
    if (!again || again->fen() != fen) std::abort();
    qipu::MoveList list;
    qipu::generate_legal(*r, list);
    for (qipu::Move m : list) {
      qipu::Position p = *r;
      p.play(m);
      if (p.key() != p.compute_key()) std::abort();
    }
  }
  return 0;
}
