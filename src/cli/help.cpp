// qipu --version, qipu help [COMMAND], and "did you mean" for misspelt words.
#include "cli/help.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "qipu/game/record.hpp"

namespace qipu::cli {

namespace {

// Levenshtein distance: the fewest single-character insertions, deletions and
// substitutions that turn a into b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({substitute, row[j] + 1, row[j - 1] + 1});
    }
  }
  return row[b.size()];
}

// The candidate nearest to `word`, or empty when none is near enough to be a slip
// (at most two edits, and fewer edits than the word has letters).
std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 3;
  for (const std::string& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (d < best_distance && d < word.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

// The word is shown as messages show tokens: control bytes escaped, cut to 40 characters.
std::string unknown(std::string_view where, std::string_view kind, std::string_view word,
                    const std::vector<std::string>& candidates) {
  std::string message = std::string(where) + ": unknown " + std::string(kind) + " '" + game::display_token(word) + "'";
  std::string guess = nearest(word, candidates);
  if (!guess.empty())
    message += "; did you mean '" + guess + "'?";
  else
    message += " (see qipu help)";
  return message;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

// Every spelling of every option of `app`, with its dashes: "--json", "-j".
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// An option word: "--name" or "--name=value" (the name is returned), or "-x".
// Lone "-" (standard input) and negative numbers are values, not options.
std::string_view option_word(std::string_view arg) {
  if (arg.size() > 2 && arg.substr(0, 2) == "--") return arg.substr(0, arg.find('='));
  if (arg.size() == 2 && arg[0] == '-' && std::isalpha(static_cast<unsigned char>(arg[1]))) return arg;
  return {};
}

// Formats help directly: App::help() of an app whose `help` command was given would
// explain `help` itself.
void run_help(const CLI::App& app, const std::string& command) {
  if (command.empty()) {
    std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
    return;
  }
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    if (s->get_name() == command) sub = s;
  if (sub == nullptr) {
    std::cerr << unknown("qipu help", "command", command, command_names(app)) << "\n";
    set_exit_code(2);
    return;
  }
  std::cout << sub->get_formatter()->make_help(sub, app.get_name() + " " + command, CLI::AppFormatMode::Normal);
}

}  // namespace

void setup_help(CLI::App& app) {
  app.set_version_flag("--version", std::string(version_text), "Print the version and exit");
  auto command = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("help", "Print the help of qipu, or of one command");
  cmd->add_option("command", *command, "The command to explain");
  cmd->callback([&app, command] { run_help(app, *command); });
}

std::string unknown_word_message(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* in = &app;
  std::string where = "qipu";
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;  // what follows is operands only
    std::string_view opt = option_word(arg);
    if (!opt.empty()) {
      if (in->get_option_no_throw(std::string(opt)) == nullptr) return unknown(where, "option", opt, option_names(*in));
      continue;
    }
    if (in != &app || arg.empty() || arg[0] == '-') continue;  // an operand or an option's value
    // The first plain word names the command (the program has no operands of its own).
    in = nullptr;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == arg) in = sub;
    if (in == nullptr) return unknown(where, "command", arg, command_names(app));
    where += " " + std::string(arg);
  }
  return {};
}

}  // namespace qipu::cli
