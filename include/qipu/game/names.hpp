// Matching people's and events' names as users type them. A minimal version (case-folded
// substring, whole name, regular expression); names are folded the same way in search's
// SQL (db::register_search_functions) and in filter's in-memory criteria.
#pragma once

#include <string>
#include <string_view>

namespace qipu::game {

enum class NameMatch {
  words,      // for now the same as substring
  substring,  // the query anywhere in the name, case-insensitive
  exact,      // the whole name, case-insensitive
  regex,      // an ECMAScript regular expression found anywhere, case-insensitive
};

// Lower case for ASCII, Latin, Greek and Cyrillic letters; other bytes as they are.
std::string fold_case(std::string_view s);

bool name_matches(std::string_view name, std::string_view query, NameMatch mode);

// What is wrong with a regular expression, or an empty string.
std::string regex_problem(std::string_view pattern);

}  // namespace qipu::game
