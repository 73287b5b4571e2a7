#include "qipu/core/bitboard.hpp"

#include <string>

namespace qipu {

std::string square_name(Square s) {
  if (!is_ok(s)) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

// detail::tables is defined in a source made at build time (src/core/gen/make_attack_tables.cpp).

}  // namespace qipu
