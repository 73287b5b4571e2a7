// What the tables of totals that import keeps with the games (summary.cpp,
// player_totals.cpp) share: whether a table of that name is ours, and the last game id,
// past which no rows can count.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "qipu/db/sqlite.hpp"

namespace qipu::db::kept {

// Whether the table exists with these columns: another program may own a table of that name.
inline bool has_columns(Connection& db, std::string_view table, std::initializer_list<std::string_view> columns) {
  std::string list;
  for (auto c : columns) list += std::string(list.empty() ? "'" : ", '") + std::string(c) + "'";
  auto st = db.prepare("SELECT count(*) FROM pragma_table_info(?) WHERE name IN (" + list + ")");
  st.bind(1, table);
  return st.step() && st.int64(0) == std::int64_t(columns.size());
}

inline std::int64_t last_game_id(Connection& db) {
  auto st = db.prepare("SELECT coalesce(max(id), 0) FROM game");
  return st.step() ? st.int64(0) : 0;
}

// The last game id a table's rows count, when they are read by read() (which returns that id,
// -1 without the table's mark): 0, after clear(), when the rows cannot be these games' (no
// mark, an id past the last game, or another program's table of that name).
template <class Read, class Clear>
std::int64_t read_trusted(Connection& db, bool ours, Read&& read, Clear&& clear) {
  std::int64_t through = -1;
  try {
    if (ours) through = read();
  } catch (const DbError&) {  // columns of those names, but not the values these rows hold
  }
  if (through >= 0 && through <= last_game_id(db)) return through;
  clear();
  return 0;
}

}  // namespace qipu::db::kept
