// Pages of search results (db/search.hpp): sort keys, paging, counting and position hits,
// shared by qipu search and qipu serve.
#include "qipu/db/search.hpp"

#include <algorithm>

#include "id_table.hpp"

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

// A few hundred rows to a statement (EXPLAIN of a query on it: USING ROWID SEARCH … FOR
// IN-OPERATOR). A row a statement had taken 177 of the 320 ms of `search --white Carlsen
// --black Anand --count` at 9 M games, 324,156 ids in one table.
std::string id_table(Connection& c, const std::vector<std::int64_t>& ids) {
  constexpr std::size_t Rows = 250;
  std::int64_t made = 0;
  {
    auto n = c.prepare("SELECT count(*) FROM temp.sqlite_master WHERE name LIKE 'qipu_ids_%'");
    if (n.step()) made = n.int64(0);
  }
  std::string name = "temp.qipu_ids_" + std::to_string(made + 1);
  c.exec("CREATE TABLE " + name + "(id INTEGER PRIMARY KEY)");
  std::string values = "(?)";
  for (std::size_t i = 1; i < Rows; ++i) values += ", (?)";
  auto many = c.prepare("INSERT INTO " + name + "(id) VALUES " + values);
  auto one = c.prepare("INSERT INTO " + name + "(id) VALUES (?)");
  c.exec("BEGIN");
  std::size_t i = 0;
  for (; i + Rows <= ids.size(); i += Rows) {
    for (std::size_t k = 0; k < Rows; ++k) many.bind(int(k + 1), ids[i + k]);
    many.run();
  }
  for (; i < ids.size(); ++i) one.bind(1, ids[i]).run();
  c.exec("COMMIT");
  return name;
}

namespace {

// The temporary table that is the query's only condition (games_condition's form, alone or
// after add_conditions' "1 AND"), if it is.
std::optional<std::string> sole_id_table(const GameQuery& q) {
  constexpr std::string_view Head = "g.id IN (SELECT id FROM temp.qipu_ids_", After = "1 AND (";
  std::string_view w = q.where;
  if (w.starts_with(After) && w.ends_with(")")) w = w.substr(After.size(), w.size() - After.size() - 1);
  if (!q.params.empty() || !w.starts_with(Head) || !w.ends_with(")")) return std::nullopt;
  std::string_view number = w.substr(Head.size(), w.size() - Head.size() - 1);
  if (number.empty() || !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return "temp.qipu_ids_" + std::string(number);
}

}  // namespace

std::int64_t count_games(Connection& c, const GameQuery& q) {
  auto table = sole_id_table(q);
  auto st = c.prepare(table ? "SELECT count(*) FROM " + *table : "SELECT count(*) FROM game g WHERE " + q.where);
  bind_params(st, q);
  return st.step() ? st.int64(0) : 0;
}

std::string games_condition(Connection& c, const std::vector<std::int64_t>& ids) {
  return "g.id IN (SELECT id FROM " + id_table(c, ids) + ")";
}

void restrict_to(Connection& c, const std::vector<std::int64_t>& ids, GameQuery& q) {
  q.where = games_condition(c, ids);
  q.params.clear();
}

}  // namespace qipu::db
