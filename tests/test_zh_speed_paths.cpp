// The fast paths that read Chinese, figurine and German movetext at English's speed
// (issue 16) give what the general paths give:
// - the reader's one-load piece character table against the fold's word list, for every
//   three-byte character;
// - the UTF-8 check's one-test pass of three-byte characters against the standard's
//   table of well-formed sequences (RFC 3629), written out here;
// - the chunker's block scan over wide characters: the same games whatever the block
//   size, and the same games and results as the English original;
// - the readings the reader's token loop hands on with the usual Chinese and figurine
//   moves and German letters, against read_move's reading of the same tokens, for every
//   form of tests/data/notation/zh-forms.tsv and the data/ samples in each notation;
//   and the samples converted to each notation replay to the English games.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <random>

#include "../src/notation/fast.hpp"
#include "../src/notation/fold.hpp"
#include "../src/pgn/decoder.hpp"
#include "cli_util.hpp"
#include "qipu/game/pipeline.hpp"
#include "qipu/game/writer.hpp"
#include "qipu/notation/notation.hpp"
#include "qipu/pgn/reader.hpp"
#include "qipu/pgn/source.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_zh_speed_paths {

using namespace qipu;
using cli_test::slurp;
using cli_test::split;

namespace {

std::string utf8(char32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += char(cp);
  } else if (cp < 0x800) {
    s += char(0xC0 | (cp >> 6));
    s += char(0x80 | (cp & 0x3F));
  } else {
    s += char(0xE0 | (cp >> 12));
    s += char(0x80 | ((cp >> 6) & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  }
  return s;
}

// RFC 3629's table of well-formed sequences, byte by byte: the length of the longest
// well-formed prefix of s (a sequence cut by the end is not well-formed).
std::size_t well_formed_prefix(std::string_view s) {
  auto in = [](unsigned char c, unsigned lo, unsigned hi) { return c >= lo && c <= hi; };
  std::size_t i = 0;
  while (i < s.size()) {
    auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    std::size_t len = 0;
    if (b(0) < 0x80)
      len = 1;
    else if (in(b(0), 0xC2, 0xDF) && in(b(1), 0x80, 0xBF))
      len = 2;
    else if ((b(0) == 0xE0 && in(b(1), 0xA0, 0xBF)) || (in(b(0), 0xE1, 0xEC) && in(b(1), 0x80, 0xBF)) ||
             (b(0) == 0xED && in(b(1), 0x80, 0x9F)) || (in(b(0), 0xEE, 0xEF) && in(b(1), 0x80, 0xBF)))
      len = in(b(2), 0x80, 0xBF) ? 3 : 0;
    else if ((b(0) == 0xF0 && in(b(1), 0x90, 0xBF)) || (in(b(0), 0xF1, 0xF3) && in(b(1), 0x80, 0xBF)) ||
             (b(0) == 0xF4 && in(b(1), 0x80, 0x8F)))
      len = in(b(2), 0x80, 0xBF) && in(b(3), 0x80, 0xBF) ? 4 : 0;
    if (len == 0 || i + len > s.size()) return i;
    i += len;
  }
  return i;
}

// A game collection replayed and written back in English SAN, one game a line, with
// each game's errors: what the reader and replayer made of it, compared whole.
std::string replayed(const std::string& pgn) {
  game::PipelineOptions o;
  o.jobs = 1;
  std::string out;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) {
    std::string g = game::write_pgn(rec);
    std::replace(g.begin(), g.end(), '\n', ' ');
    out += g + " errors " + std::to_string(rec.error_count()) + "\n";
  };
  game::run_pipeline(std::vector<game::PipelineInput>{{"<games>", pgn}}, o, cb);
  return out;
}

// The games of an English collection written in a notation and style, as convert does.
std::string converted(const std::string& pgn, const Notation& to, bool spaced) {
  game::PipelineOptions o;
  o.jobs = 1;
  game::WriterOptions w;
  w.notation = &to;
  w.style.spaced = spaced;
  std::string out;
  game::PipelineCallbacks cb;
  cb.game = [&](const game::InputReport&, game::GameRecord& rec) { out += game::write_pgn(rec, w); };
  game::run_pipeline(std::vector<game::PipelineInput>{{"<english>", pgn}}, o, cb);
  return out;
}

std::string sample(const char* name) {
  std::string path = QIPU_SOURCE_DIR "/data/";
  return slurp(path.append(name));
}

// The first line where two outputs differ, both ways; empty when they are the same.
std::string first_difference(const std::string& a, const std::string& b) {
  std::vector<std::string> x = split(a, '\n'), y = split(b, '\n');
  for (std::size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
    std::string l = i < x.size() ? x[i] : "(none)", r = i < y.size() ? y[i] : "(none)";
    if (l != r) return "line " + std::to_string(i + 1) + ":\n" + l + "\n" + r;
  }
  return "";
}

// The first `games` games of a collection.
std::string first_games(const std::string& pgn, std::size_t games) {
  std::size_t at = 0;
  for (std::size_t k = 0; k <= games && at != std::string::npos; ++k) at = pgn.find("[Event ", at + 1);
  return pgn.substr(0, at);
}

// Each game's chunk of text and the results the reader saw, read with a block size.
struct Chunks : pgn::Visitor {
  std::vector<std::string> games, results;
  pgn::Visit begin_game(const pgn::GameInfo& g) override {
    games.emplace_back(g.text);
    return pgn::Visit::Continue;
  }
  void result(std::string_view text, std::uint64_t) override { results.emplace_back(text); }
};
Chunks chunks(const std::string& pgn, std::size_t block) {
  pgn::ReaderOptions o = game::replay_reader_options();
  o.block_size = block;
  Chunks c;
  pgn::read_pgn(*pgn::memory_source(pgn), c, o);
  return c;
}

}  // namespace

