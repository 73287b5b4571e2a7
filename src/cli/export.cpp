// qipu export [--db PATH] [--to NOTATION] [-o FILE] — games back out as PGN.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::cli {

namespace {

struct ExportOptions {
  std::string db, to = "en", output;
  StyleOptions style;
  bool skip_damaged = false;
};

void run_export(const ExportOptions& o) {
  std::string path = db::database_path(o.db);
  Output output("export");
  if (!output.open(o.output, {}, path)) return;
  std::ostream& out = output.stream();
  game::WriterOptions w = writer_options(*find_notation(o.to), o.style);
  auto conn = db::open_database(path, db::Connection::Mode::ReadOnly);
  db::OnDamaged skip;
  if (o.skip_damaged)
    skip = [](std::int64_t id, const std::string& why) {
      std::cerr << "qipu export: skipped game " << id << ": it is damaged (" << why << ")\n";
      set_exit_code(1);  // the rest is written, but not every game: like an invalid game in check
    };
  db::for_each_game(
      *conn, {},
      [&](game::GameRecord& rec) {
        out << game::write_pgn(rec, w);
        return bool(out);
      },
      skip);
  output.finish();
}

}  // namespace

void setup_export(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  auto* cmd = app.add_subcommand("export", "Write the database's games as PGN, in any notation");
  add_db_option(*cmd, o->db);
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  cmd->add_option("--to", o->to, "Notation of the moves: en (default), zh, zh-Hant, fan, de, fr, …")
      ->check(CLI::IsMember(codes));
  add_style_options(*cmd, o->style);
  cmd->add_option("-o,--output", o->output, "Write to this file instead of standard output");
  cmd->add_flag(
      "--skip-damaged", o->skip_damaged,
      "Write the games that decode and name each damaged one on stderr (exit 1), rather than stop at the first "
      "(exit 2)");
  cmd->footer(
      "Every tag, comment, NAG and variation comes back as it was imported.\n"
      "Example: qipu export --to zh -o games-zh.pgn");
  cmd->callback([o] { run_export(*o); });
}

}  // namespace qipu::cli
