// qipu serve [--db PATH] [--port 8080] [--host 127.0.0.1] [--open] — the database in a
// web browser: search, game viewer, opening explorer, event standings (src/serve/).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/db/search.hpp"
#include "serve/server.hpp"

namespace qipu::cli {

namespace {

struct ServeOptions {
  serve::ServerOptions server;
  std::string db;
  bool open = false;
  std::size_t max_upload_mb = 512;
};

// Starts the desktop's browser on the URL, without a shell (the URL is ours, but still).
void open_browser(const std::string& url) {
  pid_t pid = fork();
  if (pid == 0) {
    execlp("xdg-open", "xdg-open", url.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid < 0) std::cerr << "qipu serve: cannot start a browser; open " << url << "\n";
}

// Ctrl-C and SIGTERM stop the server from a thread of their own: a signal handler may not
// call into the server, a thread waiting in sigwait may. Blocked before any thread starts,
// so that every thread inherits the mask.
std::thread stop_on_signals(serve::Server& server) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return std::thread([&server, set] {
    int sig = 0;
    sigwait(&set, &sig);
    server.stop();
  });
}

void run_serve(ServeOptions o) {
  o.server.db = db::database_path(o.db);
  o.server.max_upload = o.max_upload_mb << 20;
  db::open_for_search(o.server.db);  // a missing or foreign file fails here, with its reason (exit 2)
  serve::Server server(o.server);
  int port = server.bind();
  if (port < 0) {
    std::cerr << "qipu serve: cannot listen on " << o.server.host << ":" << o.server.port
              << " (in use by another program? try --port 8081, or --port 0 for any free port)\n";
    return set_exit_code(2);
  }
  std::string host = o.server.host.find(':') != std::string::npos ? "[" + o.server.host + "]" : o.server.host;
  std::string url = "http://" + host + ":" + std::to_string(port) + "/";
  std::cout << "qipu serve: " << url << "  (database " << shown(o.server.db) << ", "
            << (o.server.allow_import ? "imports allowed" : "read-only") << "; Ctrl-C stops)" << std::endl;
  if (o.server.host != "127.0.0.1" && o.server.host != "localhost" && o.server.host != "::1")
    std::cerr << "qipu serve: warning: listening on " << o.server.host
              << ": other machines can reach this server; it has no passwords\n";
  if (o.open) open_browser(url);  // before the signals are blocked, which the browser would inherit
  std::thread signals = stop_on_signals(server);
  bool ok = server.run();
  pthread_kill(signals.native_handle(), SIGTERM);  // a stop by failure leaves the signal thread waiting
  signals.join();
  if (!ok) {
    std::cerr << "qipu serve: the server stopped with an error\n";
    set_exit_code(2);
  }
}

}  // namespace

void setup_serve(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
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
  cmd->callback([o] { run_serve(*o); });
}

}  // namespace qipu::cli
