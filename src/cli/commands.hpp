// Each subcommand registers itself on the app and records the exit code it wants.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace qipu::cli {

void setup_perft(CLI::App& app);
void setup_check(CLI::App& app);
void setup_convert(CLI::App& app);
void setup_import(CLI::App& app);
void setup_export(CLI::App& app);
void setup_rejects(CLI::App& app);
void setup_search(CLI::App& app);
void setup_explore(CLI::App& app);
void setup_eco(CLI::App& app);
void setup_stats(CLI::App& app);
void setup_players(CLI::App& app);
void setup_rating(CLI::App& app);
void setup_show(CLI::App& app);
// command_line: argv, which qipu hands on to qipu-serve (serve.hpp).
void setup_serve(CLI::App& app, std::vector<std::string> command_line);
void setup_filter(CLI::App& app);

// Exit codes: 0 success, 1 invalid input found, 2 usage or I/O problems.
void set_exit_code(int code);
int exit_code();

}  // namespace qipu::cli
