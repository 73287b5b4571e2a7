// Tests of Chinese where a Chinese reader looks (issue #16): display width from Unicode's
// East Asian Width, tables that stay aligned with Chinese text, the words of --lang zh and
// zh-Hant, its default from QIPU_LANG or the locale, and the openings' Chinese names.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli/lang.hpp"
#include "cli/table.hpp"
#include "cli_util.hpp"
#include "qipu/db/eco.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_lang {

using namespace qipu;
using namespace qipu::cli;
using namespace cli_test;

namespace {

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// The columns before `part` in `line`, by display width; npos when it is not there.
std::size_t column_of(const std::string& line, const std::string& part) {
  auto at = line.find(part);
  return at == std::string::npos ? std::string::npos : display_width(std::string_view(line).substr(0, at));
}

// Games whose players, events and moves have wide, combining and fullwidth characters,
// and one name long enough to be cut.
constexpr const char* WidePgn = R"([Event "全国国际象棋个人锦标赛"]
[Site "北京"]
[Date "2019.05.01"]
[Round "1"]
[White "丁立人"]
[Black "韦奕"]
[Result "1-0"]
[WhiteElo "2805"]
[BlackElo "2730"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1-0

[Event "Ｏｌｙｍｐｉａｄ"]
[Site "?"]
[Date "2018.10.02"]
[Round "2"]
[White "José Raúl Capablanca"]
[Black "居文君"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "中华人民共和国国际象棋甲级联赛常规赛第十二轮第三台"]
[Site "?"]
[Date "2020.01.03"]
[Round "3"]
[White "Carlsen, Magnus"]
[Black "侯逸凡"]
[Result "0-1"]

1. c4 e5 0-1

)";

// A database of those games, imported once.
const fs::path& wide_db() {
  static const fs::path db = [] {
    fs::path dir = temp_dir("lang");
    std::ofstream(dir / "wide.pgn", std::ios::binary) << WidePgn;
    fs::remove(dir / "wide.db");
    Run r = run_qipu("import --db " + quoted(dir / "wide.db") + " " + quoted(dir / "wide.pgn"));
    REQUIRE(r.code == 0);
    return dir / "wide.db";
  }();
  return db;
}

bool eco_file_present() { return fs::exists(db::DefaultEcoFile); }

}  // namespace

TEST_CASE("lang: display width of code points, as Unicode's East Asian Width says", "[lang]") {
  // Expected widths from Python 3.11's unicodedata (Unicode 14): east_asian_width W or F
  // is 2 columns, category Mn or Me (combining) 0, the rest 1.
  struct Known {
    char32_t code_point;
    const char* text;  // the same in UTF-8
    int width;
  };
  const Known known[] = {
      {U'a', "a", 1},        {0x00E9, "é", 1},  // Ambiguous counts 1
      {0x4E2D, "中", 2},                        // W
      {0xFF21, "Ａ", 2},                        // F (fullwidth Latin)
      {0x3000, "\u3000", 2},                    // ideographic space: F
      {0xAC00, "가", 2},                        // W (Hangul)
      {0x1F600, "😀", 2},                        // W
      {0x20000, "𠀀", 2},                       // CJK Extension B: W
      {0xFF61, "｡", 1},                         // H (halfwidth)
      {0x2026, "…", 1},                         // A
      {0x2654, "♔", 1},                         // N
      {0x0301, "\u0301", 0},                    // combining acute accent: Mn
      {0x3099, "\u3099", 0},                    // combining kana voiced mark: Mn (and W)
      {0x200B, "\u200b", 0},                    // zero width space
  };
  for (const auto& k : known) {
    INFO(std::hex << std::uint32_t(k.code_point));
    CHECK(char_width(k.code_point) == k.width);
    CHECK(display_width(k.text) == std::size_t(k.width));
  }
  CHECK(display_width("Ding Liren") == 10);
  CHECK(display_width("丁立人") == 6);
  CHECK(display_width("e\xCC\x81") == 1);  // e + combining acute
  CHECK(display_width("马 f3") == 5);
  CHECK(display_width("\xFF\xFE") == 2);  // not UTF-8: a column a byte
  CHECK(display_width("\xE4\xB8") == 2);  // a cut-off character: likewise
}

