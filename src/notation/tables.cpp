// The notation tables. Piece words are indexed by PieceType: none, pawn, knight, bishop,
// rook, queen, king. Local letters follow the PGN standard's list (section 8.2.2 note)
// and common usage; Russian uses Cyrillic words.
#include <algorithm>
#include <stdexcept>

#include "fast.hpp"
#include "qipu/notation/notation.hpp"

namespace qipu {

namespace {

Notation letters(std::string_view code, std::string_view desc, std::string_view n, std::string_view b,
                 std::string_view r, std::string_view q, std::string_view k, std::vector<std::string_view> pawn) {
  return Notation{code, desc, PieceNames{code, {"", "", n, b, r, q, k}}, false, std::move(pawn)};
}

std::vector<Notation> build_notations() {
  std::vector<Notation> t;
  t.push_back(letters("en", "English SAN (the PGN standard)", "N", "B", "R", "Q", "K", {"P"}));
  t.push_back(Notation{"zh",
                       "Chinese, simplified: 王 后 车 象 马",
                       PieceNames{"zh", {"", "", "马", "象", "车", "后", "王"}},
                       true,
                       {"兵", "小兵"}});
  t.push_back(Notation{"zh-Hant",
                       "Chinese, traditional: 王 后 車 象 馬",
                       PieceNames{"zh-Hant", {"", "", "馬", "象", "車", "后", "王"}},
                       true,
                       {"兵", "小兵"}});
  t.push_back(Notation{"fan",
                       "figurine algebraic notation: ♔ ♕ ♖ ♗ ♘",
                       PieceNames{"fan", {"", "", "♘", "♗", "♖", "♕", "♔"}},
                       false,
                       {"♙", "♟"}});
  t.push_back(letters("de", "German: K D T L S", "S", "L", "T", "D", "K", {"B"}));
  t.push_back(letters("fr", "French: R D T F C", "C", "F", "T", "D", "R", {"P"}));
  t.push_back(letters("es", "Spanish: R D T A C", "C", "A", "T", "D", "R", {"P"}));
  t.push_back(letters("it", "Italian: R D T A C", "C", "A", "T", "D", "R", {"P"}));
  t.push_back(letters("nl", "Dutch: K D T L P", "P", "L", "T", "D", "K", {}));
  t.push_back(letters("ru", "Russian: Кр Ф Л С К", "К", "С", "Л", "Ф", "Кр", {"п"}));
  t.push_back(letters("pl", "Polish: K H W G S", "S", "G", "W", "H", "K", {"p"}));
  t.push_back(letters("cs", "Czech: K D V S J", "J", "S", "V", "D", "K", {"p"}));
  t.push_back(letters("sv", "Swedish: K D T L S", "S", "L", "T", "D", "K", {"B"}));
  t.push_back(letters("pt", "Portuguese: R D T B C", "C", "B", "T", "D", "R", {"P"}));
  t.push_back(letters("hu", "Hungarian: K V B F H", "H", "F", "B", "V", "K", {"gy"}));
  for (const auto& n : t)  // the writer has room for words this long only
    for (auto w : n.names.pieces)
      if (w.size() > MaxWordBytes) throw std::logic_error("piece word too long: " + std::string(w));
  return t;
}

}  // namespace

const std::vector<Notation>& notations() {
  static const std::vector<Notation> tables = build_notations();
  return tables;
}

const Notation& english() { return notations().front(); }

const Notation* find_notation(std::string_view code) {
  for (const auto& n : notations())
    if (n.code == code) return &n;
  return nullptr;
}

std::vector<std::string> all_piece_words() {
  std::vector<std::string> words;
  auto add = [&](std::string_view w) {
    if (!w.empty() && std::find(words.begin(), words.end(), w) == words.end()) words.emplace_back(w);
  };
  for (const auto& n : notations()) {
    for (int t = Knight; t <= King; ++t) add(n.names.pieces[t]);
    for (auto w : n.pawn_words) add(w);
  }
  return words;
}

}  // namespace qipu
