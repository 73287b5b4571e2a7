// People's and events' names as users type them: folding (case, accents, full-width
// letters, traditional Chinese characters), matching a query against a name by words,
// and the key that groups the spellings of one person ("Anand, Viswanathan", "Anand,V",
// "Viswanathan Anand", "Anand V.").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qipu::game {

// How a query matches a name. Words: every word of the query is a word of the name
// (an initial matches any word with that first letter, either way round; Chinese text
// matches anywhere in a run of Chinese characters, which has no spaces between words).
// Substring: the folded query occurs anywhere. Exact: the folded names are equal.
// Regex: an ECMAScript regular expression found in the folded name (the query is folded too).
enum class NameMatch { Words, Substring, Exact, Regex };

// The form names are compared in: lower case (Latin, Greek, Cyrillic), accents taken off
// (é → e, ł → l, ß → ss), full-width ASCII as ASCII ("Ｃａｒｌｓｅｎ" → "carlsen"), the
// ideographic space as a space, traditional Chinese characters as simplified (對 → 对).
// Invalid UTF-8 bytes are kept as they are.
std::string fold_name(std::string_view name);

// The words of a folded name: split at spaces, commas, full stops, hyphens and
// apostrophes ("o'kelly" is one word: "okelly").
std::vector<std::string> name_words(std::string_view folded);

// True when the name matches the query in this mode. An invalid regular expression
// matches nothing (check it first with name_query_error).
bool name_matches(std::string_view name, std::string_view query, NameMatch mode);

// What is wrong with a query in this mode (an invalid regular expression, a query with
// no letters in words mode), or an empty string.
std::string name_query_error(std::string_view query, NameMatch mode);

// A query prepared once for matching many names (folding and splitting done once).
class NameQuery {
 public:
  NameQuery(std::string_view query, NameMatch mode);
  ~NameQuery();
  NameQuery(NameQuery&&) noexcept;
  NameQuery& operator=(NameQuery&&) noexcept;
  // Folds the name into buffers each thread reuses and matches the words as views into
  // them: no allocation once the buffers have grown.
  [[nodiscard]] bool matches(std::string_view name) const;
  // The same answer through fold_name and name_words, allocating: the reference the
  // tests hold matches() to.
  [[nodiscard]] bool matches_by_full_fold(std::string_view name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The key that groups one person's spellings: the surname's words and the first given
// name, folded ("carlsen magnus"); a given name written as an initial gives its letter
// ("carlsen m"). Chinese names (no spaces) are their folded characters.
struct NameKey {
  std::string surname;  // "carlsen", "van wely"
  std::string given;    // "magnus", "m", or empty
  // For two words without a comma ("Ding Liren", "Magnus Carlsen"), the other reading:
  // surname first, as Chinese names are written. Empty otherwise.
  struct Reading {
    std::string surname, given;
  } alternative;
  [[nodiscard]] std::string text() const { return given.empty() ? surname : surname + " " + given; }
};
NameKey name_key(std::string_view name);

}  // namespace qipu::game