TEST_CASE("lang: display width agrees with Python's unicodedata on every code point", "[lang]") {
  // An independent source: Python's copy of the Unicode data, when python3 is there. It
  // lists every assigned code point (controls and private use left out) as runs of one
  // width: W or F 2, combining (Mn, Me) 0, and the zero-width characters qipu gives 0
  // (zero-width spaces and joiners, Hangul medial vowels and final consonants), else 1.
  Run py = shell(
      "python3 -c '\nimport unicodedata as u, sys\nrun = None\n"
      "zero = set(range(0x200B, 0x2010)) | set(range(0x2060, 0x2065)) | {0xFEFF} | set(range(0x1160, 0x1200))\n"
      "def width(c):\n"
      "  ch = chr(c); cat = u.category(ch)\n"
      "  if cat in (\"Cn\", \"Cs\", \"Co\", \"Cc\"): return None\n"
      "  if cat in (\"Mn\", \"Me\") or c in zero: return 0\n"
      "  return 2 if u.east_asian_width(ch) in \"WF\" else 1\n"
      "for c in range(0x110001):\n"
      "  w = width(c) if c < 0x110000 else None\n"
      "  if run and (w != run[2] or c != run[1] + 1):\n"
      "    print(\"%x %x %d\" % tuple(run)); run = None\n"
      "  if w is not None: run = [run[0] if run else c, c, w]\n"
      "print(\"end\")\n' 2>/dev/null");
  if (py.code != 0 || !contains(py.out, "end")) {
    WARN("python3 not found: the sweep over every code point is skipped");
    return;
  }
  std::istringstream in(py.out);
  std::size_t checked = 0, wrong = 0;
  for (std::string first, last; in >> first && first != "end";) {
    int w = 0;
    in >> last >> w;
    for (auto c = char32_t(std::stoul(first, nullptr, 16)); c <= char32_t(std::stoul(last, nullptr, 16)); ++c) {
      ++checked;
      if (char_width(c) != w && wrong++ < 10) FAIL_CHECK(std::hex << std::uint32_t(c) << " is " << w << " wide");
    }
  }
  CHECK(checked > 140000);  // Unicode 14 assigns 144,697 characters
  CHECK(wrong == 0);
}

TEST_CASE("lang: cut keeps whole characters and ends in an ellipsis", "[lang]") {
  CHECK(cut("Kasparov", 8) == "Kasparov");
  CHECK(cut("Kasparov", 5) == "Kasp…");
  CHECK(cut("西西里防御 纳道夫变例", 10) == "西西里防…");       // 8 columns and the ellipsis
  CHECK(display_width(cut("西西里防御 纳道夫变例", 10)) == 9);  // a wide character does not fit in one
  CHECK(cut("e\xCC\x81tude", 3) == "e\xCC\x81t…");              // the accent stays with its letter
  for (std::size_t w = 0; w < 24; ++w) {
    std::string c = cut("全国国际象棋个人锦标赛 José Raúl", w);
    CHECK(valid_utf8(c));
    CHECK(display_width(c) <= w);
  }
  CHECK(pad("丁立人", 8) == "丁立人  ");
}

TEST_CASE("lang: a table keeps its columns aligned by display width", "[lang]") {
  Table t({{"player"}, {"games", 0, 40, true}, {"event", 0, 12}});
  t.add({"丁立人", "12", "全国国际象棋个人锦标赛"});
  t.add({"José Raúl Capablanca", "7", "Ｏｌｙｍｐｉａｄ"});
  t.add({"e\xCC\x81", "1234", "x"});
  std::ostringstream out;
  t.print(out);
  auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 4);
  // The games column ends at the same display column on every line (right-aligned).
  std::set<std::size_t> ends;
  for (const auto& l : {lines[1], lines[2], lines[3]}) {
    auto digits = l.find_last_of("0123456789");
    ends.insert(display_width(l.substr(0, digits + 1)));
  }
  CHECK(ends.size() == 1);
  CHECK(*ends.begin() == display_width(lines[0].substr(0, lines[0].find("games") + 5)));
  // The event column starts at one column, and the long name is cut to 12 with "…".
  std::set<std::size_t> starts = {column_of(lines[0], "event"), column_of(lines[1], "全国"),
                                  column_of(lines[2], "Ｏｌ"), column_of(lines[3], "x")};
  CHECK(starts.size() == 1);
  // Five wide characters and "…": a sixth would make 13 columns.
  CHECK(display_width(lines[1].substr(lines[1].find("全国"))) == 11);
  CHECK(lines[1].ends_with("…"));
  for (const auto& l : lines) CHECK(l.back() != ' ');
}

