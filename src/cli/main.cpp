// qipu: one file per subcommand; this file only wires them together.
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/help.hpp"
#include "qipu/db/sqlite.hpp"

namespace {

using namespace qipu::cli;

struct Command {
  std::string_view name;
  void (*setup)(CLI::App& app, int argc, char** argv);
};

// A command whose setup needs no more than the app.
template <void (*Setup)(CLI::App&)>
void plain(CLI::App& app, int, char**) {
  Setup(app);
}

// In the order --help lists them. `help` lists and explains the others: it needs them all.
constexpr Command Commands[] = {
    {"import", plain<setup_import>},
    {"check", plain<setup_check>},
    {"convert", plain<setup_convert>},
    {"filter", plain<setup_filter>},
    {"export", plain<setup_export>},
    {"rejects", plain<setup_rejects>},
    {"search", plain<setup_search>},
    {"explore", plain<setup_explore>},
    {"stats", plain<setup_stats>},
    {"players", plain<setup_players>},
    {"rating", plain<setup_rating>},
    {"eco", plain<setup_eco>},
    {"show", plain<setup_show>},
    {"serve",  // qipu-serve is handed the command line
     [](CLI::App& app, int argc, char** argv) {
       setup_serve(app, {argv, argv + argc});
     }},
    {"perft", plain<setup_perft>},
    {"help", plain<setup_help>},
};

// The command argv[1] names, when one but `help`.
const Command* named_command(int argc, char** argv) {
  if (argc < 2) return nullptr;
  for (const Command& c : Commands)
    if (c.name == argv[1] && c.name != "help") return &c;
  return nullptr;
}

void set_up(CLI::App& app) {
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");
}

// Parses the command line and runs its command. With `retry`, a usage error or a call for
// help, found before any command ran, returns nothing instead of being reported, so that
// the caller can parse again with every command.
std::optional<int> parse_and_run(CLI::App& app, int argc, char** argv, bool retry) {
  bool started = false;  // the top app's parse-complete callback runs before the commands'
  app.parse_complete_callback([&started] { started = true; });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (retry && !started) return std::nullopt;
    // A misspelt command or option is named, with the nearest known word, rather than
    // reported by what it made CLI11 miss ("A subcommand is required").
    std::string unknown = e.get_exit_code() == 0 ? "" : unknown_word_message(app, argc, argv);
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
  return exit_code();
}

constexpr const char* About = "qipu (棋谱) — check, store, search and convert chess games in PGN";

}  // namespace

int main(int argc, char** argv) {
  // Only the command named, when it is the first word: setting up all sixteen took 1.3 ms of
  // a 10 ms explore (bench_import.md). Help and usage errors are left to the app with every
  // command, so that they read as they always did.
  if (const Command* command = named_command(argc, argv)) {
    CLI::App app{About, "qipu"};  // named, so that usage lines say "qipu check", not the path
    set_up(app);
    command->setup(app, argc, argv);
    if (auto code = parse_and_run(app, argc, argv, true)) return *code;
  }
  CLI::App app{About, "qipu"};
  set_up(app);
  for (const Command& c : Commands) c.setup(app, argc, argv);
  return *parse_and_run(app, argc, argv, false);
}
