// qipu rejects [--db PATH] [--pgn] [-o FILE] — the games import could not replay.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/store.hpp"

namespace qipu::cli {

namespace {

struct RejectsOptions {
  std::string db, output;
  bool pgn = false;
};

void run_rejects(const RejectsOptions& o) {
  std::string path = db::database_path(o.db);
  Output output("rejects");
  if (!output.open(o.output, {}, path)) return;
  std::ostream& out = output.stream();
  auto conn = db::open_database(path, db::Connection::Mode::ReadOnly);
  const char* encoding = db::reject_encoding_column(*conn) ? "r.encoding" : "NULL";
  auto st =
      conn->prepare(std::string("SELECT r.id, s.path, r.offset, r.game_index, r.white, r.black, r.text, r.errors, ") +
                    encoding + " FROM reject r LEFT JOIN source s ON s.id = r.source ORDER BY r.id");
  std::uint64_t n = 0;
  while (st.step()) {
    ++n;
    if (o.pgn) {
      out << pgn::reject_bytes(st.text(6), st.text(8));  // the input's bytes and line ends
      continue;
    }
    out << "reject " << st.int64(0) << ": " << shown(st.text(1)) << " (byte " << st.int64(2) << "), game "
        << st.int64(3) << " (" << (st.text(4).empty() ? "?" : shown(st.text(4))) << " – "
        << (st.text(5).empty() ? "?" : shown(st.text(5))) << ")\n";
    std::string errors(st.text(7));
    for (std::size_t at = 0; at < errors.size();) {
      std::size_t nl = errors.find('\n', at);
      out << "    " << shown(errors.substr(at, nl - at)) << "\n";
      at = nl == std::string::npos ? errors.size() : nl + 1;
    }
  }
  if (!o.pgn) out << n << " rejected games\n";
  output.finish();
}

}  // namespace

void setup_rejects(CLI::App& app) {
  auto o = std::make_shared<RejectsOptions>();
  auto* cmd = app.add_subcommand("rejects", "List the games import could not replay, or write them out as PGN");
  add_db_option(*cmd, o->db);
  cmd->add_flag("--pgn", o->pgn, "Write the rejected games' original text, unchanged, instead of the list");
  cmd->add_option("-o,--output", o->output, "Write to this file instead of standard output");
  cmd->footer("Fix the games, then import the file written with --pgn.");
  cmd->callback([o] { run_rejects(*o); });
}

}  // namespace qipu::cli