TEST_CASE("lang: --lang defaults to QIPU_LANG, else the locale, else English", "[lang]") {
  CHECK(lang_from_environment(nullptr, nullptr, nullptr, nullptr) == Lang::En);
  CHECK(lang_from_environment("zh", nullptr, nullptr, "en_US.UTF-8") == Lang::Zh);
  CHECK(lang_from_environment("zh-Hant", nullptr, nullptr, nullptr) == Lang::ZhHant);
  CHECK(lang_from_environment("en", "zh_CN.UTF-8", nullptr, nullptr) == Lang::En);
  CHECK(lang_from_environment("", nullptr, nullptr, "zh_CN.UTF-8") == Lang::Zh);  // empty: unset
  CHECK(lang_from_environment(nullptr, nullptr, nullptr, "zh_TW.UTF-8") == Lang::ZhHant);
  CHECK(lang_from_environment(nullptr, nullptr, nullptr, "zh_HK.Big5") == Lang::ZhHant);
  CHECK(lang_from_environment(nullptr, nullptr, nullptr, "zh_SG.GB18030") == Lang::Zh);
  CHECK(lang_from_environment(nullptr, nullptr, nullptr, "C.UTF-8") == Lang::En);
  // POSIX's order: LC_ALL before LC_MESSAGES before LANG; the first one set decides.
  CHECK(lang_from_environment(nullptr, "C", "zh_CN.UTF-8", "zh_TW.UTF-8") == Lang::En);
  CHECK(lang_from_environment(nullptr, "", "zh_TW.UTF-8", "en_GB.UTF-8") == Lang::ZhHant);
  CHECK(lang_from_code("zh-Hant") == Lang::ZhHant);
  CHECK(!lang_from_code("fr"));
}

TEST_CASE("lang: the words of summaries and results in zh and zh-Hant", "[lang]") {
  CHECK(say(Lang::Zh, "{} games, {} valid, {} invalid, {} warnings", {"3", "2", "1", "0"}) ==
        "3 盘对局，2 盘有效，1 盘无效，0 个警告");
  CHECK(say(Lang::ZhHant, "{} games, {} valid, {} invalid, {} warnings", {"3", "2", "1", "0"}) ==
        "3 盤對局，2 盤有效，1 盤無效，0 個警告");
  CHECK(say(Lang::En, "{} games, {} valid, {} invalid, {} warnings", {"3", "2", "1", "0"}) ==
        "3 games, 2 valid, 1 invalid, 0 warnings");
  CHECK(result_word(Lang::Zh, "1-0") == "白胜");
  CHECK(result_word(Lang::Zh, "0-1") == "黑胜");
  CHECK(result_word(Lang::Zh, "1/2-1/2") == "和棋");
  CHECK(result_word(Lang::ZhHant, "1-0") == "白勝");
  CHECK(result_word(Lang::En, "1-0") == "1-0");
  CHECK(result_word(Lang::Zh, "2-0") == "2-0");  // not a result: as it is
  CHECK(word(Lang::Zh, "no such word") == "no such word");
}

TEST_CASE("lang: the word table: one row a word, traditional converted from simplified", "[lang]") {
  std::set<std::string_view> keys;
  std::string simplified;
  for (const auto& w : all_words()) {
    INFO(w.en);
    CHECK(keys.insert(w.en).second);  // a key once: word() would find only the first
    CHECK(!w.zh.empty());
    CHECK(!w.zh_hant.empty());
    CHECK(std::count(w.en.begin(), w.en.end(), '{') == std::count(w.zh.begin(), w.zh.end(), '{'));
    CHECK(std::count(w.en.begin(), w.en.end(), '{') == std::count(w.zh_hant.begin(), w.zh_hant.end(), '{'));
    simplified += std::string(w.zh) + "\n";
  }
  fs::path dir = temp_dir("lang");
  std::ofstream(dir / "words.txt") << simplified;
  Run cc = shell("opencc -c s2t -i " + quoted(dir / "words.txt") + " 2>/dev/null");
  if (cc.code != 0) {
    WARN("opencc not installed (Debian's opencc): the traditional words are not checked");
    return;
  }
  auto converted = lines_of(cc.out);
  REQUIRE(converted.size() == all_words().size());
  for (std::size_t i = 0; i < converted.size(); ++i) CHECK(all_words()[i].zh_hant == converted[i]);
}

