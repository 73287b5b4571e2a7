#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cstdlib>

// The tests read qipu's English output, whatever the locale of the one who runs them
// (a zh_CN locale would make tables and summaries Chinese); a test of --lang sets its own.
static const bool english_output = [] { return setenv("QIPU_LANG", "en", 1) == 0; }();
