#include "cli/game_output.hpp"

#include <cstdio>

#include "cli/common.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu::cli {

namespace {

std::string hex_key(Key k) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(k));
  return buf;
}

void json_string_array(std::string& out, const std::vector<std::string>& items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, items[i]);
  }
  out += ']';
}

// The moves of a line as JSON objects; variations nest the same way.
void json_line(std::string& out, const Position& start, const game::Line& line) {
  out += '[';
  bool first = true;
  game::for_each_move(start, line, [&](const Position& before, const game::MoveNode& node, const Position& after) {
    if (!first) out += ',';
    first = false;
    int ply = 2 * (before.fullmove_number() - 1) + (before.side_to_move() == Black) + 1;
    out += "{\"ply\":" + std::to_string(ply) + ",\"san\":";
    append_json_string(out, format_san(before, node.move));
    out += ",\"uci\":\"" + before.uci(node.move) + "\",\"fen\":\"" + after.fen() + "\",\"key\":\"" +
           hex_key(after.key()) + "\"";
    if (const auto* a = node.notes.get()) {
      if (!a->nags.empty()) {
        out += ",\"nags\":[";
        for (std::size_t i = 0; i < a->nags.size(); ++i) out += (i ? "," : "") + std::to_string(a->nags[i]);
        out += ']';
      }
      if (!a->pre_comments.empty()) out += ",\"comments_before\":", json_string_array(out, a->pre_comments);
      if (!a->comments.empty()) out += ",\"comments\":", json_string_array(out, a->comments);
      if (!a->variations.empty()) {
        out += ",\"variations\":[";
        for (std::size_t i = 0; i < a->variations.size(); ++i) {
          if (i) out += ',';
          json_line(out, before, a->variations[i]);
        }
        out += ']';
      }
    }
    out += '}';
  });
  out += ']';
}

void json_diagnostics(std::string& out, const game::GameRecord& rec, bool errors) {
  std::vector<std::string> items;
  for (const auto& d : rec.diagnostics)
    if (d.error == errors) items.push_back(diagnostic_line(d));
  json_string_array(out, items);
}

}  // namespace

std::string to_json(const game::GameRecord& rec) {
  std::string out = "{\"game\":" + std::to_string(rec.index) + ",\"tags\":{";
  std::vector<bool> repeated(rec.tags.size());  // duplicates: the first wins (replay warned)
  game::for_each_repeated_tag(rec.tags, [&](std::size_t i) { repeated[i] = true; });
  bool first = true;
  for (std::size_t i = 0; i < rec.tags.size(); ++i) {
    if (repeated[i]) continue;
    if (!first) out += ',';
    first = false;
    append_json_string(out, rec.tags[i].first);
    out += ':';
    append_json_string(out, rec.tags[i].second);
  }
  out += "},\"start_fen\":";
  if (rec.start_fen)
    append_json_string(out, rec.start_position.fen());
  else
    out += "null";
  out += ",\"start_key\":\"" + hex_key(rec.start_position.key()) + "\",\"moves\":";
  json_line(out, rec.start_position, rec.mainline);
  out += ",\"result\":";
  append_json_string(out, rec.result.empty() ? rec.tag("Result") : std::string_view(rec.result));
  out += ",\"termination\":\"" + std::string(termination_name(rec.termination)) + "\"";
  if (!rec.final_comments.empty()) out += ",\"comments\":", json_string_array(out, rec.final_comments);
  out += ",\"errors\":";
  json_diagnostics(out, rec, true);
  out += ",\"warnings\":";
  json_diagnostics(out, rec, false);
  return out + "}\n";
}

std::string to_fen_lines(const game::GameRecord& rec) {
  std::string out;
  game::for_each_move(
      rec.start_position, rec.mainline,
      [&](const Position&, const game::MoveNode&, const Position& after) { out += after.fen() + "\n"; });
  return out;
}

std::string to_uci_line(const game::GameRecord& rec) {
  std::string out;
  game::for_each_move(rec.start_position, rec.mainline,
                      [&](const Position& before, const game::MoveNode& node, const Position&) {
                        if (!out.empty()) out += ' ';
                        out += before.uci(node.move);
                      });
  return out + "\n";
}

namespace {

// A FEN without its halfmove clock and fullmove number.
std::string epd_of(const Position& pos) {
  std::string fen = pos.fen();
  auto cut = fen.rfind(' ');
  if (cut != std::string::npos) cut = fen.rfind(' ', cut - 1);
  return fen.substr(0, cut);
}

}  // namespace

std::string to_epd_lines(const game::GameRecord& rec) {
  std::string out;
  game::for_each_move(
      rec.start_position, rec.mainline,
      [&](const Position&, const game::MoveNode&, const Position& after) { out += epd_of(after) + "\n"; });
  return out;
}

}  // namespace qipu::cli
