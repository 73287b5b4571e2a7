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
    t.add(rec.final_position.key(), std::move(op));
    t.max_ply_ = std::max(t.max_ply_, rec.mainline.size());
  };
  cb.input_done = [&](const game::InputReport& in) {
    if (!in.opened || !in.input_errors.empty()) error = "cannot read ECO file " + path;
  };
  game::run_pipeline(std::vector<std::string>{path}, o, cb);
  if (!error.empty()) throw DbError(error);
  if (t.count_ == 0) throw DbError("no ECO lines in " + path);
  t.fill_reachable(named_home_pawns);
  return t;
}

bool EcoTable::stored_in(Connection& db) const {
  auto rows = db.prepare("SELECT key, eco, name, variation, max_ply FROM eco_line");
  std::size_t n = 0;
  for (; rows.step(); ++n) {
    const Opening* op = find(Key(rows.int64(0)));
    if (!op || op->eco != rows.text(1) || op->name != rows.text(2) || op->variation != rows.text(3) ||
        rows.int64(4) != std::int64_t(max_ply_))
      return false;
  }
  return n == count_;  // keys are unique: as many rows, each one of the table's
}

void EcoTable::store(Connection& db) const {
  // Most imports use the ECO file the last one did: a one-game import took 28.6 ms when the
  // rows are only read and found the same, 34 when they were written again.
  if (stored_in(db)) return;
  Transaction t(db);
  db.exec("DELETE FROM eco_line");
  auto insert = db.prepare("INSERT INTO eco_line (key, eco, name, variation, max_ply) VALUES (?, ?, ?, ?, ?)");
  for (const Slot& s : slots_) {
    if (!s.opening) continue;
    const Opening& op = openings_[s.opening - 1];
    insert.bind(1, std::int64_t(s.key)).bind(2, op.eco).bind(3, op.name).bind(4, op.variation);
    insert.bind(5, std::int64_t(max_ply_)).run();
  }
  t.commit();
}

EcoTable::Stored EcoTable::classify_stored(Connection& db, const std::vector<Key>& keys) {
  Stored answer;
  // A database no qipu with eco_line has opened for writing lacks the table.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'eco_line'").step()) return answer;
  auto limit = db.prepare("SELECT max_ply FROM eco_line LIMIT 1");
  if (!limit.step()) return answer;
  answer.kept = true;
  std::size_t n = std::min(keys.size(), std::size_t(std::max<std::int64_t>(limit.int64(0), 0)) + 1);
  auto find = db.prepare("SELECT eco, name, variation FROM eco_line WHERE key = ?");
  for (std::size_t i = n; i-- > 0;) {  // the latest position first, as classify
    find.bind(1, std::int64_t(keys[i]));
    if (find.step()) {
      answer.opening = Opening{std::string(find.text(0)), std::string(find.text(1)), std::string(find.text(2))};
      break;
    }
    find.reset();
  }
  return answer;
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

void EcoTable::add(Key key, Opening op) {
  // The first line to name a position keeps it: files list the main name first.
  if (find(key)) return;
  if (2 * (count_ + 1) > slots_.size()) grow();
  std::size_t mask = slots_.size() - 1, i = std::size_t(key >> 32) & mask;
  while (slots_[i].opening) i = (i + 1) & mask;
  openings_.push_back(std::move(op));
  slots_[i] = {key, std::uint32_t(openings_.size())};
  ++count_;
  might_name_[bit_of(key) / 64] |= std::uint64_t{1} << (bit_of(key) % 64);
}

void EcoTable::grow() {
  std::vector<Slot> old(2 * slots_.size());
  old.swap(slots_);
  std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old)
    if (s.opening) {
      std::size_t i = std::size_t(s.key >> 32) & mask;
      while (slots_[i].opening) i = (i + 1) & mask;
      slots_[i] = s;
    }
}

const Opening* EcoTable::find(Key key) const {
  if (!might_name(key)) return nullptr;
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = std::size_t(key >> 32) & mask; slots_[i].opening; i = (i + 1) & mask)
    if (slots_[i].key == key) return &openings_[slots_[i].opening - 1];
  return nullptr;
}

const Opening* EcoTable::classify(const std::vector<Key>& keys) const {
  std::size_t n = std::min(keys.size(), max_ply_ + 1);
  for (std::size_t i = n; i-- > 0;)
    if (const Opening* o = find(keys[i])) return o;
  return nullptr;
}

const Opening* EcoTable::classify(const game::GameRecord& rec) const {
  Walk walk;
  Position pos = rec.start_position;
  for (auto node = rec.mainline.begin(); visit(walk, pos) && node != rec.mainline.end() && !node->move.is_none();
       ++node)
    pos.play(node->move);
  return opening(walk);
}

bool EcoTable::visit(Walk& walk, const Position& now) const {
  if (walk.done) return false;
  Key key = now.key();
  if (walk.ply > 0 && key == walk.last) return true;
  walk.last = key;
  if (might_name(key)) {
    if (walk.count == walk.held.size()) opening(walk);  // a long line (another ECO file): the held keys first
    walk.held[walk.count++] = key;
  } else if (!may_reach(now)) {
    walk.done = true;  // a pawn has left home that every named position still has there
  }
  walk.done |= ++walk.ply > max_ply_;  // no named line is longer: later positions need no look-up
  return !walk.done;
}

const Opening* EcoTable::opening(Walk& walk) const {
  for (std::size_t i = walk.count; i-- > 0;)
    if (const Opening* o = find(walk.held[i])) {
      walk.latest = o;
      break;
    }
  walk.count = 0;
  return walk.latest;
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