TEST_CASE("lang: check and import summaries in Chinese, messages in English", "[lang]") {
  fs::path dir = temp_dir("lang");
  std::ofstream(dir / "one.pgn") << "[White \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";
  Run zh = run_qipu("check --lang zh " + quoted(dir / "one.pgn"));
  CHECK(zh.code == 1);
  CHECK(contains(zh.out, "1 盘对局，0 盘有效，1 盘无效，0 个警告\n"));
  CHECK(contains(zh.out, "error: game 1 (甲 – 乙), move 2. Ke3: illegal move"));  // the message stays English
  // The default from the environment: QIPU_LANG, else the locale.
  Run env = shell("QIPU_LANG=zh-Hant " + hang_guard + "'" QIPU_BINARY "' check " + quoted(dir / "one.pgn"));
  CHECK(contains(env.out, "1 盤對局，0 盤有效，1 盤無效，0 個警告"));
  Run locale = shell("env -u QIPU_LANG -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 '" QIPU_BINARY "' check " +
                     quoted(dir / "one.pgn"));
  CHECK(contains(locale.out, "1 盘对局，0 盘有效，1 盘无效，0 个警告"));
  Run english = shell("QIPU_LANG=zh '" QIPU_BINARY "' check --lang en " + quoted(dir / "one.pgn"));
  CHECK(contains(english.out, "1 games, 0 valid, 1 invalid, 0 warnings"));
  fs::remove(dir / "one.db");
  Run imp = run_qipu("import --lang zh --db " + quoted(dir / "one.db") + " " + quoted(dir / "one.pgn"));
  CHECK(contains(imp.out, "已导入 0 盘对局到 " + (dir / "one.db").string() + "；跳过 0 盘重复对局；1 盘被拒"));
}

TEST_CASE("lang: search --lang zh keeps its columns aligned with Chinese names", "[lang]") {
  Run r = run_qipu("search --lang zh --db " + quoted(wide_db()));
  REQUIRE(r.code == 0);
  auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 4);
  for (const char* heading : {"编号", "白方", "黑方", "结果", "日期", "赛事", "步数", "开局"})
    CHECK(contains(lines[0], heading));
  CHECK(contains(lines[1], "白胜"));
  CHECK(contains(lines[2], "和棋"));
  CHECK(contains(lines[3], "黑胜"));
  // Each column starts at the same display column on every line: the dates, the events
  // and the ECO codes.
  std::regex date(R"(\d{4}\.\d\d\.\d\d)");
  std::set<std::size_t> date_columns = {column_of(lines[0], "日期")}, event_columns = {column_of(lines[0], "赛事")};
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::smatch m;
    REQUIRE(std::regex_search(lines[i], m, date));
    date_columns.insert(column_of(lines[i], m.str()));
    event_columns.insert(display_width(lines[i].substr(0, std::size_t(m.position() + m.length()))) + 2);
  }
  CHECK(date_columns.size() == 1);
  CHECK(event_columns.size() == 1);
  CHECK(column_of(lines[3], "中华人民共和国") == *event_columns.begin());
  // The long event is cut with an ellipsis to its column's 28; the others are whole.
  CHECK(contains(lines[3], "…"));
  CHECK(contains(lines[2], "Ｏｌｙｍｐｉａｄ"));
  CHECK(contains(lines[2], "José Raúl Capablanca"));
  // In traditional characters.
  Run hant = run_qipu("search --lang zh-Hant --db " + quoted(wide_db()));
  CHECK(contains(hant.out, "編號"));
  CHECK(contains(hant.out, "白勝"));
}

TEST_CASE("lang: stats --lang zh", "[lang]") {
  Run r = run_qipu("stats --lang zh --db " + quoted(wide_db()));
  REQUIRE(r.code == 0);
  CHECK(contains(r.out, "对局：   3\n"));
  CHECK(contains(r.out, "结果："));
  CHECK(contains(r.out, "  白胜  1\n"));
  CHECK(contains(r.out, "对局最多的棋手："));
  Run ev = run_qipu("stats --lang zh-Hant --event 全国 --db " + quoted(wide_db()));
  CHECK(contains(ev.out, "全国国际象棋个人锦标赛：1 盤對局，2 名棋手"));
  CHECK(contains(ev.out, "名次"));
  CHECK(contains(ev.out, "積分"));
}

