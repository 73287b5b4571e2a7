// What every test run needs beyond Catch2's own main (Debian's libCatch2WithMain.a, built
// once by the package, where compiling Catch's implementation took 12 CPU-seconds a build).
#define CATCH_CONFIG_EXTERNAL_INTERFACES  // TestEventListenerBase, for the listener below
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace setup {

// The tests read qipu's English output, whatever the locale of the one who runs them
// (a zh_CN locale would make tables and summaries Chinese); a test of --lang sets its own.
const bool english_output = [] { return setenv("QIPU_LANG", "en", 1) == 0; }();

#ifdef QIPU_SANITIZED
// The programs the tests launch under the sanitizers (about 700) skip LeakSanitizer's scan
// at exit, 18 of the 48 ms `qipu --version` takes there, and its page faults: the test
// process read its own options before main and keeps the scan (the library's leaks), and
// one test runs every command with it ("the program's commands leak nothing", test_cli.cpp).
const bool children_skip_leak_scan = [] {
  const char* given = std::getenv("ASAN_OPTIONS");
  std::string options = given && *given ? std::string(given) + ":" : "";
  return setenv("ASAN_OPTIONS", (options + "detect_leaks=0").c_str(), 1) == 0;
}();
#endif

// The folders this process's tests made (cli_util.hpp's temp_dir: qipu_NAME_test_PID) are
// removed when every test passed: a run of the test command left about 700 of them, some
// 25 MB each. A failed run keeps them for a look.
void remove_temp_dirs() {
  namespace fs = std::filesystem;
  std::string suffix = "_test_" + std::to_string(getpid());
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("qipu_", 0) == 0 && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      fs::remove_all(e.path(), ec);
  }
}

struct RemoveTempDirs : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(const Catch::TestRunStats& run) override {
    if (run.totals.assertions.failed == 0 && run.totals.testCases.failed == 0) remove_temp_dirs();
  }
};
CATCH_REGISTER_LISTENER(RemoveTempDirs)

}  // namespace setup
