#include "qipu/game/names.hpp"

#include <regex>

namespace qipu::game {

namespace {

char32_t fold_code_point(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
    return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;                                       // Ѐ-Џ
  if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return c | 1;        // Latin Extended-A pairs
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return c + (c & 1);  // odd capitals
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

// The last pattern compiled on this thread: a filter asks the same question of every game.
const std::regex& compiled(std::string_view pattern) {
  thread_local std::string last;
  thread_local std::regex re;
  if (last != pattern || last.empty()) {
    re = std::regex(std::string(pattern), std::regex::ECMAScript | std::regex::icase);
    last = pattern;
  }
  return re;
}

}  // namespace

// Decodes UTF-8 only where a byte starts a two-byte sequence of letters that can have
// case; everything else (CJK, invalid bytes) is copied as it is.
std::string fold_case(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      out += char(fold_code_point(b));
      ++i;
    } else if ((b & 0xE0) == 0xC0 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) {
      char32_t c = char32_t(b & 0x1F) << 6 | (static_cast<unsigned char>(s[i + 1]) & 0x3F);
      append_utf8(out, fold_code_point(c));
      i += 2;
    } else {
      out += char(b);
      ++i;
    }
  }
  return out;
}

bool name_matches(std::string_view name, std::string_view query, NameMatch mode) {
  switch (mode) {
    case NameMatch::exact: return fold_case(name) == fold_case(query);
    case NameMatch::regex: return std::regex_search(name.begin(), name.end(), compiled(query));
    default: return fold_case(name).find(fold_case(query)) != std::string::npos;
  }
}

std::string regex_problem(std::string_view pattern) {
  try {
    std::regex re(std::string(pattern), std::regex::ECMAScript);
  } catch (const std::regex_error& e) { return std::string("not a regular expression: ") + e.what(); }
  return {};
}

}  // namespace qipu::game
