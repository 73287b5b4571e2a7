// The page's files (web/), compiled in by cmake/embed.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace qipu::serve {

struct Asset {
  std::string_view path;  // "/index.html", "/pieces/wK.svg"
  std::string_view data;
};
const std::vector<Asset>& assets();

}  // namespace qipu::serve
