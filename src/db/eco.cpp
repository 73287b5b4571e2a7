#include "qipu/db/eco.hpp"

#include <array>

#include "qipu/db/sqlite.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/pipeline.hpp"

namespace qipu::db {

EcoTable EcoTable::load(const std::string& path) {
  EcoTable t;
  std::string error;
  game::PipelineOptions o;
  o.jobs = 1;  // a few thousand short lines: threads would cost more than they save
  game::PipelineCallbacks cb;
  std::vector<unsigned> named_home_pawns;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    if (!rec.valid() || rec.tag("ECO").empty()) return;
    named_home_pawns.push_back(home_pawns(rec.final_position));
    Opening op{std::string(rec.tag("ECO")), std::string(rec.tag("Opening")), std::string(rec.tag("Variation"))};
    // The first line to name a position keeps it: files list the main name first.
    Key key = rec.final_position.key();
    t.by_key_.try_emplace(key, std::move(op));
    t.might_name_[bit_of(key) / 64] |= std::uint64_t{1} << (bit_of(key) % 64);
    t.max_ply_ = std::max(t.max_ply_, rec.mainline.size());
  };
  cb.input_done = [&](const game::InputReport& in) {
    if (!in.opened || !in.input_errors.empty()) error = "cannot read ECO file " + path;
  };
  game::run_pipeline(std::vector<std::string>{path}, o, cb);
  if (!error.empty()) throw DbError(error);
  if (t.by_key_.empty()) throw DbError("no ECO lines in " + path);
  t.fill_reachable(named_home_pawns);
  return t;
}

unsigned EcoTable::home_pawns(const Position& now) {
  return unsigned(now.pieces(White, Pawn) >> 8 & 0xff) | unsigned(now.pieces(Black, Pawn) >> 40 & 0xff00);
}

bool EcoTable::may_reach(const Position& now) const {
  unsigned m = home_pawns(now);
  return reachable_[m / 64] >> (m % 64) & 1;
}

void EcoTable::fill_reachable(const std::vector<unsigned>& named_home_pawns) {
  // Each set of home pawns, then every superset of one (a bit at a time, over the 16 bits).
  std::vector<bool> may(reachable_.size() * 64);
  for (unsigned m : named_home_pawns) may[m] = true;
  for (unsigned bit = 1; bit < may.size(); bit <<= 1)
    for (unsigned m = 0; m < may.size(); ++m)
      if (m & bit && may[m ^ bit]) may[m] = true;
  for (unsigned m = 0; m < may.size(); ++m)
    if (may[m]) reachable_[m / 64] |= std::uint64_t{1} << (m % 64);
}

const Opening* EcoTable::find(Key key) const {
  if (!(might_name_[bit_of(key) / 64] >> (bit_of(key) % 64) & 1)) return nullptr;
  auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : &it->second;
}

const Opening* EcoTable::classify(const std::vector<Key>& keys) const {
  std::size_t n = std::min(keys.size(), max_ply_ + 1);
  for (std::size_t i = n; i-- > 0;)
    if (const Opening* o = find(keys[i])) return o;
  return nullptr;
}

const Opening* EcoTable::classify(const game::GameRecord& rec) const {
  Position pos = rec.start_position;
  const Opening* latest = find(pos.key());
  std::size_t ply = 0;
  for (const game::MoveNode& node : rec.mainline) {
    if (node.move.is_none() || ++ply > max_ply_) break;
    pos.play(node.move);
    if (const Opening* o = find(pos.key()))
      latest = o;
    else if (!may_reach(pos))
      break;  // a pawn has left home that every named position still has there
  }
  return latest;
}

extern const char* const kEcoChineseNames;  // src/db/eco_zh.tsv, compiled in

namespace {

// How names are matched: ASCII lower case, without the words that say what kind of line
// it is ("Petrov's defence", "Petrov" and "petrov" are one key).
std::string match_key(std::string_view name) {
  std::string key;
  for (char c : name) key += c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
  constexpr std::array<std::string_view, 8> kinds = {" defence", " defense",   " opening", " game",
                                                     " attack",  " variation", " system",  "'s"};
  for (bool cut = true; cut;) {
    cut = false;
    for (auto kind : kinds)
      if (key.size() > kind.size() && key.ends_with(kind)) {
        key.resize(key.size() - kind.size());
        cut = true;
      }
  }
  return key;
}

// The name a line belongs to: the part before ",", " (" , ";" or " with ".
std::string_view family_of(std::string_view name) {
  std::size_t end = name.size();
  for (std::string_view sep : {",", " (", ";", " with "}) end = std::min(end, name.find(sep));
  return name.substr(0, end);
}

struct Names {
  std::string_view simplified, traditional;
  [[nodiscard]] std::string_view in(Script s) const { return s == Script::Simplified ? simplified : traditional; }
};

struct ChineseTable {
  std::unordered_map<std::string, Names> openings;
  std::unordered_map<std::string, Names> variations;  // opening key, '|', variation key
};

ChineseTable parse_chinese_table(std::string_view text) {
  ChineseTable t;
  while (!text.empty()) {
    std::string_view line = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), line.size() + 1));
    if (line.empty() || line[0] == '#') continue;
    std::array<std::string_view, 4> f;
    for (auto& field : f) {
      field = line.substr(0, line.find('\t'));
      line.remove_prefix(std::min(line.size(), field.size() + 1));
    }
    Names n{f[2], f[3]};
    if (f[1].empty())
      t.openings.emplace(match_key(f[0]), n);
    else
      t.variations.emplace(match_key(f[0]) + "|" + match_key(f[1]), n);
  }
  return t;
}

const ChineseTable& chinese_table() {
  static const ChineseTable t = parse_chinese_table(kEcoChineseNames);
  return t;
}

}  // namespace

std::optional<ChineseOpening> chinese_opening(std::string_view opening, std::string_view variation, Script script) {
  const ChineseTable& t = chinese_table();
  std::string key = match_key(opening);
  auto it = t.openings.find(key);
  if (it == t.openings.end()) {
    // "Sicilian, Chekhover variation": the family, and what follows it as the variation.
    std::string_view family = family_of(opening);
    if (variation.empty() && opening.size() > family.size() + 2 && opening[family.size()] == ',')
      variation = opening.substr(family.size() + 2);
    key = match_key(family);
    it = t.openings.find(key);
    if (it == t.openings.end()) return std::nullopt;
  }
  ChineseOpening out{it->second.in(script), {}};
  auto v = t.variations.find(key + "|" + match_key(family_of(variation)));
  if (!variation.empty() && v != t.variations.end()) out.variation = v->second.in(script);
  return out;
}

}  // namespace qipu::db
