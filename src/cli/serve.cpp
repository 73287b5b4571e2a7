// qipu serve [--db PATH] [--port 8080] [--host 127.0.0.1] [--open] — the database in a
// web browser: search, game viewer, opening explorer, event standings (src/serve/).
// The options are parsed here in both programs; run_serve differs (serve.hpp).
#include <memory>

#include "cli/commands.hpp"
#include "cli/db_options.hpp"
#include "cli/serve.hpp"
#include "qipu/db/eco.hpp"

namespace qipu::cli {

void setup_serve(CLI::App& app, std::vector<std::string> command_line) {
  auto o = std::make_shared<ServeOptions>();
  o->command_line = std::move(command_line);
  auto* cmd = app.add_subcommand("serve", "Open the database in a web browser: search, game viewer, explorer");
  add_db_option(*cmd, o->db);
  cmd->add_option("--port", o->server.port, "Port to listen on (default 8080; 0: any free port)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--host", o->server.host,
                  "Address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets others in)");
  cmd->add_flag("--open", o->open, "Open the page in the desktop's browser (xdg-open)");
  cmd->add_flag("--allow-import", o->server.allow_import,
                "Let the page import PGN files into the database (read-only without it)");
  cmd->add_option("--max-upload", o->max_upload_mb, "Largest upload in MB (default 512)")->check(CLI::Range(1, 65536));
  cmd->add_option("--query-ms", o->server.query_ms,
                  "Stop a request's database query after this many milliseconds (default 10000)")
      ->check(CLI::Range(10, 3600000));
  o->server.eco_file = db::DefaultEcoFile;
  cmd->add_option("--eco-file", o->server.eco_file,
                  "ECO lines for naming openings (default: " + std::string(db::DefaultEcoFile) + ")");
  cmd->footer(
      "The page and its pieces are inside the program: it works offline. The JSON API under /api/\n"
      "is in docs/api.md. Requests read through read-only connections, so the page stays usable\n"
      "while qipu import (or an upload with --allow-import) writes.\n"
      "Examples: qipu serve --open\n"
      "          qipu serve --db games.db --port 9000 --allow-import\n"
      "          curl 'http://127.0.0.1:8080/api/search?player=Carlsen&limit=5'");
  cmd->callback([o] { set_exit_code(run_serve(*o)); });
}

}  // namespace qipu::cli
