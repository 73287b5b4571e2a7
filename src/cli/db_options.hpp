// The --db option shared by the database commands.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <string>

namespace qipu::cli {

inline void add_db_option(CLI::App& cmd, std::string& db) {
  cmd.add_option("--db", db, "Database file (default: $QIPU_DB, else ./qipu.db)");
}

// After a position query that had to replay games stored without the position index
// (import --no-position-index): says so, how many, and how to index them.
inline void note_replayed(const char* command, std::uint64_t replayed, const std::string& db) {
  if (replayed == 0) return;
  std::cerr << "qipu " << command << ": note: " << replayed
            << (replayed == 1 ? " game stored without the position index was"
                              : " games stored without the position index were")
            << " replayed to answer this, which is slower; to index them, "
               "export the database and import it into a new one: qipu export --db "
            << db << " -o all.pgn && qipu import --db NEW.db all.pgn\n";
}

}  // namespace qipu::cli
