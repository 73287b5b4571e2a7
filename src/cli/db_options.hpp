// The --db option shared by the database commands.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace qipu::cli {

inline void add_db_option(CLI::App& cmd, std::string& db) {
  cmd.add_option("--db", db, "Database file (default: $QIPU_DB, else ./qipu.db)");
}

}  // namespace qipu::cli
