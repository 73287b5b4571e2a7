// Text tables for a terminal, laid out by display width: a wide or fullwidth character
// (CJK, Hangul, fullwidth forms, most emoji; Unicode's East Asian Width W and F) takes two
// columns, a combining mark none, anything else one. Chinese names and moves keep their
// columns aligned, and a cell too long for its column is cut with "…" between characters.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace qipu::cli {

// Columns one code point takes: 0, 1 or 2 (Unicode 14 data).
int char_width(char32_t c);
// Columns a UTF-8 string takes; a byte that is not UTF-8 counts as one.
std::size_t display_width(std::string_view s);
// `s` in at most `width` columns: whole when it fits, else cut at a character boundary
// with "…" as its last column.
std::string cut(std::string_view s, std::size_t width);

// `s` cut to `width` columns and padded with blanks to fill them.
std::string pad(std::string_view s, std::size_t width);

struct Column {
  std::string heading;
  std::size_t width = 0;  // in display columns; 0: the widest cell (heading included), up to `max`
  std::size_t max = 40;
  bool right = false;  // numbers: aligned right
};

// A table: rows are cells of text (already made safe with shown()). Columns are two
// spaces apart; the last one is not padded, so lines carry no trailing blanks. A table
// whose headings are all empty has no heading line.
// With every width fixed, rows can be written as they come (write_header, write_row);
// otherwise add them all and print().
class Table {
 public:
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Fixes the width of each automatic column, writes the heading line and the rows.
  void print(std::ostream& out, std::string_view indent = "");
  void write_header(std::ostream& out, std::string_view indent = "") const;
  void write_row(std::ostream& out, const std::vector<std::string>& row, std::string_view indent = "") const;
  // The same cells for scripts: tab-separated, uncut and unpadded (a tab or newline in a
  // cell becomes a space), the heading line first.
  void print_tsv(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace qipu::cli
