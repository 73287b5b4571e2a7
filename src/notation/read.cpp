// Reading a move token in any notation: non-ASCII words (Chinese, figurines, Cyrillic,
// full-width forms) are rewritten to ASCII SAN first; letter languages are then tried
// table by table, and the replayer keeps the first reading that is legal.
#include <algorithm>
#include <cstring>

#include "qipu/notation/notation.hpp"
#include "qipu/board/movegen.hpp"

namespace qipu {

namespace {

struct Rewrite {
  std::string_view from, to;
};

// Words that stand for SAN signs. Longer words are matched first (王后 is a queen, not
// a king followed by a queen), so the table is sorted by length when first used.
std::vector<Rewrite> build_rewrites() {
  std::vector<Rewrite> r = {
      {"短易位", "O-O"},
      {"王翼易位", "O-O"},
      {"短入堡", "O-O"},
      {"长易位", "O-O-O"},
      {"長易位", "O-O-O"},
      {"后翼易位", "O-O-O"},
      {"長入堡", "O-O-O"},
      {"将死", "#"},
      {"将杀", "#"},
      {"將死", "#"},
      {"將殺", "#"},
      {"将军", "+"},
      {"將軍", "+"},
      {"吃过路兵", " e.p."},
      {"吃過路兵", " e.p."},
      {"升变为", "="},
      {"升變為", "="},
      {"吃", "x"},
      {"×", "x"},
      {"国王", "K"},
      {"國王", "K"},
      {"王", "K"},
      {"♔", "K"},
      {"♚", "K"},
      {"皇后", "Q"},
      {"王后", "Q"},
      {"后", "Q"},
      {"後", "Q"},
      {"♕", "Q"},
      {"♛", "Q"},
      {"车", "R"},
      {"車", "R"},
      {"城堡", "R"},
      {"战车", "R"},
      {"戰車", "R"},
      {"♖", "R"},
      {"♜", "R"},
      {"象", "B"},
      {"主教", "B"},
      {"♗", "B"},
      {"♝", "B"},
      {"马", "N"},
      {"馬", "N"},
      {"骑士", "N"},
      {"騎士", "N"},
      {"♘", "N"},
      {"♞", "N"},
      {"小兵", ""},
      {"兵", ""},
      {"♙", ""},
      {"♟", ""},
      {"Кр", "K"},
      {"Ф", "Q"},
      {"Л", "R"},
      {"С", "B"},
      {"К", "N"},
      {"п", ""},
      {"…", ""},
  };
  std::stable_sort(r.begin(), r.end(),
                   [](const Rewrite& a, const Rewrite& b) { return a.from.size() > b.from.size(); });
  return r;
}

const std::vector<Rewrite>& rewrites() {
  static const std::vector<Rewrite> r = build_rewrites();
  return r;
}

constexpr std::string_view XiangqiWords[] = {"炮", "砲", "士", "仕", "帅", "帥", "卒",
                                             "相", "俥", "傌", "进", "進", "退", "平"};
constexpr std::string_view EitherCastling[] = {"王车易位", "王車易位"};

bool contains(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Non-ASCII words to their SAN signs, spaces removed.
std::string rewrite_words(std::string_view token) {
  std::string folded = fold_full_width(token), out;
  std::string_view s = folded;
  const auto& table = rewrites();
  while (!s.empty()) {
    auto hit = std::find_if(table.begin(), table.end(),
                            [&](const Rewrite& r) { return s.substr(0, r.from.size()) == r.from; });
    if (hit != table.end()) {
      out += hit->to;
      s.remove_prefix(hit->from.size());
    } else {
      out += s.front();
      s.remove_prefix(1);
    }
  }
  std::string san;
  std::size_t ep = out.find(" e.p.");
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] != ' ' || i == ep) san += out[i];
  return san;
}

bool is_ep_mark(std::string_view t) { return t == "e.p." || t == "ep" || t == "e.P." || t == "ep."; }

// The token with a letter language's piece words replaced by English letters, or empty
// when the table has nothing to say about it.
std::string rewrite_letters(std::string_view t, const Notation& n) {
  std::string out;
  std::string_view rest = t;
  auto piece_at = [&](std::string_view s) -> std::pair<int, std::size_t> {
    int best = 0;
    std::size_t len = 0;
    for (int p = Knight; p <= King; ++p) {
      auto w = n.names.pieces[p];
      if (!w.empty() && s.substr(0, w.size()) == w && w.size() > len) best = p, len = w.size();
    }
    return {best, len};
  };
  if (auto [p, len] = piece_at(rest); p) {
    out += english().names.pieces[p];
    rest.remove_prefix(len);
  } else {
    for (auto w : n.pawn_words)
      if (rest.size() > w.size() && rest.substr(0, w.size()) == w && rest[w.size()] >= 'a' && rest[w.size()] <= 'h') {
        rest.remove_prefix(w.size());
        break;
      }
  }
  // A promotion piece after the square: e8=D, or e8D with the letter right after the rank.
  std::size_t promo_at = rest.find('=');
  if (promo_at != std::string_view::npos)
    ++promo_at;
  else if (rest.size() >= 3 && (rest[rest.size() - 2] == '8' || rest[rest.size() - 2] == '1'))
    promo_at = rest.size() - 1;
  if (promo_at != std::string_view::npos && promo_at < rest.size()) {
    if (auto [p, len] = piece_at(rest.substr(promo_at)); p) {
      out += rest.substr(0, promo_at);
      out += english().names.pieces[p];
      rest.remove_prefix(promo_at + len);
    }
  }
  out += rest;
  return out == t ? std::string() : out;
}

void add_reading(MoveReadings& r, std::string_view text, const Notation& n) {
  SanParse p = parse_san(text);
  if (!p.san) {
    if (r.error.empty()) r.error = p.error;
    return;
  }
  for (const auto& existing : r.readings)
    if (std::memcmp(&existing.san, &*p.san, sizeof(San)) == 0) return;
  if (&n != &english()) p.san->style &= std::uint8_t(~StylePawnLetter);  // 兵, B(auer): the language's own pawn word
  r.readings.push_back({*p.san, &n});
}

}  // namespace

