// Runtime words the move-token rule accepts, so other notations (Chinese
// piece characters, figurines) plug in without touching the grammar.
#pragma once

#include <string>
#include <vector>

namespace qipu::pgn {

struct TokenWords {
  // Words that may begin a move token as the piece (UTF-8, any length).
  // Defaults: the ASCII letters K Q R B N P.
  std::vector<std::string> pieces{"K", "Q", "R", "B", "N", "P"};
  // Whether spaces may stand between a piece word and the rest of the move
  // ("马 f3"). The token is then handed to the visitor unchanged, space included.
  bool space_after_piece = true;
  // Whether to read the forms Chinese sources write as well ("皇后 h5", "后 吃f7", "ｅ４",
  // "a8升后"): their words are folded to SAN by the one word list qipu::read_move uses.
  // Full-width move numbers (１２．) and list punctuation between moves (，；、) are read
  // either way.
  bool chinese_forms = false;
  // Callers that read other notations pass their words (qipu::all_piece_words()).
};

}  // namespace qipu::pgn
