#include "qipu/db/codec.hpp"

#include <algorithm>

#include "qipu/board/movegen.hpp"

namespace qipu::db {

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += char(v | 0x80);
    v >>= 7;
  }
  out += char(v);
}

bool get_varint(std::string_view& in, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto b = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= std::uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

namespace {

constexpr unsigned char NullMove = 255;

unsigned char move_rank(const Position& pos, Move m) {
  if (m.is_null()) return NullMove;
  MoveList list;
  generate_legal(pos, list);
  int rank = 0;
  for (Move x : list) rank += x.raw() < m.raw();
  return static_cast<unsigned char>(rank);
}

Move move_at_rank(const Position& pos, unsigned char rank) {
  if (rank == NullMove) return Move::null();
  MoveList list;
  generate_legal(pos, list);
  if (rank >= list.size()) return Move::none();
  std::uint16_t raws[256];
  for (std::size_t i = 0; i < list.size(); ++i) raws[i] = list[i].raw();
  std::nth_element(raws, raws + rank, raws + list.size());
  return Move(raws[rank]);
}

void put_string(std::string& out, std::string_view s) {
  put_varint(out, s.size());
  out += s;
}

bool get_string(std::string_view& in, std::string& s) {
  std::uint64_t n;
  if (!get_varint(in, n) || n > in.size()) return false;
  s.assign(in.substr(0, n));
  in.remove_prefix(n);
  return true;
}

void put_strings(std::string& out, const std::vector<std::string>& v) {
  put_varint(out, v.size());
  for (const auto& s : v) put_string(out, s);
}

bool get_strings(std::string_view& in, std::vector<std::string>& v) {
  std::uint64_t n;
  if (!get_varint(in, n) || n > in.size()) return false;
  v.resize(n);
  for (auto& s : v)
    if (!get_string(in, s)) return false;
  return true;
}

void put_line_notes(std::string& out, const Position& start, const game::Line& line);

// One annotated move: comments before and after, NAGs, then each variation's moves
// (from the position before this move) and their own notes.
void put_node_notes(std::string& out, const Position& before, const game::Annotations& a) {
  put_strings(out, a.pre_comments);
  put_strings(out, a.comments);
  put_varint(out, a.nags.size());
  out.append(a.nags.begin(), a.nags.end());
  put_varint(out, a.variations.size());
  for (const auto& v : a.variations) {
    put_string(out, encode_moves(before, v));
    put_line_notes(out, before, v);
  }
}

void put_line_notes(std::string& out, const Position& start, const game::Line& line) {
  std::size_t count = 0;
  for (const auto& n : line) count += n.notes != nullptr;
  put_varint(out, count);
  std::size_t index = 0;
  game::for_each_move(start, line, [&](const Position& before, const game::MoveNode& node, const Position&) {
    if (node.notes) {
      put_varint(out, index);
      put_node_notes(out, before, *node.notes);
    }
    ++index;
  });
}

bool get_line_notes(std::string_view& in, const Position& start, game::Line& line);

bool get_node_notes(std::string_view& in, const Position& before, game::Annotations& a) {
  std::uint64_t n;
  if (!get_strings(in, a.pre_comments) || !get_strings(in, a.comments)) return false;
  if (!get_varint(in, n) || n > in.size()) return false;
  a.nags.assign(in.begin(), in.begin() + std::ptrdiff_t(n));
  in.remove_prefix(n);
  if (!get_varint(in, n) || n > in.size()) return false;
  a.variations.resize(n);
  for (auto& v : a.variations) {
    std::string moves;
    if (!get_string(in, moves) || !decode_moves(before, moves, v) || !get_line_notes(in, before, v)) return false;
  }
  return true;
}

bool get_line_notes(std::string_view& in, const Position& start, game::Line& line) {
  std::uint64_t count, index;
  if (!get_varint(in, count)) return false;
  Position pos = start;
  std::size_t at = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!get_varint(in, index) || index >= line.size() || index < at) return false;
    for (; at < index; ++at) pos.play(line[at].move);
    if (!get_node_notes(in, pos, line[index].annotate())) return false;
  }
  return true;
}

}  // namespace

std::string encode_moves(const Position& start, const game::Line& line) {
  std::string out;
  out.reserve(line.size());
  game::for_each_move(start, line, [&](const Position& before, const game::MoveNode& node, const Position&) {
    out += char(move_rank(before, node.move));
  });
  return out;
}

bool decode_moves(const Position& start, std::string_view blob, game::Line& line) {
  Position pos = start;
  line.reserve(line.size() + blob.size());
  for (unsigned char rank : blob) {
    Move m = move_at_rank(pos, rank);
    if (m.is_none()) return false;
    line.emplace_back().move = m;
    pos.play(m);
  }
  return true;
}

std::string encode_annotations(const game::GameRecord& rec) {
  bool any = !rec.final_comments.empty();
  for (const auto& n : rec.mainline) any |= n.notes != nullptr;
  if (!any) return {};
  std::string out;
  put_strings(out, rec.final_comments);
  put_line_notes(out, rec.start_position, rec.mainline);
  return out;
}

bool decode_annotations(std::string_view blob, game::GameRecord& rec) {
  if (blob.empty()) return true;
  return get_strings(blob, rec.final_comments) && get_line_notes(blob, rec.start_position, rec.mainline) && blob.empty();
}

}  // namespace qipu::db
