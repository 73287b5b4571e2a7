// Measures the move codec on PGN files and prints the tables it is built from. Not part
// of the build (bench/*.cpp are Google Benchmark sources); after building qipu:
//   g++ -std=c++20 -O2 -Iinclude -Igrammar -Isrc/db bench/tools/codec_stats.cpp build/libqipu_lib.a
//       -lsqlite3 -lz -lzstd -pthread -o /tmp/codec_stats
//   /tmp/codec_stats FILE...           RankCounts (src/db/codec.cpp) and bits a move
//   /tmp/codec_stats --learn FILE...   QuietTo and QuietFrom (src/db/move_order.cpp)
// The tables in the sources were made from ../shared/corpora/real/{chesscom,lichess-twic,tcec}.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "qipu/board/movegen.hpp"
#include "qipu/db/codec.hpp"
#include "qipu/game/pipeline.hpp"

using namespace qipu;

namespace {

void run(const std::vector<std::string>& files, const std::function<void(const game::GameRecord&)>& f) {
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    if (rec.valid()) f(rec);
  };
  game::PipelineOptions o;
  o.jobs = 1;
  game::run_pipeline(files, o, cb);
}

void rank_counts(const std::vector<std::string>& files) {
  std::vector<std::uint64_t> count(256, 0);
  std::uint64_t moves = 0, bytes = 0, games = 0;
  run(files, [&](const game::GameRecord& rec) {
    std::string symbols = db::move_symbols(rec.start_position, rec.mainline);
    for (unsigned char s : symbols) ++count[s];
    moves += symbols.size();
    bytes += db::pack_symbols(symbols).size();
    ++games;
  });
  std::size_t last = 0;
  double bits = 0;
  for (std::size_t s = 0; s < 256; ++s)
    if (count[s]) {
      last = s;
      bits -= double(count[s]) * std::log2(double(count[s]) / double(moves));
    }
  for (std::size_t s = 0; s <= last; ++s)
    std::printf("%llu,%s", (unsigned long long)count[s], s % 12 == 11 ? "\n" : " ");
  std::printf("\n%llu games, %llu moves; entropy %.3f bits a move; packed %.3f bits a move, %.1f bytes a game\n",
              (unsigned long long)games, (unsigned long long)moves, bits / double(moves),
              8.0 * double(bytes) / double(moves), double(bytes) / double(games));
}

// Quiet moves: for each piece type and square seen from the mover's side, how often a
// move to (and from) it is played against how often one is available (each position
// shares one unit among its quiet moves); printed as 8 ln(played / available).
void learn(const std::vector<std::string>& files) {
  static double avail[2][7][64], played[2][7][64];
  run(files, [&](const game::GameRecord& rec) {
    game::for_each_move(
        rec.start_position, rec.mainline, [&](const Position& pos, const game::MoveNode& node, const Position&) {
          auto quiet = [&](Move m) { return m.kind() == MoveKind::Normal && pos.piece_on(m.to()) == NoPiece; };
          auto add = [&](double(&t)[2][7][64], Move m, double w) {
            int p = type_of(pos.piece_on(m.from()));
            bool flip = pos.side_to_move() == Black;
            t[0][p][flip ? flip_rank(m.to()) : m.to()] += w;
            t[1][p][flip ? flip_rank(m.from()) : m.from()] += w;
          };
          if (node.move.is_null() || !quiet(node.move)) return;
          MoveList list;
          generate_legal(pos, list);
          int n = 0;
          for (Move m : list) n += quiet(m);
          for (Move m : list)
            if (quiet(m)) add(avail, m, 1.0 / n);
          add(played, node.move, 1.0);
        });
  });
  for (int t = 0; t < 2; ++t) {
    std::printf("constexpr std::int8_t %s[7][64] = {\n    {},\n", t == 0 ? "QuietTo" : "QuietFrom");
    for (int p = 1; p <= 6; ++p) {
      std::printf("    {");
      for (int s = 0; s < 64; ++s) {
        double v = std::clamp(8 * std::log((played[t][p][s] + 1) / (avail[t][p][s] + 1)), -120.0, 120.0);
        std::printf("%ld%s", std::lround(v), s == 63 ? "},\n" : s % 16 == 15 ? ",\n     " : ", ");
      }
    }
    std::printf("};\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool learning = argc > 1 && std::strcmp(argv[1], "--learn") == 0;
  std::vector<std::string> files(argv + 1 + learning, argv + argc);
  if (learning)
    learn(files);
  else
    rank_counts(files);
}
