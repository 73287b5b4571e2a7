#include "qipu/db/codec.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <queue>
#include <vector>

#include "qipu/board/movegen.hpp"
#include "qipu/db/sqlite.hpp"
#include "move_order.hpp"

namespace qipu::db {

void put_varint(std::string& out, std::uint64_t v) {
  char buf[MaxVarint];
  out.append(buf, put_varint(buf, v));
}


namespace {

constexpr unsigned char NullMove = 255;

// ---- Huffman code of symbols ----
// How often each rank was played, measured on corpora other than the benchmark's
// (bench/tools/codec_stats.cpp prints this table); the null move and ranks never seen count 1.
// Stored games depend on it: like the move order, it changes only with the schema version.
constexpr std::uint32_t RankCounts[] = {
    69421, 34468, 22032, 16159, 14714, 10820, 9432, 8058, 7178, 6285, 5636, 5715, 4804, 4663, 4352, 4150,
    3648,  3417,  3341,  3212,  2849,  2720,  2439, 2106, 1970, 1734, 1549, 1390, 1262, 1060, 959,  855,
    689,   606,   489,   394,   325,   253,   237,  168,  128,  119,  73,   66,   45,   43,   20,   14,
    18,    10,    5,     8,     2,     3,     1,    1,    0,    1,    1,    0,    0,    1,
};

struct HuffmanCode {
  std::uint8_t length[256];
  std::uint32_t code[256];
  // Canonical decoding: per length, the first code and where its symbols start.
  std::uint32_t first_code[33], first_index[33], count[33];
  std::uint8_t sorted[256];
  unsigned max_length;
};

std::array<std::uint8_t, 256> huffman_lengths(const std::array<std::uint64_t, 256>& freq) {
  struct Node {
    std::uint64_t weight;
    int left, right;
  };
  std::vector<Node> nodes;
  using Item = std::pair<std::uint64_t, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  for (int s = 0; s < 256; ++s) {
    nodes.push_back({freq[std::size_t(s)], -1, -1});
    heap.emplace(freq[std::size_t(s)], s);
  }
  while (heap.size() > 1) {
    auto [wa, a] = heap.top();
    heap.pop();
    auto [wb, b] = heap.top();
    heap.pop();
    nodes.push_back({wa + wb, a, b});
    heap.emplace(wa + wb, int(nodes.size()) - 1);
  }
  std::array<std::uint8_t, 256> length{};
  std::vector<std::pair<int, std::uint8_t>> stack = {{int(nodes.size()) - 1, 0}};
  while (!stack.empty()) {
    auto [n, depth] = stack.back();
    stack.pop_back();
    if (nodes[std::size_t(n)].left < 0)
      length[std::size_t(n)] = depth;
    else {
      stack.emplace_back(nodes[std::size_t(n)].left, std::uint8_t(depth + 1));
      stack.emplace_back(nodes[std::size_t(n)].right, std::uint8_t(depth + 1));
    }
  }
  return length;
}

// Rare symbols are given a floor weight of 2^-20 of the total, which keeps every code
// within 32 bits. Ties break by symbol, so the code is the same on every platform.
HuffmanCode make_code() {
  std::array<std::uint64_t, 256> freq{};
  std::uint64_t total = 0;
  for (std::size_t s = 0; s < 256; ++s) total += freq[s] = s < std::size(RankCounts) ? RankCounts[s] : 0;
  for (auto& f : freq) f = std::max<std::uint64_t>(f * 1024, total >> 10 | 1);
  auto length = huffman_lengths(freq);
  HuffmanCode h{};
  std::size_t n = 0;
  for (unsigned len = 1; len <= 32; ++len)
    for (int s = 0; s < 256; ++s)
      if (length[std::size_t(s)] == len) h.sorted[n++] = std::uint8_t(s), ++h.count[len];
  std::uint32_t code = 0, index = 0;
  for (unsigned len = 1; len <= 32; ++len) {
    h.first_code[len] = code;
    h.first_index[len] = index;
    for (std::uint32_t i = 0; i < h.count[len]; ++i) {
      std::uint8_t s = h.sorted[index + i];
      h.length[s] = std::uint8_t(len);
      h.code[s] = code + i;
    }
    code = (code + h.count[len]) << 1;
    index += h.count[len];
    if (h.count[len]) h.max_length = len;
  }
  return h;
}

const HuffmanCode& huffman() {
  static const HuffmanCode h = make_code();
  return h;
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

// Reads the notes blob back. A stored database is input like any other (it may be
// damaged or crafted), so nesting, moves and items are bounded by what the PGN reader
// lets a game hold: deeper nesting would overflow the stack here and in the writer, and
// a few bytes a comment or variation would otherwise cost tens of bytes in memory each.
class NotesReader {
 public:
  explicit NotesReader(std::string_view in) : in_(in) {}

  // The notes of one line's moves, each index past the one before.
  bool line(const Position& start, game::Line& line, unsigned depth) {
    std::uint64_t count, index;
    if (!get_varint(in_, count)) return fail("cut short");
    Position pos = start;
    std::size_t at = 0, next = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      if (!get_varint(in_, index) || index >= line.size() || index < next)
        return fail("a note on a move the line does not have");
      for (; at < index; ++at) pos.play(line[at].move);
      if (!node(pos, line[index].annotate(), depth)) return false;
      next = index + 1;
    }
    return true;
  }

  [[nodiscard]] bool strings(std::vector<std::string>& v) {
    std::uint64_t n;
    if (!get_varint(in_, n) || n > in_.size()) return fail("cut short");
    if (!count_items(n)) return false;
    v.resize(n);
    for (auto& s : v)
      if (!get_string(in_, s)) return fail("cut short");
    return true;
  }
  [[nodiscard]] bool at_end() { return in_.empty() || fail("bytes after the last note"); }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  bool node(const Position& before, game::Annotations& a, unsigned depth) {
    std::uint64_t n;
    if (!strings(a.pre_comments) || !strings(a.comments)) return false;
    if (!get_varint(in_, n) || n > in_.size()) return fail("cut short");
    a.nags.assign(in_.begin(), in_.begin() + std::ptrdiff_t(n));
    in_.remove_prefix(n);
    if (!get_varint(in_, n) || n > in_.size()) return fail("cut short");
    if (n > 0 && depth >= MaxDepth) return fail("variations nested deeper than " + std::to_string(MaxDepth));
    if (!count_items(n)) return false;
    a.variations.resize(n);
    for (auto& v : a.variations) {
      std::string moves;
      if (!get_string(in_, moves)) return fail("cut short");
      if (!unpack_symbols(moves, symbols_) || (items_ += symbols_.size()) > MaxStoredPlies)
        return fail("a variation's moves do not decode, or more than " + std::to_string(MaxStoredPlies) +
                    " comments, variations and moves in all");
      if (!play_symbols(before, symbols_, v)) return fail("a variation's moves do not fit its position");
      if (!line(before, v, depth + 1)) return false;
    }
    return true;
  }

  // Comments, variations and their moves together stay within what a game can hold.
  bool count_items(std::uint64_t n) {
    return (items_ += n) <= MaxStoredPlies ||
           fail("more than " + std::to_string(MaxStoredPlies) + " comments, variations and moves in all");
  }

  bool fail(std::string why) {
    if (error_.empty()) error_ = "notes: " + why;
    return false;
  }

  static constexpr unsigned MaxDepth = 1000;  // pgn::ReaderOptions::max_variation_depth
  std::string_view in_;
  std::string symbols_, error_;
  std::uint64_t items_ = 0;
};

}  // namespace

unsigned char move_symbol(const Position& pos, Move m) {
  if (m.is_null()) return NullMove;
  int rank = move_rank(pos, m);
  if (rank >= NullMove)
    throw DbError("a move ranked " + std::to_string(rank) + " in a position with that many moves cannot be stored");
  return static_cast<unsigned char>(rank);
}

Move move_of_symbol(const Position& pos, unsigned char symbol) {
  if (symbol == NullMove) return Move::null();
  Move m = move_at_rank(pos, symbol);
  // Candidates may be illegal (db/move_order.hpp); a damaged blob may name one.
  bool legal = !m.is_none() && (m.kind() == MoveKind::Castling || pos.leaves_king_safe(m));
  return legal ? m : Move::none();
}

bool play_symbols(const Position& start, std::string_view symbols, game::Line& line) {
  Position pos = start;
  line.reserve(line.size() + symbols.size());
  for (unsigned char symbol : symbols) {
    Move m = move_of_symbol(pos, symbol);
    if (m.is_none()) return false;
    line.emplace_back().move = m;
    pos.play(m);
  }
  return true;
}

// Blob: the number of symbols as a varint, then their codes, first bit highest, the
// last byte padded with zeros. Written 32 bits at a time into room made beforehand.
std::string pack_symbols(std::string_view symbols) {
  const HuffmanCode& h = huffman();
  std::string out;
  put_varint(out, symbols.size());
  std::size_t start = out.size();
  out.resize(start + (symbols.size() * h.max_length + 7) / 8);
  auto* p = reinterpret_cast<unsigned char*>(out.data() + start);
  // Codes are at most 32 bits and fewer than 32 wait in acc, so it never overflows; bits
  // above those waiting are left there and cut off when a word or byte is taken.
  std::uint64_t acc = 0;
  int bits = 0;
  for (unsigned char s : symbols) {
    acc = (acc << h.length[s]) | h.code[s];
    bits += h.length[s];
    if (bits >= 32) {
      bits -= 32;
      auto word = std::uint32_t(acc >> bits);
      p[0] = std::uint8_t(word >> 24), p[1] = std::uint8_t(word >> 16), p[2] = std::uint8_t(word >> 8),
      p[3] = std::uint8_t(word);
      p += 4;
    }
  }
  for (; bits >= 8; bits -= 8) *p++ = std::uint8_t(acc >> (bits - 8));
  if (bits > 0) *p++ = std::uint8_t(acc << (8 - bits));
  out.resize(std::size_t(p - reinterpret_cast<unsigned char*>(out.data())));
  return out;
}

bool unpack_symbols(std::string_view blob, std::string& symbols, std::size_t max) {
  const HuffmanCode& h = huffman();
  std::uint64_t n;
  if (!get_varint(blob, n) || n > blob.size() * 8) return false;
  n = std::min<std::uint64_t>(n, max);
  symbols.clear();
  std::size_t bit = 0;
  auto next_bit = [&] { return (static_cast<unsigned char>(blob[bit / 8]) >> (7 - bit % 8)) & 1; };
  while (symbols.size() < n) {
    std::uint32_t code = 0;
    unsigned len = 1;
    for (;; ++len) {
      if (len > 32 || bit >= blob.size() * 8) return false;
      code = (code << 1) | next_bit();
      ++bit;
      if (code - h.first_code[len] < h.count[len]) break;
    }
    symbols += char(h.sorted[h.first_index[len] + code - h.first_code[len]]);
  }
  return true;
}

std::string encode_moves(const Position& start, const game::Line& line) {
  return pack_symbols(move_symbols(start, line));
}

bool decode_moves(const Position& start, std::string_view blob, game::Line& line) {
  std::string_view count = blob;
  std::uint64_t n;
  if (!get_varint(count, n) || n > MaxStoredPlies) return false;  // refused before any memory is taken
  std::string symbols;
  return unpack_symbols(blob, symbols) && play_symbols(start, symbols, line);
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

Result<void> decode_annotations(std::string_view blob, game::GameRecord& rec) {
  if (blob.empty()) return {};
  NotesReader r(blob);
  if (r.strings(rec.final_comments) && r.line(rec.start_position, rec.mainline, 0) && r.at_end()) return {};
  return Failure{r.error()};
}

}  // namespace qipu::db
