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
  // Callers that read other notations pass their words (qipu::all_piece_words()).
};

}  // namespace qipu::pgn
