#include "qipu/game/names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <utility>

namespace qipu::game {

namespace {

#include "names_hant.inc"  // TraditionalToSimplified: sorted (traditional, simplified) pairs

// Base letters of U+00C0-U+00FF (Latin-1) and U+0100-U+017F (Latin Extended-A), lower
// case; '*' marks the letters that fold to two (ß, æ, þ, ĳ, œ) and '=' those kept (×, ÷).
constexpr std::string_view Latin1Bases = "aaaaaa*ceeeeiiiidnooooo=ouuuuy**aaaaaa*ceeeeiiiidnooooo=ouuuuy*y";
constexpr std::string_view LatinExtABases =
    "aaaaaa"
    "cccccccc"
    "dddd"
    "eeeeeeeeee"
    "gggggggg"
    "hhhh"
    "iiiiiiiiii"
    "**"
    "jj"
    "kkk"
    "llllllllll"
    "nnnnnnnnn"
    "oooooo"
    "**"
    "rrrrrr"
    "ssssssss"
    "tttttt"
    "uuuuuuuuuuuu"
    "ww"
    "yyy"
    "zzzzzz"
    "s";
static_assert(Latin1Bases.size() == 64 && LatinExtABases.size() == 128);

// The two-letter folds of the '*' entries.
std::string_view two_letter_fold(char32_t c) {
  switch (c) {
    case 0xC6:
    case 0xE6: return "ae";
    case 0xDE:
    case 0xFE: return "th";
    case 0xDF: return "ss";
    case 0x132:
    case 0x133: return "ij";
    default: return "oe";  // Œ œ
  }
}

// One code point of UTF-8 at s[i]; its length in `len`, 0 when the bytes are not UTF-8.
char32_t decode(std::string_view s, std::size_t i, std::size_t& len) {
  auto b = static_cast<unsigned char>(s[i]);
  len = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return len = 0;
  char32_t c = len == 1 ? b : b & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) {
    auto cont = static_cast<unsigned char>(s[i + k]);
    if ((cont & 0xC0) != 0x80) return len = 0;
    c = c << 6 | (cont & 0x3F);
  }
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

// Lower case of Greek and Cyrillic capitals; other code points unchanged.
char32_t lower_greek_cyrillic(char32_t c) {
  if ((c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F)) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;  // Ѐ-Џ
  return c;
}

char32_t simplified(char32_t c) {
  auto it = std::lower_bound(std::begin(TraditionalToSimplified), std::end(TraditionalToSimplified), c,
                             [](const auto& pair, char32_t v) { return pair.first < v; });
  return it != std::end(TraditionalToSimplified) && it->first == c ? it->second : c;
}

// Appends the folded form of one code point.
void fold_code_point(std::string& out, char32_t c) {
  if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;  // full-width ASCII
  if (c == 0x3000) c = ' ';                     // ideographic space
  if (c < 0x80) {
    out += char(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return;
  }
  char base = c >= 0xC0 && c < 0x100 ? Latin1Bases[c - 0xC0] : c >= 0x100 && c < 0x180 ? LatinExtABases[c - 0x100] : 0;
  if (base == '*') return void(out += two_letter_fold(c));
  if (base != 0 && base != '=') return void(out += base);
  append_utf8(out, c >= 0x3400 ? simplified(c) : lower_greek_cyrillic(c));
}

bool is_cjk(char32_t c) { return (c >= 0x3400 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || c >= 0x20000; }

bool has_cjk(std::string_view s) {
  for (std::size_t i = 0, len = 0; i < s.size(); i += std::max<std::size_t>(len, 1))
    if (is_cjk(decode(s, i, len))) return true;
  return false;
}

bool is_separator(char c) { return c == ' ' || c == ',' || c == '.' || c == '-' || c == '\t' || c == '_'; }

// Particles that belong to a surname written after the given name ("Loek van Wely").
bool is_particle(std::string_view w) {
  static constexpr std::array<std::string_view, 13> particles = {"van", "von", "de", "der", "den", "da", "di",
                                                                 "del", "la",  "le", "dos", "du",  "ter"};
  return std::find(particles.begin(), particles.end(), w) != particles.end();
}

// The length of the first character of a word (UTF-8; a stray byte counts as one).
std::size_t first_char(std::string_view w) {
  std::size_t len = 0;
  if (!w.empty()) decode(w, 0, len);
  return std::max<std::size_t>(len, w.empty() ? 0 : 1);
}

// An initial: one letter, as a word of a folded name ("m" from "M.", "а" from "А.").
bool is_initial(std::string_view w) { return !w.empty() && first_char(w) == w.size(); }

// Does query word q match name word w? The same word, or an initial of the other.
bool word_matches(std::string_view q, std::string_view w, bool initials) {
  if (q == w) return true;
  if (!initials || q.empty() || w.empty() || q.substr(0, first_char(q)) != w.substr(0, first_char(w))) return false;
  return is_initial(q) || is_initial(w);
}

// A word of the query, with what matching asks of it worked out once.
struct QueryWord {
  std::string text;
  bool cjk, initial;
};

// Words mode: each query word is found among the name's words, each name word used
// once (`used`, one flag a word, all false on entry); exact matches are taken before
// initials so that "v anand" pairs v with v. At least one whole word must match:
// "anand" alone does not find "Grischuk,A".
template <class Words>
bool words_match(const std::vector<QueryWord>& query, std::string_view folded_name, const Words& words,
                 std::vector<char>& used) {
  bool whole = false, cjk = false;
  for (const auto& q : query) {
    if (q.cjk) {  // Chinese names are written without spaces
      if (folded_name.find(q.text) == std::string::npos) return false;
      cjk = true;
      continue;
    }
    bool found = false;
    for (bool initials : {false, true}) {
      for (std::size_t i = 0; i < words.size() && !found; ++i)
        if (!used[i] && word_matches(q.text, words[i], initials)) {
          used[i] = found = true;
          whole = whole || (!q.initial && q.text == words[i]);
        }
      if (found) break;
    }
    if (!found) return false;
  }
  return whole || cjk || std::all_of(query.begin(), query.end(), [](const QueryWord& q) { return q.initial; });
}

// The length of the ASCII bytes that start s.
std::size_t ascii_run(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && static_cast<unsigned char>(s[n]) < 0x80) ++n;
  return n;
}

// Appends the folded name (fold_name); ASCII bytes, nearly every name, without decoding.
void append_folded(std::string& out, std::string_view name) {
  for (std::size_t i = 0, len = 0; i < name.size(); i += len) {
    if (static_cast<unsigned char>(name[i]) < 0x80) {
      len = ascii_run(name.substr(i));  // in one go: a byte at a time cost a capacity test each
      std::size_t at = out.size();
      out.resize(at + len);
      std::transform(name.begin() + i, name.begin() + i + len, out.begin() + at, [](char c) {
        return c >= 'A' && c <= 'Z' ? char(c + 32) : c;
      });
      continue;
    }
    char32_t c = decode(name, i, len);
    if (len == 0) {  // not UTF-8: the byte as it is
      out += name[i];
      len = 1;
      continue;
    }
    fold_code_point(out, c);
  }
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
}

// Splits a folded name into words (see name_words): their letters one after another
// into `chars`, and each word's view into `words`. `chars` is reserved first and never
// grows past the name, so the views stay valid.
void split_words(std::string_view folded, std::string& chars, std::vector<std::string_view>& words) {
  chars.clear();
  chars.reserve(folded.size());
  words.clear();
  std::size_t start = 0;
  auto close = [&] {
    if (chars.size() > start) words.emplace_back(chars.data() + start, chars.size() - start);
    start = chars.size();
  };
  for (std::size_t i = 0; i < folded.size(); ++i) {
    char c = folded[i];
    // An apostrophe between letters joins them: O'Kelly, d'Amico are one word ("okelly").
    bool apostrophe = c == '\'' || c == '`';
    if (apostrophe && chars.size() > start && is_word_char(chars.back()) && i + 1 < folded.size() &&
        is_word_char(folded[i + 1]))
      continue;
    if (is_separator(c))
      close();
    else
      chars += c;
  }
  close();
}

// Whether a name may hold a whole word of the query: the query's words are pieces of the
// folded name unless an apostrophe joined two, so a name holding none of them cannot
// match a query that needs a whole word (words_match), and is not split at all.
bool may_hold_whole_word(const std::vector<QueryWord>& query, std::string_view folded) {
  // Not find_first_of("'`"), which calls memchr on the two for each byte of the name.
  if (std::any_of(folded.begin(), folded.end(), [](char c) { return c == '\'' || c == '`'; })) return true;
  return std::any_of(query.begin(), query.end(), [&](const QueryWord& q) {
    return !q.initial && !q.cjk && folded.find(q.text) != std::string_view::npos;
  });
}

// Buffers one thread reuses for every name it matches, so that matching allocates
// nothing once they have grown to the longest name.
struct Scratch {
  std::string folded, chars;            // the folded name; its words one after the other
  std::vector<std::string_view> words;  // into `chars`
  std::vector<char> used;
};

// A given name as a key holds it: whole when it is letters only, else just its first
// letter ("V2" and "Viswanathan:Borgialli" in real files are not names to group by).
std::string given_name(const std::string& word) {
  bool letters = std::all_of(word.begin(), word.end(),
                             [](char c) { return static_cast<unsigned char>(c) >= 0x80 || (c >= 'a' && c <= 'z'); });
  return letters ? word : word.substr(0, first_char(word));
}

}  // namespace

std::string fold_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  append_folded(out, name);
  return out;
}

std::vector<std::string> name_words(std::string_view folded) {
  std::string chars;
  std::vector<std::string_view> views;
  split_words(folded, chars, views);
  return {views.begin(), views.end()};
}

struct NameQuery::Impl {
  NameMatch mode;
  std::string folded;
  std::vector<QueryWord> words;
  bool needs_whole = false;  // no Chinese word, not all initials: a whole word must match
  std::optional<std::regex> re;
};

NameQuery::NameQuery(std::string_view query, NameMatch mode) : impl_(std::make_unique<Impl>()) {
  impl_->mode = mode;
  impl_->folded = fold_name(query);
  if (mode == NameMatch::Words)
    for (auto& w : name_words(impl_->folded)) {
      bool cjk = has_cjk(w), initial = is_initial(w);
      impl_->words.push_back({std::move(w), cjk, initial});
    }
  auto& words = impl_->words;
  impl_->needs_whole = std::none_of(words.begin(), words.end(), [](const QueryWord& w) { return w.cjk; }) &&
                       !std::all_of(words.begin(), words.end(), [](const QueryWord& w) { return w.initial; });
  if (mode == NameMatch::Regex) try {
      impl_->re.emplace(std::string(query), std::regex::ECMAScript | std::regex::icase);
    } catch (const std::regex_error&) {  // matches nothing; name_query_error says why
    }
}
NameQuery::~NameQuery() = default;
NameQuery::NameQuery(NameQuery&&) noexcept = default;
NameQuery& NameQuery::operator=(NameQuery&&) noexcept = default;

bool NameQuery::matches(std::string_view name) const {
  const Impl& q = *impl_;
  if (q.mode == NameMatch::Regex) return matches_by_full_fold(name);
  thread_local Scratch s;
  s.folded.clear();
  append_folded(s.folded, name);
  switch (q.mode) {
    case NameMatch::Words: {
      if (q.words.empty() || (q.needs_whole && !may_hold_whole_word(q.words, s.folded))) return false;
      split_words(s.folded, s.chars, s.words);
      s.used.assign(s.words.size(), 0);
      return words_match(q.words, s.folded, s.words, s.used);
    }
    case NameMatch::Substring: return s.folded.find(q.folded) != std::string::npos;
    default: return s.folded == q.folded;
  }
}

bool NameQuery::matches_by_full_fold(std::string_view name) const {
  const Impl& q = *impl_;
  switch (q.mode) {
    case NameMatch::Words: {
      if (q.words.empty()) return false;
      std::string folded = fold_name(name);
      auto words = name_words(folded);
      std::vector<char> used(words.size(), 0);
      return words_match(q.words, folded, words, used);
    }
    case NameMatch::Substring: return fold_name(name).find(q.folded) != std::string::npos;
    case NameMatch::Exact: return fold_name(name) == q.folded;
    case NameMatch::Regex: {
      if (!q.re) return false;
      // The name as written or folded: "Erdi" finds "Érdi", "É" still finds it too.
      std::string text(name);
      return std::regex_search(text, *q.re) || std::regex_search(fold_name(name), *q.re);
    }
  }
  return false;
}

bool name_matches(std::string_view name, std::string_view query, NameMatch mode) {
  return NameQuery(query, mode).matches(name);
}

std::string name_query_error(std::string_view query, NameMatch mode) {
  if (mode == NameMatch::Regex) try {
      std::regex re(std::string(query), std::regex::ECMAScript | std::regex::icase);
    } catch (const std::regex_error& e) { return "not a valid regular expression (" + std::string(e.what()) + ")"; }
  if (mode == NameMatch::Words && name_words(fold_name(query)).empty())
    return "a name needs at least one letter (\"" + std::string(query) + "\")";
  return {};
}

namespace {
NameKey key_of(std::string_view name) {
  std::string folded = fold_name(name);
  NameKey key;
  auto comma = folded.find(',');
  std::vector<std::string> words = name_words(folded);
  if (words.empty()) return key;
  auto join = [](auto first, auto last) {
    std::string s;
    for (auto it = first; it != last; ++it) s += (s.empty() ? "" : " ") + *it;
    return s;
  };
  if (comma != std::string::npos) {  // "Surname, Given" and "Surname,G"
    auto surname = name_words(std::string_view(folded).substr(0, comma));
    auto given = name_words(std::string_view(folded).substr(comma + 1));
    key.surname = join(surname.begin(), surname.end());
    if (!given.empty()) key.given = given_name(given.front());
    if (key.surname.empty()) key.surname = std::move(key.given), key.given.clear();
    return key;
  }
  if (words.size() == 1) return {words.front(), {}, {}};
  std::size_t end = words.size();
  while (end > 1 && is_initial(words[end - 1])) --end;
  if (end < words.size())
    return {join(words.begin(), words.begin() + std::ptrdiff_t(end)), words[end], {}};  // "Anand V."
  // "Given Surname", with the particles before the surname ("Loek van Wely").
  std::size_t start = words.size() - 1;
  while (start > 1 && is_particle(words[start - 1])) --start;
  return {join(words.begin() + std::ptrdiff_t(start), words.end()), given_name(words.front()), {}};
}

}  // namespace

NameKey name_key(std::string_view name) {
  NameKey key = key_of(name);
  std::string folded = fold_name(name);
  auto words = name_words(folded);
  if (words.size() == 2 && folded.find(',') == std::string::npos && !is_initial(words[0]) && !is_initial(words[1]))
    key.alternative = {words[0], given_name(words[1])};
  return key;
}

}  // namespace qipu::game
