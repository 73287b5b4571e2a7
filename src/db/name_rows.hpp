// The rows of a name table (player, event, site) whose names match a query, for players.cpp
// and search.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "qipu/db/sqlite.hpp"
#include "qipu/game/names.hpp"

namespace qipu::db {

inline std::vector<std::int64_t> matching_rows(Connection& db, std::string_view table, std::string_view query,
                                               game::NameMatch mode) {
  game::NameQuery q(query, mode);
  std::vector<std::int64_t> out;
  auto st = db.prepare("SELECT id, name FROM " + std::string(table) + " ORDER BY id");
  while (st.step())
    if (q.matches(st.text(1))) out.push_back(st.int64(0));
  return out;
}

}  // namespace qipu::db
