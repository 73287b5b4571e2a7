// Column headings of the player, rating and team tables, in the language of QIPU_LANG or
// the locale (cli/lang.hpp: the words are in the program's one word table).
#pragma once

#include <string>
#include <string_view>

#include "cli/lang.hpp"

namespace qipu::cli {

// The heading for an English word, in the default language.
inline std::string heading(std::string_view english) { return std::string(word(resolve_lang(""), english)); }

}  // namespace qipu::cli
