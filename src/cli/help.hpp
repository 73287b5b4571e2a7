// What the program says about itself: its version, `qipu help [COMMAND]`, and a
// suggestion when a command or option is misspelt.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/version.hpp"

namespace qipu::cli {

// Adds `--version` and the `help [COMMAND]` command.
void setup_help(CLI::App& app);

// After a failed parse: the message for the first command or option in argv that the
// app does not know ("qipu: unknown command 'chek'; did you mean 'check'?"), or an
// empty string when every word is known (the error lies elsewhere).
std::string unknown_word_message(const CLI::App& app, int argc, const char* const* argv);

}  // namespace qipu::cli
