// qipu-serve's half of `qipu serve` (serve.hpp): the server on the database until
// Ctrl-C or SIGTERM. qipu parsed the same command line and started this program with it.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <thread>

#include "cli/serve.hpp"
#include "cli/shown.hpp"
#include "qipu/db/search.hpp"
#include "serve/server.hpp"

namespace qipu::cli {

namespace {

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

}  // namespace

int run_serve(const ServeOptions& options) {
  ServeOptions o = options;
  o.server.db = db::database_path(o.db);
  o.server.max_upload = o.max_upload_mb << 20;
  db::open_for_search(o.server.db);  // a missing or foreign file fails here, with its reason (exit 2)
  serve::Server server(o.server);
  int port = server.bind();
  if (port < 0) {
    std::cerr << "qipu serve: cannot listen on " << o.server.host << ":" << o.server.port
              << " (in use by another program? try --port 8081, or --port 0 for any free port)\n";
    return 2;
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
  if (ok) return 0;
  std::cerr << "qipu serve: the server stopped with an error\n";
  return 2;
}

}  // namespace qipu::cli
