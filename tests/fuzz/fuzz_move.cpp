// libFuzzer target: one move token in any notation against a few positions. Every
// reading that resolves must name a legal move whose written forms read back to it.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "qipu/board/movegen.hpp"
#include "qipu/notation/notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 4",
      "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
  };
  if (size == 0) return 0;
  auto pos = qipu::Position::from_fen(fens[data[0] % 5]).value();
  std::string_view token(reinterpret_cast<const char*>(data + 1), size - 1);
  auto readings = qipu::read_move(token);
  if (!readings) return 0;
  for (const auto& r : readings->readings) {
    auto res = qipu::resolve_san(pos, r.san);
    if (!res || res->is_null()) continue;
    if (!pos.is_legal(*res)) std::abort();
    for (const auto& n : qipu::notations()) {
      std::string written = qipu::write_move(pos, *res, n, {});
      auto back = qipu::read_move(written, &n);
      if (!back) std::abort();
      bool found = false;
      for (const auto& b : back->readings) {
        auto again = qipu::resolve_san(pos, b.san);
        found |= again && *again == *res;
      }
      if (!found) std::abort();
    }
  }
  return 0;
}
