// Temporary tables of ids, for queries that join lists made in C++ (search.cpp,
// search_pages.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "qipu/db/sqlite.hpp"

namespace qipu::db {

// Fills a new temporary table of the connection (id INTEGER PRIMARY KEY; allowed on a
// read-only connection) with ids and returns its name ("temp.qipu_ids_N").
// `x IN (SELECT id FROM it)` is then a search of it by rowid.
std::string id_table(Connection& c, const std::vector<std::int64_t>& ids);

}  // namespace qipu::db
