#include "cli/commands.hpp"
namespace qipu::cli {
void setup_explore(CLI::App&) {}
}
