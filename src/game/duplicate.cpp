#include "qipu/game/duplicate.hpp"

#include <array>
#include <cstring>

namespace qipu::game {

namespace {

constexpr std::uint64_t FnvPrime = 0x100000001b3ULL;

std::uint64_t mix(std::uint64_t h, std::optional<std::string_view> v) {
  if (!v) return (h ^ 0x1ff) * FnvPrime;  // a step no byte value gives: absent differs from ""
  for (unsigned char c : *v) h = (h ^ c) * FnvPrime;
  return (h ^ 0x1fe) * FnvPrime;  // the end of a value, so that "ab","c" differs from "a","bc"
}

// The same for a long value (the moves), eight bytes a step: a byte a step cost more than
// the rest of the key. The shift brings each word's high bits down into the next steps.
std::uint64_t mix_long(std::uint64_t h, std::string_view v) {
  std::size_t i = 0;
  for (; i + 8 <= v.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, v.data() + i, 8);
    h = (h ^ w) * FnvPrime;
    h ^= h >> 29;
  }
  return mix(h, v.substr(i));
}

// The value, or nullopt when it is the roster's "unknown" default.
std::optional<std::string_view> known(std::optional<std::string_view> v, std::string_view unknown) {
  return v == unknown ? std::nullopt : v;
}

}  // namespace

GameIdentity identity_of(const GameRecord& rec, std::string_view moves) {
  GameIdentity g;
  const std::array<std::pair<std::string_view, std::optional<std::string_view>*>, 7> roster{{{"White", &g.white},
                                                                                             {"Black", &g.black},
                                                                                             {"Event", &g.event},
                                                                                             {"Site", &g.site},
                                                                                             {"Date", &g.date},
                                                                                             {"Round", &g.round},
                                                                                             {"Result", &g.result}}};
  for (const auto& [name, value] : rec.tags)
    for (const auto& [roster_name, field] : roster)
      if (name == roster_name && !*field) *field = std::string_view(value);
  if (rec.start_fen) g.start_fen = *rec.start_fen;
  g.movetext_result = rec.result;
  g.moves = moves;
  return g;
}

std::uint64_t duplicate_key(const GameIdentity& g) {
  auto result = g.result ? g.result : g.movetext_result.empty() ? std::nullopt : std::optional(g.movetext_result);
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (auto v : {g.white, g.black, g.event, g.site, g.round}) h = mix(h, known(v, "?"));
  h = mix(h, known(g.date, "????.??.??"));
  h = mix(h, known(result, "*"));
  h = mix(h, g.start_fen);
  return mix_long(h, g.moves);
}

}  // namespace qipu::game
