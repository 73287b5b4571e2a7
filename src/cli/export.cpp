// qipu export [--db PATH] [--to NOTATION] [-o FILE] — games back out as PGN.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::cli {

namespace {

struct ExportOptions {
  std::string db, to = "en", style, castling = "O-O", output;
};

void run_export(const ExportOptions& o) {
  std::string path = db::database_path(o.db);
  std::ofstream file;
  if (!o.output.empty() && o.output != "-") {
    file.open(o.output, std::ios::binary);
    if (!file) {
      std::cerr << "qipu export: cannot write " << o.output << "\n";
      set_exit_code(2);
      return;
    }
  }
  std::ostream& out = file.is_open() ? static_cast<std::ostream&>(file) : std::cout;
  game::WriterOptions w;
  w.notation = find_notation(o.to);
  w.style.spaced = o.style.empty() ? w.notation->space_after_piece : o.style == "spaced";
  w.style.castling = o.castling == "0-0" ? WriteStyle::Castling::Zeros
                     : o.castling == "words" ? WriteStyle::Castling::Words
                                             : WriteStyle::Castling::Letters;
  try {
    auto conn = db::open_database(path, db::Connection::Mode::ReadOnly);
    db::for_each_game(*conn, {}, [&](game::GameRecord& rec) {
      out << game::write_pgn(rec, w);
      return bool(out);
    });
  } catch (const db::DbError& e) {
    std::cerr << "qipu export: " << e.what() << "\n";
    set_exit_code(2);
  }
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
  cmd->add_option("--style", o->style, "spaced (马 f3) or compact (马f3); default: the notation's own")
      ->check(CLI::IsMember({"spaced", "compact"}));
  cmd->add_option("--castling", o->castling, "O-O (default), 0-0 or words")->check(CLI::IsMember({"O-O", "0-0", "words"}));
  cmd->add_option("-o,--output", o->output, "Write to this file instead of standard output");
  cmd->footer("Every tag, comment, NAG and variation comes back as it was imported.\n"
              "Example: qipu export --to zh -o games-zh.pgn");
  cmd->callback([o] { run_export(*o); });
}

}  // namespace qipu::cli