int glyph_nag(std::string_view token) {
  static constexpr std::pair<std::string_view, int>
      Signs[] = {{"!", 1},   {"?", 2},    {"!!", 3},   {"??", 4},   {"!?", 5},   {"?!", 6},  {"□", 7},
                 {"=", 10},  {"∞", 13},   {"+=", 14},  {"+/=", 14}, {"⩲", 14},   {"=+", 15}, {"=/+", 15},
                 {"⩱", 15},  {"±", 16},   {"+/-", 16}, {"∓", 17},   {"-/+", 17}, {"+-", 18}, {"+--", 18},
                 {"-+", 19}, {"--+", 19}, {"=/∞", 44}, {"∞/=", 44}, {"inf", 13}};  // not "N" (novelty): a truncated
                                                                                   // knight move must stay an error
  for (auto [sign, nag] : Signs)
    if (token == sign) return nag;
  return 0;
}

std::string fold_full_width(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    // U+FF01..U+FF5E is EF BC 81..EF BD 9E; U+3000 is E3 80 80
    if (c == 0xEF && i + 2 < s.size()) {
      auto c1 = static_cast<unsigned char>(s[i + 1]), c2 = static_cast<unsigned char>(s[i + 2]);
      unsigned code = ((c & 0x0F) << 12) | ((c1 & 0x3F) << 6) | (c2 & 0x3F);
      if ((c1 & 0xC0) == 0x80 && (c2 & 0xC0) == 0x80 && code >= 0xFF01 && code <= 0xFF5E) {
        out += char(code - 0xFF01 + 0x21);
        i += 2;
        continue;
      }
    }
    if (c == 0xE3 && i + 2 < s.size() && s[i + 1] == '\x80' && s[i + 2] == '\x80') {
      out += ' ';
      i += 2;
      continue;
    }
    out += char(c);
  }
  return out;
}

MoveReadings read_move(std::string_view token, const Notation* preferred) {
  MoveReadings r;
  std::string text(token);
  if (!is_ascii(token)) {
    for (auto w : XiangqiWords)
      if (contains(token, w)) {
        r.xiangqi = true;
        r.error = "this is a xiangqi (Chinese chess) move, not international chess";
        return r;
      }
    for (auto w : EitherCastling)
      if (contains(token, w)) {
        San san;
        san.kind = San::Kind::CastleEither;
        r.readings.push_back({san, find_notation("zh")});
        return r;
      }
    text = rewrite_words(token);
    if (!is_ascii(text)) {
      r.error = "not a move in any notation qipu knows";
      return r;
    }
  }
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());  // "马 f3", "exf6 e.p."
  if (text.empty() || is_ep_mark(text)) {
    r.ignorable = true;
    return r;
  }
  if (preferred && preferred != &english()) {
    std::string alt = rewrite_letters(text, *preferred);
    if (!alt.empty()) add_reading(r, alt, *preferred);
  }
  add_reading(r, text, english());
  for (const auto& n : notations()) {
    if (&n == preferred || &n == &english() || !is_ascii(n.names.pieces[Knight])) continue;
    std::string alt = rewrite_letters(text, n);
    if (!alt.empty()) add_reading(r, alt, n);
  }
  if (!r.readings.empty()) r.error.clear();
  return r;
}

namespace {

// Castling as the style asks; words exist only for the Chinese tables.
std::string_view castling_text(bool long_side, const Notation& notation, const WriteStyle& style) {
  if (style.castling == WriteStyle::Castling::Zeros) return long_side ? "0-0-0" : "0-0";
  if (style.castling == WriteStyle::Castling::Words && notation.code.substr(0, 2) == "zh")
    return long_side ? (notation.code == "zh" ? "长易位" : "長易位") : "短易位";
  return long_side ? notation.names.castle_long : notation.names.castle_short;
}

}  // namespace

std::string write_move(const Position& pos, Move m, const Notation& notation, const WriteStyle& style) {
  SanShape shape = san_shape(pos, m);
  Position after = pos;
  after.play(m);
  shape.suffix = check_suffix(after);
  std::string text;
  append_move(text, m, shape, notation, style);
  return text;
}

SanWords move_words(const Notation& notation, const WriteStyle& style) {
  SanWords words(notation.names, style.spaced);
  words.castle_short = SanWords::Word(castling_text(false, notation, style));
  words.castle_long = SanWords::Word(castling_text(true, notation, style));
  return words;
}

void append_move(std::string& out, Move m, const SanShape& shape, const Notation& notation, const WriteStyle& style) {
  char text[MaxMoveBytes];
  out.append(text, put_move(text, m, shape, move_words(notation, style)));
}

char* put_move(char* p, Move m, const SanShape& shape, const SanWords& words) {
  p = put_san_body(p, m, shape, words);
  if (shape.suffix != San::Suffix::None) *p++ = shape.suffix == San::Suffix::Check ? '+' : '#';
  return p;
}

}  // namespace qipu
