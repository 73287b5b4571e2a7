#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

// The tests read qipu's English output, whatever the locale of the one who runs them
// (a zh_CN locale would make tables and summaries Chinese); a test of --lang sets its own.
static const bool english_output = [] { return setenv("QIPU_LANG", "en", 1) == 0; }();

#ifdef QIPU_SANITIZED
// The programs the tests launch under the sanitizers (about 700) skip LeakSanitizer's scan
// at exit, 18 of the 48 ms `qipu --version` takes there, and its page faults: the test
// process read its own options before main and keeps the scan (the library's leaks), and
// one test runs every command with it ("the program's commands leak nothing", test_cli.cpp).
static const bool children_skip_leak_scan = [] {
  const char* given = std::getenv("ASAN_OPTIONS");
  std::string options = given && *given ? std::string(given) + ":" : "";
  return setenv("ASAN_OPTIONS", (options + "detect_leaks=0").c_str(), 1) == 0;
}();
#endif
