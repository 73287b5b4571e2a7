// qipu players [--name X] — the people in the database: each identity with its
// spellings, games, Elo range and years; `players merge A B` and `players split NAME`
// correct the grouping, kept in the database by spelling.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "qipu/db/players.hpp"
#include "qipu/db/search.hpp"

namespace qipu::cli {

namespace {

struct PlayersOptions {
  std::string db, name, lang, format = "table";
  bool substring = false, corrections = false;
  std::size_t limit = 50;
  std::string merge_a, merge_b, split;
};

std::string range_text(int lo, int hi) {
  if (lo == 0) return "";
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + "–" + std::to_string(hi);
}

// One identity as a row of the table: its spellings last, each with its games.
std::vector<std::string> identity_row(const db::PlayerIdentity& id) {
  std::string spellings;
  for (std::size_t i = 0; i < id.spellings.size(); ++i) {
    if (i) spellings += "; ";
    spellings += shown(id.spellings[i].name) + " (" + std::to_string(id.spellings[i].games) + ")";
  }
  return {shown(id.name),
          shown(id.fide_id),
          std::to_string(id.games),
          id.min_elo ? range_text(*id.min_elo, *id.max_elo) : "",
          range_text(id.first_year, id.last_year),
          spellings};
}

// A spelling quoted for a POSIX shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The stored merges and splits as the commands that make them, to carry them to
// another database (they live in the database, not in the exported PGN).
void print_corrections(std::ostream& out, db::Connection& c) {
  for (const auto& [a, b] : db::player_corrections(c))
    out << (b.empty() ? "qipu players split " + quoted(a) : "qipu players merge " + quoted(a) + " " + quoted(b))
        << "\n";
}

void list_players(std::ostream& out, const PlayersOptions& o) {
  auto c = db::open_for_search(db::database_path(o.db));
  if (o.corrections) return print_corrections(out, *c);
  auto mode = o.substring ? game::NameMatch::Substring : game::NameMatch::Words;
  if (!o.name.empty())
    if (auto e = game::name_query_error(o.name, mode); !e.empty()) {
      std::cerr << "qipu players: --name: " << e << "\n";
      return set_exit_code(2);
    }
  auto ids = db::load_identities(*c);
  std::vector<const db::PlayerIdentity*> shown_ids;
  if (o.name.empty())
    for (const auto& id : ids.list) shown_ids.push_back(&id);
  else
    shown_ids = db::find_identities(ids, o.name, mode);
  Lang lang = resolve_lang(o.lang);
  auto w = [&](std::string_view english) { return std::string(word(lang, english)); };
  Table table({{w("player")},
               {w("FIDE id"), 0, 12, true},
               {w("games"), 0, 10, true},
               {w("Elo"), 0, 12, true},
               {w("years")},
               {w("spellings"), 0, 200}});
  std::size_t n = o.limit == 0 ? shown_ids.size() : std::min(o.limit, shown_ids.size());
  for (std::size_t i = 0; i < n; ++i) table.add(identity_row(*shown_ids[i]));
  if (o.format == "tsv")
    table.print_tsv(out);
  else
    table.print(out);
  if (n < shown_ids.size())
    std::cerr << "qipu players: " << shown_ids.size() - n << " more not shown (--limit 0 lists all)\n";
}

// merge and split write to the database: it must exist already.
std::unique_ptr<db::Connection> open_for_writing(const std::string& option, const char* what) {
  std::string path = db::database_path(option);
  if (!std::filesystem::exists(path)) {
    std::cerr << "qipu players " << what << ": no database at " << shown(path) << "\n";
    set_exit_code(2);
    return nullptr;
  }
  return db::open_database(path, db::Connection::Mode::ReadWrite);
}

void run_players(const PlayersOptions& o) {
  Output output("players");
  if (!output.open("")) return;
  list_players(output.stream(), o);
  output.finish();
}

// A confirmation on standard output, written through Output (every write checked).
void say(const std::string& text) {
  Output output("players");
  if (!output.open("")) return;
  output.stream() << text;
  output.finish();
}

void run_merge(const PlayersOptions& o) {
  auto c = open_for_writing(o.db, "merge");
  if (!c) return;
  if (auto e = db::merge_players(*c, o.merge_a, o.merge_b); !e.empty()) {
    std::cerr << "qipu players merge: " << e << "\n";
    return set_exit_code(2);
  }
  say("merged \"" + shown(o.merge_a) + "\" and \"" + shown(o.merge_b) + "\"\n");
}

void run_split(const PlayersOptions& o) {
  auto c = open_for_writing(o.db, "split");
  if (!c) return;
  if (auto e = db::split_player(*c, o.split); !e.empty()) {
    std::cerr << "qipu players split: " << e << "\n";
    return set_exit_code(2);
  }
  say("\"" + shown(o.split) + "\" is now a player of its own\n");
}

}  // namespace

void setup_players(CLI::App& app) {
  auto o = std::make_shared<PlayersOptions>();
  auto* cmd = app.add_subcommand(
      "players", "List players as people: their spellings, games, Elo range and years; merge or split them");
  add_db_option(*cmd, o->db);
  cmd->add_option("--name", o->name, "Only players with a spelling that has these words (\"anand\", \"Carlsen M\")");
  cmd->add_flag("--substring", o->substring, "--name matches anywhere in a spelling, not by words");
  cmd->add_flag("--corrections", o->corrections,
                "Print the stored merges and splits as qipu commands, to apply them to another database");
  cmd->add_option("--limit", o->limit, "At most this many players, most games first (default 50; 0 for all)");
  add_lang_option(*cmd, o->lang);
  cmd->add_option("--format", o->format, "table (default: aligned columns) or tsv (tab-separated, for scripts)")
      ->check(CLI::IsMember({"table", "tsv"}));
  auto* merge = cmd->add_subcommand("merge", "Make two spellings one person (kept in the database)");
  add_db_option(*merge, o->db);
  merge->add_option("a", o->merge_a, "A spelling, as `qipu players` lists it")->required();
  merge->add_option("b", o->merge_b, "The other spelling")->required();
  merge->callback([o] { run_merge(*o); });
  auto* split = cmd->add_subcommand("split", "Take a spelling out of the person it was grouped with");
  add_db_option(*split, o->db);
  split->add_option("name", o->split, "The spelling, as `qipu players` lists it")->required();
  split->callback([o] { run_split(*o); });
  cmd->footer(
      "Spellings are one person when their games give the same FIDE id (WhiteFideId, BlackFideId), else when\n"
      "their names agree: \"Anand, Viswanathan\", \"Anand,V\", \"Viswanathan Anand\" and \"Anand V.\" are one;\n"
      "an initial joins the only full given name it can stand for. Merges and splits are kept by spelling,\n"
      "so they survive importing the games again; --corrections prints them as commands for another database.\n"
      "Examples: qipu players --name anand\n"
      "          qipu players --name 丁立人 --lang zh   (Chinese headings)\n"
      "          qipu players merge \"Kasparov, Gary\" \"Kasparov, Garry\"\n"
      "          qipu players split \"Sokolov, A\"");
  cmd->callback([o, merge, split] {
    if (!merge->parsed() && !split->parsed()) run_players(*o);
  });
}

}  // namespace qipu::cli