TEST_CASE("lang: Chinese opening names", "[lang]") {
  auto zh = [](std::string_view o, std::string_view v) { return db::chinese_opening(o, v, db::Script::Simplified); };
  REQUIRE(zh("Sicilian", "Najdorf"));
  CHECK(zh("Sicilian", "Najdorf")->name == "西西里防御");
  CHECK(zh("Sicilian", "Najdorf")->variation == "纳道夫变例");
  CHECK(zh("Sicilian", "Najdorf, Opovcensky variation")->variation == "纳道夫变例");
  CHECK(zh("Sicilian", "Najdorf variation")->variation == "纳道夫变例");
  CHECK(zh("Sicilian defence", "")->name == "西西里防御");
  CHECK(zh("Sicilian", "Kalashnikov")->variation.empty());  // none established: the family alone
  CHECK(zh("Sicilian, Chekhover variation", "")->name == "西西里防御");
  CHECK(zh("Ruy Lopez", "Berlin defence, Rio de Janeiro variation")->variation == "柏林防御");
  CHECK(zh("Petrov's defence", "")->name == "彼得罗夫防御");
  CHECK(zh("Gruenfeld with e3 & Qb3", "")->name == "格林菲尔德防御");
  CHECK(zh("QGD", "Orthodox defence")->name == "拒绝后翼弃兵");
  CHECK(zh("Queen's Gambit", "")->name == "后翼弃兵");
  CHECK(zh("Fred", "")->name == "王兵开局");  // no Chinese name of its own: its family's
  CHECK(!zh("No such opening", ""));
  auto hant = db::chinese_opening("Sicilian", "Najdorf", db::Script::Traditional);
  REQUIRE(hant);
  CHECK(hant->name == "西西里防禦");
  CHECK(hant->variation == "納道夫變例");
  CHECK(db::chinese_opening("QGD", "", db::Script::Traditional)->name == "拒絕后翼棄兵");  // the queen stays 后
}

TEST_CASE("lang: every opening of the ECO table has a Chinese name in both scripts", "[lang]") {
  if (!eco_file_present()) {
    WARN("no " << db::DefaultEcoFile << " (Debian's pgn-extract): nothing to check the table against");
    return;
  }
  // The Opening and Variation tags of every line of the file, read as text.
  std::istringstream in(slurp(db::DefaultEcoFile));
  std::vector<std::pair<std::string, std::string>> lines;
  std::string opening, variation;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[Opening \"", 0) == 0) {
      opening = line.substr(10, line.rfind('"') - 10);
      variation.clear();
    } else if (line.rfind("[Variation \"", 0) == 0) {
      variation = line.substr(12, line.rfind('"') - 12);
    } else if (!line.empty() && line[0] == '1' && !opening.empty()) {
      lines.emplace_back(opening, variation);
      opening.clear();
    }
  }
  REQUIRE(lines.size() > 2000);
  std::size_t with_variation = 0;
  for (const auto& [o, v] : lines) {
    INFO(o << " / " << v);
    auto s = db::chinese_opening(o, v, db::Script::Simplified);
    auto t = db::chinese_opening(o, v, db::Script::Traditional);
    CHECK(s);
    CHECK(t);
    if (!s || !t) continue;
    CHECK(!s->name.empty());
    CHECK(!t->name.empty());
    CHECK(s->variation.empty() == t->variation.empty());
    with_variation += !s->variation.empty();
  }
  CHECK(with_variation > 400);  // the variations most played have their names
}

