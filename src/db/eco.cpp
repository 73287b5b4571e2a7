#include "qipu/db/eco.hpp"

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
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    if (!rec.valid() || rec.tag("ECO").empty()) return;
    Opening op{std::string(rec.tag("ECO")), std::string(rec.tag("Opening")), std::string(rec.tag("Variation"))};
    // The first line to name a position keeps it: files list the main name first.
    t.by_key_.try_emplace(rec.final_position.key(), std::move(op));
    t.max_ply_ = std::max(t.max_ply_, rec.mainline.size());
  };
  cb.input_done = [&](const game::InputReport& in) {
    if (!in.opened || !in.input_errors.empty()) error = "cannot read ECO file " + path;
  };
  game::run_pipeline(std::vector<std::string>{path}, o, cb);
  if (!error.empty()) throw DbError(error);
  if (t.by_key_.empty()) throw DbError("no ECO lines in " + path);
  return t;
}

const Opening* EcoTable::find(Key key) const {
  auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : &it->second;
}

const Opening* EcoTable::classify(const std::vector<Key>& keys) const {
  std::size_t n = std::min(keys.size(), max_ply_ + 1);
  for (std::size_t i = n; i-- > 0;)
    if (const Opening* o = find(keys[i])) return o;
  return nullptr;
}

EncodedGame finish_classified(game::GameRecord& rec, const EcoTable* table) {
  EncodedGame enc = finish_encoding(rec);
  if (const Opening* op = table ? table->classify(enc.keys) : nullptr) {
    enc.eco = op->eco;
    enc.opening = op->name;
    enc.variation = op->variation;
  }
  return enc;
}

}  // namespace qipu::db
