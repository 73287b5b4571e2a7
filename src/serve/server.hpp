// qipu serve: an HTTP server on a game database, with the page (web/, compiled in) and
// the JSON API under /api/ (docs/api.md). Reads go through read-only connections, one a
// request, so that many answer at once while an import writes (WAL).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace qipu::serve {

struct ServerOptions {
  std::string db;                                   // the database file; it must exist
  std::string host = "127.0.0.1";                   // only this machine, unless the user says otherwise
  int port = 8080;                                  // 0: any free port (bind() says which)
  bool allow_import = false;                        // POST /api/import; refused with 403 otherwise
  std::size_t max_upload = std::size_t(512) << 20;  // bytes of one upload
  int query_ms = 10000;                             // SQL of one request is interrupted after this
  std::string eco_file;                             // ECO lines for opening names; empty: none
};

class Server {
 public:
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the address; returns the port, or -1 when it cannot (in use, no such host).
  int bind();
  // Serves until stop(), on a pool of threads. Returns false if the server failed.
  bool run();
  // From any thread: ends run() after the requests under way.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qipu::serve