TEST_CASE("lang: the traditional names are the simplified ones converted", "[lang]") {
  // OpenCC's s2t, except three characters it changes where chess writing does not:
  // 后 (the queen; s2t gives 後) and 里, 托 in transliterated names (裏, 託).
  std::vector<std::array<std::string, 4>> rows;
  std::istringstream in(slurp(QIPU_SOURCE_DIR "/src/db/eco_zh.tsv"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::array<std::string, 4> f;
    std::istringstream fields(line);
    for (auto& x : f) std::getline(fields, x, '\t');
    INFO(line);
    CHECK(std::count(line.begin(), line.end(), '\t') == 3);
    CHECK(!f[2].empty());
    rows.push_back(f);
  }
  REQUIRE(rows.size() > 200);
  auto fix = [](std::string s) {
    for (auto [from, to] : {std::pair{"後", "后"}, {"裏", "里"}, {"託", "托"}})
      for (std::size_t at; (at = s.find(from)) != std::string::npos;) s.replace(at, std::string(from).size(), to);
    return s;
  };
  fs::path dir = temp_dir("lang");
  {
    std::ofstream simplified(dir / "simplified.txt");
    for (const auto& r : rows) simplified << r[2] << "\n";
  }
  Run cc = shell("opencc -c s2t -i " + quoted(dir / "simplified.txt") + " 2>/dev/null");
  if (cc.code == 0) {
    auto converted = lines_of(cc.out);
    REQUIRE(converted.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      INFO(rows[i][2]);
      CHECK(rows[i][3] == fix(converted[i]));
    }
    return;
  }
  WARN("opencc not installed (Debian's opencc): checked with the characters the table uses");
  // s2t of every character of the table that differs, from OpenCC 1.1.6.
  const std::string from =
                        "御开尔弃贝诺莱马达罗兰体麦亚国绝脱维现进欧庞兹纳苏双规变兑换侧鲍闭宁墙汤顿对称鲁宾齐奥盖费别萨"
                        "统汉剑桥击龙劳泽奖赛韦",
                    to = "禦開爾棄貝諾萊馬達羅蘭體麥亞國絕脫維現進歐龐茲納蘇雙規變兌換側鮑閉寧牆湯頓對稱魯賓齊奧蓋費別"
                         "薩統漢劍橋擊龍勞澤獎賽韋";
  std::map<std::string, std::string> map;
  for (std::size_t i = 0, j = 0; i < from.size(); i += 3, j += 3) map[from.substr(i, 3)] = to.substr(j, 3);
  for (const auto& r : rows) {
    std::string expect;
    for (std::size_t i = 0; i < r[2].size();) {
      std::size_t len = static_cast<unsigned char>(r[2][i]) < 0x80 ? 1 : 3;
      std::string ch = r[2].substr(i, len);
      expect += map.count(ch) ? map[ch] : ch;
      i += len;
    }
    INFO(r[2]);
    CHECK(r[3] == expect);
  }
}

TEST_CASE("lang: eco --to zh and explore --lang zh write the Chinese names", "[lang]") {
  if (!eco_file_present()) {
    WARN("no " << db::DefaultEcoFile << ": no classification to name");
    return;
  }
  fs::path dir = temp_dir("lang");
  std::ofstream(dir / "wide.pgn", std::ios::binary) << WidePgn;
  Run eco = run_qipu("eco --to zh " + quoted(dir / "wide.pgn"));
  REQUIRE(eco.code == 0);
  CHECK(contains(eco.out, "丁立人 – 韦奕\tB90\t西西里防御\t纳道夫变例\n"));
  CHECK(contains(eco.out, "Carlsen, Magnus – 侯逸凡\tA20\t英国式开局\t\n"));
  Run hant = run_qipu("eco --lang zh-Hant " + quoted(dir / "wide.pgn"));
  CHECK(contains(hant.out, "\tB90\t西西里防禦\t納道夫變例\n"));
  CHECK(contains(run_qipu("eco " + quoted(dir / "wide.pgn")).out, "\tB90\tSicilian\tNajdorf\n"));

  Run ex = run_qipu("explore --lang zh --db " + quoted(wide_db()) + " --moves '1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4'");
  REQUIRE(ex.code == 0);
  CHECK(contains(ex.out, "1 盘对局：白胜 100.0%，和棋 0.0%，黑胜 0.0%"));
  CHECK(contains(ex.out, "着法"));
  CHECK(contains(ex.out, "马 f6"));  // the moves in Chinese too
  CHECK(contains(ex.out, "丁立人 – 韦奕"));
  Run named = run_qipu("explore --lang zh --db " + quoted(wide_db()) +
                       " --moves '1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6'");
  CHECK(contains(named.out, "开局：B90 西西里防御 纳道夫变例\n"));
  Run search = run_qipu("search --lang zh --db " + quoted(wide_db()) + " --eco B90");
  CHECK(contains(search.out, "西西里防御 纳道夫变例"));
}

}  // namespace test_lang
