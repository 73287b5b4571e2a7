// qipu: one file per subcommand; this file only wires them together.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "qipu/db/sqlite.hpp"

int main(int argc, char** argv) {
  // Named, so that usage lines say "qipu check", not the path the program was run by.
  CLI::App app{"qipu (棋谱) — check, store, search and convert chess games in PGN", "qipu"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");
  qipu::cli::setup_import(app);
  qipu::cli::setup_check(app);
  qipu::cli::setup_convert(app);
  qipu::cli::setup_filter(app);
  qipu::cli::setup_export(app);
  qipu::cli::setup_rejects(app);
  qipu::cli::setup_search(app);
  qipu::cli::setup_explore(app);
  qipu::cli::setup_stats(app);
  qipu::cli::setup_players(app);
  qipu::cli::setup_rating(app);
  qipu::cli::setup_eco(app);
  qipu::cli::setup_show(app);
  qipu::cli::setup_serve(app, {argv, argv + argc});
  qipu::cli::setup_perft(app);
  qipu::cli::setup_help(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A misspelt command or option is named, with the nearest known word, rather than
    // reported by what it made CLI11 miss ("A subcommand is required").
    std::string unknown = e.get_exit_code() == 0 ? "" : qipu::cli::unknown_word_message(app, argc, argv);
    if (!unknown.empty()) {
      std::cerr << unknown << "\n";
      return 2;
    }
    int code = app.exit(e);
    return code == 0 ? 0 : 2;  // usage errors exit 2, like every qipu error of that kind
  } catch (const qipu::db::DbError& e) {
    // Every database command fails the same way: say which command and why, exit 2.
    auto subs = app.get_subcommands();
    // SQLite's code, when it gave one, in brackets for scripts, as the problem codes are.
    std::cerr << "qipu " << (subs.empty() ? std::string() : subs.front()->get_name()) << ": " << e.what();
    if (e.code() != 0) std::cerr << " [" << e.code_name() << "]";
    std::cerr << "\n";
    return 2;
  }
  return qipu::cli::exit_code();
}
