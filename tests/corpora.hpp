// Where the large test corpora are, and how a test that needs them is skipped when they
// are not there. The repository carries a small sample of its own (tests/data, data/);
// the corpora (some 100 MB of real and edge-case PGN, perft suites and positions) live
// outside it: $QIPU_CORPORA, else ../shared/corpora beside the source tree.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <string>
#include <string_view>

namespace corpora {

namespace fs = std::filesystem;

// The corpora directory, laid out as MANIFEST.tsv in it describes.
inline fs::path root() {
  const char* env = std::getenv("QIPU_CORPORA");
  return env && *env ? fs::path(env) : fs::path(QIPU_SOURCE_DIR "/../shared/corpora");
}

// A file or directory of the corpora, named relative to the root ("real/pgnmentor").
inline std::string path(std::string_view rel) { return (root() / rel).string(); }

// The text ctest looks for (SKIP_REGULAR_EXPRESSION in CMakeLists.txt) to count a test
// as skipped rather than passed.
inline constexpr std::string_view skip_mark = "SKIPPED: needs the test corpora";

// False, after one line saying what is missing and how to provide it, when any of the
// named parts of the corpora is absent. The line goes to standard output whole: Catch's
// WARN would wrap it at 80 columns.
inline bool present(std::initializer_list<std::string_view> rels) {
  for (std::string_view rel : rels) {
    if (fs::exists(root() / rel)) continue;
    std::cout << skip_mark << ": " << path(rel) << " is missing; set QIPU_CORPORA to a directory laid out like "
              << "the project's shared/corpora, or put it at ../shared/corpora beside the checkout" << std::endl;
    return false;
  }
  return true;
}

}  // namespace corpora

// At the top of a test (or of a SECTION) that reads the corpora: returns early, skipped,
// when any of them is absent.
#define QIPU_NEEDS_CORPORA(...)                   \
  do {                                            \
    if (!corpora::present({__VA_ARGS__})) return; \
  } while (false)
