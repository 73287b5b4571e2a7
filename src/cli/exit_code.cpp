#include "cli/commands.hpp"

namespace qipu::cli {
namespace {
int g_exit_code = 0;
}
void set_exit_code(int code) {
  if (code > g_exit_code) g_exit_code = code;
}
int exit_code() { return g_exit_code; }
}  // namespace qipu::cli
