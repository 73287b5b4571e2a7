// The program's version, apart from help.hpp: the file that defines it is generated and
// compiled again at every commit (cmake/version.cmake), and CLI11 cost it 5 CPU-seconds.
#pragma once

namespace qipu::cli {

// "qipu 0.1.0 (git 1a2b3c4-dirty)": written at build time (cmake/version.cmake).
extern const char* const version_text;

}  // namespace qipu::cli
