// qipu's half of `qipu serve` (serve.hpp): the server is the program qipu-serve, which
// alone links the HTTP library. qipu has checked the options; qipu-serve takes the same
// command line in this process's place, so that its exit status and signals are qipu's.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "cli/serve.hpp"

namespace qipu::cli {

namespace {

// Beside qipu in a build directory; in ../libexec/qipu/ when installed. Empty when qipu's
// own place is unknown: never a path relative to the working directory.
std::filesystem::path server_program() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || !exe.is_absolute()) return {};
  fs::path beside = exe.parent_path() / "qipu-serve";
  if (fs::exists(beside, ec)) return beside;
  return exe.parent_path().parent_path() / "libexec" / "qipu" / "qipu-serve";
}

}  // namespace

int run_serve(const ServeOptions& o) {
  std::string program = server_program().string();
  if (program.empty()) {
    std::cerr << "qipu serve: cannot find the server program qipu-serve: /proc/self/exe does not say where qipu is\n";
    return 2;
  }
  std::vector<char*> argv{program.data()};
  for (std::size_t i = 1; i < o.command_line.size(); ++i) argv.push_back(const_cast<char*>(o.command_line[i].c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  execv(program.c_str(), argv.data());
  std::cerr << "qipu serve: cannot start the server program " << program << ": " << std::strerror(errno)
            << " (building qipu makes it beside qipu; installing puts it in ../libexec/qipu/)\n";
  return 2;
}

}  // namespace qipu::cli
