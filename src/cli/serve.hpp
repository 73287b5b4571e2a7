// qipu serve's options, which qipu and qipu-serve parse alike (serve.cpp), and the one
// function the two programs define differently. Only qipu-serve links the HTTP library
// and, through it, OpenSSL: loading them took 6 ms of every qipu command's start.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "serve/server.hpp"

namespace qipu::cli {

struct ServeOptions {
  serve::ServerOptions server;
  std::string db;
  bool open = false;
  std::size_t max_upload_mb = 512;
  std::vector<std::string> command_line;  // as the program was started, for qipu-serve
};

// In qipu (serve_start.cpp): replaces the process by qipu-serve with the same command
// line. In qipu-serve (serve_run.cpp): runs the server until Ctrl-C or SIGTERM. Returns
// the exit code, when it returns.
int run_serve(const ServeOptions& o);

}  // namespace qipu::cli
