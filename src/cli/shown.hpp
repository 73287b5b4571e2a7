// shown() apart from common.hpp, for serve_run.cpp: common.hpp brings in CLI11, whose
// header alone took 5 of a file's 6 CPU-seconds at -O3.
#pragma once

#include <string>
#include <string_view>

namespace qipu::cli {

// Text for a terminal or a message: control characters (C0 with tab, DEL, C1) shown as
// \x1b, so a tag value cannot move the cursor, recolour or retitle the terminal.
std::string shown(std::string_view s);

}  // namespace qipu::cli