TEST_CASE("zh speed paths: the piece character table reads every three-byte character as the word list",
          "[notation][zh]") {
  int pieces = 0;
  for (char32_t cp = 0x800; cp <= 0xFFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;  // surrogates: no characters
    std::string s = utf8(cp) + " f3";
    fold::Unit u = fold::unit_at(s.data(), s.data() + s.size());
    char expected = u.piece && u.bytes == 3 && u.ascii.size() == 1 ? u.ascii[0] : 0;
    INFO("U+" << std::hex << std::uint32_t(cp));
    REQUIRE(fold::piece_char_at(s.data(), s.data() + s.size()) == expected);
    pieces += expected != 0;
  }
  CHECK(pieces == 18);                          // 王 后 後 车 車 象 马 馬 and the ten figurines of K Q R B N
  std::string cut = utf8(0x9A6C).substr(0, 2);  // 马 cut by the end
  CHECK(fold::piece_char_at(cut.data(), cut.data() + cut.size()) == 0);
}

TEST_CASE("zh speed paths: the UTF-8 check keeps what the standard's table keeps", "[pgn][zh]") {
  // Every lead byte, every second byte and telling third bytes, at the start of a
  // block, in its middle and cut by the end, among Chinese movetext.
  const std::string before = "1. e4 e5 2. 马 f3 马 c6 3. 象 b5 ", after = " 后 e5 王 e2 车 a1 and more ASCII text";
  const unsigned char thirds[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE5, 0xFF};
  for (unsigned b0 = 0x80; b0 <= 0xFF; ++b0)
    for (unsigned b1 = 0; b1 <= 0xFF; ++b1)
      for (unsigned char b2 : thirds) {
        std::string seq{char(b0), char(b1), char(b2), char(0x80)};
        for (const std::string& s : {before + seq + after, seq.substr(0, 3) + after, before + seq.substr(0, 2)}) {
          std::size_t got = pgn::detail::utf8_valid_prefix(s.data(), s.size());
          if (got != well_formed_prefix(s)) {
            INFO("bytes " << std::hex << b0 << " " << b1 << " " << unsigned(b2) << " in '" << s << "'");
            REQUIRE(got == well_formed_prefix(s));
          }
        }
      }
  // Text of random characters and bytes, as a file with a few bad bytes has.
  std::mt19937 rng(16);
  const char32_t chars[] = {'e', '4', ' ', 0x9A6C, 0x540E, 0x2658, 0xFF11, 0x00BD, 0xD7FF, 0xE000, 0x0800, 0xFFFD};
  for (int k = 0; k < 2000; ++k) {
    std::string s;
    while (s.size() < 80)
      s += rng() % 40 == 0 ? std::string(1, char(rng() % 256)) : utf8(chars[rng() % std::size(chars)]);
    REQUIRE(pgn::detail::utf8_valid_prefix(s.data(), s.size()) == well_formed_prefix(s));
  }
}

TEST_CASE("zh speed paths: the chunker cuts Chinese movetext into the same games at any block size", "[pgn][zh]") {
  // Results of every form right after Chinese moves and figurines, games without tags
  // on one line, and a comment holding result words: ½ 和 白 黑 share their first bytes
  // with 后 王 马, which must not end a game.
  std::string text =
      "[Event \"a\"]\n\n1. e4 e5 2. 马 f3 马 c6 3. 后 h5 王 e7 和棋\n\n"
      "[Event \"b\"]\n\n1. ♘f3 ♞f6 2. ♕ h5 {白胜 黑胜 和棋 ½-½ 后 王} 白胜\n"
      "1. 马f3 马f6 黑胜 1. 王车短易位 马c6 ½-½ 1. 马 f3 和局 1. 马 f3 白方胜利\n"
      "1. 馬 f3 馬 c6 2. 車 g1 黑方胜利\n[Event \"c\"]\n\n1. e4 e5 2. 马 f3 *\n";
  text += first_games(sample("world-championships-zh.pgn"), 40);
  Chunks whole = chunks(text, std::size_t{1} << 20);
  REQUIRE(whole.games.size() == 9 + 40);
  CHECK(whole.results[0] == "1/2-1/2");
  CHECK(whole.results[1] == "1-0");
  for (std::size_t block : {1, 2, 3, 5, 16, 17, 31, 64, 100, 4096}) {
    INFO("block size " << block);
    Chunks part = chunks(text, block);
    CHECK(part.games == whole.games);
    CHECK(part.results == whole.results);
  }
}

