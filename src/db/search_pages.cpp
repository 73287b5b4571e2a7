// Pages of search results (db/search.hpp): sort keys, paging, counting and position hits,
// shared by qipu search and qipu serve.
#include "qipu/db/search.hpp"

namespace qipu::db {

const std::map<std::string, std::string>& sort_columns() {
  static const std::map<std::string, std::string> m = {
      {"id", "g.id"},
      {"date", "g.date_sort"},
      {"white", "w.name"},
      {"black", "b.name"},
      {"white-elo", "g.white_elo"},
      {"black-elo", "g.black_elo"},
      {"plies", "g.plies"},
      {"eco", "g.eco"},
      {"event", "e.name"},
      {"elo", "(coalesce(g.white_elo, 0) + coalesce(g.black_elo, 0))"}};
  return m;
}

// Unused joins are dropped by SQLite.
GameQuery paged(const GameQuery& q) {
  GameQuery p;
  p.where =
      "g.id IN (SELECT g.id FROM game g LEFT JOIN player w ON w.id = g.white LEFT JOIN player b ON b.id = g.black "
      "LEFT JOIN event e ON e.id = g.event WHERE " +
      q.where + " ORDER BY " + q.order + " LIMIT ? OFFSET ?)";
  p.params = q.params;
  p.params.emplace_back(q.limit);
  p.params.emplace_back(q.offset);
  p.order = q.order;
  return p;
}

std::int64_t count_games(Connection& c, const GameQuery& q) {
  auto st = c.prepare("SELECT count(*) FROM game g WHERE " + q.where);
  int i = 1;
  for (const auto& p : q.params) std::visit([&](const auto& v) { st.bind(i++, v); }, p);
  return st.step() ? st.int64(0) : 0;
}

void restrict_to(Connection& c, const std::vector<std::int64_t>& ids, GameQuery& q) {
  c.exec("CREATE TEMP TABLE IF NOT EXISTS qipu_hits(id INTEGER PRIMARY KEY)");
  c.exec("DELETE FROM temp.qipu_hits");
  auto ins = c.prepare("INSERT INTO temp.qipu_hits(id) VALUES (?)");
  c.exec("BEGIN");
  for (auto id : ids) ins.bind(1, id).run();
  c.exec("COMMIT");
  q.where = "g.id IN (SELECT id FROM temp.qipu_hits)";
  q.params.clear();
}

}  // namespace qipu::db
