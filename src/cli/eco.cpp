#include "cli/commands.hpp"
namespace qipu::cli {
void setup_eco(CLI::App&) {}
}