TEST_CASE("zh speed paths: the sample games cut into the same games and results in Chinese as in English",
          "[pgn][zh]") {
  Chunks english = chunks(sample("world-championships.pgn"), std::size_t{1} << 20);
  Chunks chinese = chunks(sample("world-championships-zh.pgn"), std::size_t{1} << 20);
  REQUIRE(english.games.size() == 1042);
  CHECK(chinese.games.size() == english.games.size());
  CHECK(chinese.results == english.results);
}

// The readings the reader hands on with its tokens, each against the general reading of
// the token: of a token with Chinese words or figurines, its words folded to SAN
// (fold_words) and read as SAN; of any other, read_move's first reading with the input's
// notation preferred. A lettered reading (Sf3: the piece left to the game's table) gets
// its piece as the replayer gives it.
struct HandedOn : pgn::Visitor {
  const Notation* table = nullptr;
  int tokens = 0, wide = 0, lettered = 0;
  std::string wrong;
  pgn::Visit san_move(std::string_view token, const San& san, std::uint64_t) override {
    ++tokens;
    San got = san;
    if (got.piece == NoPieceType) {
      ++lettered;
      got.piece = letter_piece(*table, token[0]);
    }
    std::optional<San> general = general_reading(token);
    if ((!general || !same_reading(got, *general)) && wrong.empty()) wrong = std::string(token);
    return pgn::Visit::Continue;
  }
  std::optional<San> general_reading(std::string_view token) {
    if (std::any_of(token.begin(), token.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
      ++wide;
      bool piece_word = false;
      auto san = parse_san(fold::fold_words(token, piece_word));
      return san ? std::optional<San>(*san) : std::nullopt;
    }
    auto readings = read_move(token, table);
    return readings ? std::optional<San>(readings->readings.front().san) : std::nullopt;
  }
  static bool same_reading(const San& a, const San& b) {
    return a.kind == b.kind && a.piece == b.piece && a.from_file == b.from_file && a.from_rank == b.from_rank &&
           a.to == b.to && a.promotion == b.promotion && a.capture == b.capture && a.suffix == b.suffix;
  }
};

TEST_CASE("zh speed paths: every reading the reader hands on is its token's general reading, in every form",
          "[pgn][zh]") {
  std::ifstream tsv(QIPU_TEST_DATA "/notation/zh-forms.tsv");
  std::string line, forms;
  std::getline(tsv, line);  // the heading
  while (std::getline(tsv, line)) {
    std::vector<std::string> f = split(line, '\t');  // description, [moves before,] form, SAN
    if (f.size() == 3) f.insert(f.begin() + 1, "");
    forms += "[Event \"" + f[0] + "\"]\n\n" + f[1] + " " + f[2] + " *\n\n";
  }
  const std::string english = first_games(sample("world-championships.pgn"), 150);
  struct Input {
    std::string name, pgn;
    const Notation* table;
  };
  std::vector<Input> inputs = {
      {"zh-forms.tsv", forms, find_notation("zh")},
      {"chinese.pgn", sample("chinese.pgn"), find_notation("zh")},
      {"classics.pgn", sample("classics.pgn"), nullptr},
      {"world-championships-zh.pgn", sample("world-championships-zh.pgn"), find_notation("zh")},
      {"world-championships.pgn", sample("world-championships.pgn"), nullptr}};
  for (const char* code : {"zh", "zh-Hant", "fan", "de"})
    for (bool spaced : {true, false}) {
      const Notation* table = find_notation(code);
      inputs.push_back({std::string(code) + (spaced ? " spaced" : ""), converted(english, *table, spaced), table});
    }
  for (const Input& in : inputs) {
    INFO(in.name);
    HandedOn h;
    h.table = in.table;
    pgn::read_pgn(*pgn::memory_source(in.pgn), h, game::replay_reader_options());
    CHECK(h.wrong == "");
    CHECK(h.tokens > 0);
    if (in.name == "de") CHECK(h.lettered > 0);
    if (in.table && in.table->code != "de") CHECK(h.wide > 0);
  }
  // And replayed, each converted collection is the English one.
  std::string expected = replayed(english);
  for (const Input& in : inputs)
    if (in.name.find(' ') != std::string::npos) {
      INFO(in.name);
      CHECK(first_difference(replayed(in.pgn), expected) == "");
    }
}

}  // namespace test_zh_speed_paths
