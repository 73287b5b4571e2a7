// qipu filter: each criterion and output option against answers found another way (a
// scan of the tags here, positions from convert's replay as FENs and UCI moves,
// pgn-extract's own output where it means the same), and the library's criteria.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "cli_util.hpp"
#include "qipu/game/criteria.hpp"
#include "qipu/game/names.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_filter {

using namespace cli_test;
using namespace qipu;

namespace {

const std::string Sample = QIPU_SOURCE_DIR "/data/world-championships.pgn";  // 1,042 games, all valid
const std::string EcoFile = "/usr/share/pgn-extract/eco.pgn";

using TagMap = std::map<std::string, std::string>;

// The tags of each game in a PGN file, read with a regular expression, not with qipu.
std::vector<TagMap> scan_tags(const std::string& path) {
  std::vector<TagMap> games;
  static const std::regex tag_line(R"re(^\[(\w+) "(.*)"\]\r?$)re");
  bool in_tags = false;
  for (const auto& line : lines_of(slurp(path))) {
    std::smatch m;
    if (std::regex_match(line, m, tag_line)) {
      if (!in_tags) games.emplace_back();
      in_tags = true;
      games.back()[m[1]] = m[2];
    } else {
      in_tags = false;
    }
  }
  return games;
}

template <class F>
std::size_t count_if_games(const std::vector<TagMap>& games, F&& f) {
  return std::size_t(std::count_if(games.begin(), games.end(), f));
}

bool has(const TagMap& g, const std::string& tag, const std::string& part) {
  auto it = g.find(tag);
  return it != g.end() && lower(it->second).find(lower(part)) != std::string::npos;
}

int elo(const TagMap& g, const std::string& tag) {
  auto it = g.find(tag);
  return it == g.end() || it->second.empty() ? -1 : std::atoi(it->second.c_str());
}

std::size_t count_of(const std::string& args) {
  Run r = run_qipu("filter --count " + args);
  INFO(args << "\n" << r.err);
  REQUIRE(r.code <= 1);
  return std::size_t(std::stoull(r.out));
}

// FEN lines of every game (convert --to fen: a blank line between games).
std::vector<std::vector<std::string>> fens_by_game(const std::string& path) {
  std::vector<std::vector<std::string>> games(1);
  for (const auto& l : lines_of(run_qipu("convert --to fen " + path).out)) {
    if (l.empty())
      games.emplace_back();
    else
      games.back().push_back(l);
  }
  return games;
}

// "KRPvKR" of a FEN's board field, pieces in the order K Q R B N P.
std::string material_of(const std::string& fen) {
  std::string w, b;
  for (char p : std::string("KQRBNP")) {
    auto board = fen.substr(0, fen.find(' '));
    w.append(std::size_t(std::count(board.begin(), board.end(), p)), p);
    b.append(std::size_t(std::count(board.begin(), board.end(), char(std::tolower(p)))), p);
  }
  return w + "v" + b;
}

fs::path write_text(const std::string& name, const std::string& text) {
  fs::path p = temp_dir("filter") / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

}  // namespace

TEST_CASE("filter: criteria in the library", "[filter]") {
  // lichess's own examples of its rule: base + 40 × increment seconds.
  CHECK(game::speed_of("15+0") == "ultrabullet");
  CHECK(game::speed_of("60+0") == "bullet");
  CHECK(game::speed_of("120+1") == "bullet");  // 160 s
  CHECK(game::speed_of("180+0") == "blitz");
  CHECK(game::speed_of("180+2") == "blitz");  // 260 s
  CHECK(game::speed_of("300+3") == "blitz");  // 420 s
  CHECK(game::speed_of("600+0") == "rapid");
  CHECK(game::speed_of("900+10") == "rapid");  // 1300 s
  CHECK(game::speed_of("1800+0") == "classical");
  CHECK(game::speed_of("40/7200:3600") == "classical");
  CHECK(game::speed_of("-") == "correspondence");
  CHECK(game::speed_of("?").empty());
  CHECK(game::name_matches("Kasparov, Garry", "KASPAROV", game::NameMatch::Substring));
  CHECK(!game::name_matches("Kasparov, Garry", "kasparov", game::NameMatch::Exact));
  CHECK(game::name_matches("Карпов", "КАРПОВ", game::NameMatch::Exact));
  CHECK(game::name_matches("Kasparov, Garry", "^kas.*garry$", game::NameMatch::Regex));
  game::Criteria c;
  c.eco = "Z99";
  REQUIRE(game::check_criteria(c));
  CHECK(game::check_criteria(c)->criterion == "eco");
  c = {};
  c.moves = "1.e4 e4";
  CHECK(game::check_criteria(c)->criterion == "moves");
  c = {};
  c.regex = true;
  c.white = "(";
  CHECK(game::check_criteria(c)->criterion == "white");
}

TEST_CASE("filter: tag criteria count what a scan of the tags counts", "[filter]") {
  auto games = scan_tags(Sample);
  REQUIRE(games.size() == 1042);
  const std::string s = " " + Sample;
  CHECK(count_of(Sample) == games.size());
  CHECK(count_of("--white kasparov" + s) == count_if_games(games, [](auto& g) { return has(g, "White", "kasparov"); }));
  CHECK(count_of("--black Karpov" + s) == count_if_games(games, [](auto& g) { return has(g, "Black", "karpov"); }));
  auto tal = count_if_games(games, [](auto& g) { return has(g, "White", "tal") || has(g, "Black", "tal"); });
  CHECK(count_of("--player Tal" + s) == tal);
  CHECK(count_of("--not --player Tal" + s) == games.size() - tal);
  CHECK(count_of("--player '^Tal, ' --regex" + s) == count_if_games(games, [](auto& g) {
          return g.at("White").rfind("Tal, ", 0) == 0 || g.at("Black").rfind("Tal, ", 0) == 0;
        }));
  CHECK(count_of("--event 'World Championship 1990'" + s) ==
        count_if_games(games, [](auto& g) { return has(g, "Event", "World Championship 1990"); }));
  CHECK(count_of("--site moscow" + s) == count_if_games(games, [](auto& g) { return has(g, "Site", "moscow"); }));
  CHECK(count_of("--round 5" + s) == count_if_games(games, [](auto& g) { return g.at("Round") == "5"; }));
  CHECK(count_of("--result decisive" + s) ==
        count_if_games(games, [](auto& g) { return g.at("Result") == "1-0" || g.at("Result") == "0-1"; }));
  CHECK(count_of("--result 0-1" + s) == count_if_games(games, [](auto& g) { return g.at("Result") == "0-1"; }));
  CHECK(count_of("--date-from 1960 --date-to 1972" + s) == count_if_games(games, [](auto& g) {
          auto y = g.at("Date").substr(0, 4);
          return y >= "1960" && y <= "1972";
        }));
  CHECK(count_of("--min-elo 2700" + s) ==
        count_if_games(games, [](auto& g) { return elo(g, "WhiteElo") >= 2700 || elo(g, "BlackElo") >= 2700; }));
  CHECK(count_of("--min-elo 2700 --both-elo" + s) ==
        count_if_games(games, [](auto& g) { return elo(g, "WhiteElo") >= 2700 && elo(g, "BlackElo") >= 2700; }));
  CHECK(count_of("--elo-diff 10" + s) == count_if_games(games, [](auto& g) {
          return elo(g, "WhiteElo") >= 0 && elo(g, "BlackElo") >= 0 &&
                 std::abs(elo(g, "WhiteElo") - elo(g, "BlackElo")) <= 10;
        }));
  CHECK(count_of("--tag ECO=B33" + s) ==
        count_if_games(games, [](auto& g) { return g.count("ECO") && g.at("ECO") == "B33"; }));
  CHECK(count_of("--tag 'Opening~^Queen' --not --tag ECO=D37" + s) == count_if_games(games, [](auto& g) {
          return g.count("Opening") && g.at("Opening").rfind("Queen", 0) == 0 &&
                 !(g.count("ECO") && g.at("ECO") == "D37");
        }));
}

TEST_CASE("filter: time control and speed", "[filter]") {
  std::string text;
  const std::vector<std::pair<std::string, std::string>> tcs = {
      {"60+0", "bullet"},       {"180+2", "blitz"},      {"300+0", "blitz"},     {"600+5", "rapid"},
      {"1800+20", "classical"}, {"-", "correspondence"}, {"15+0", "ultrabullet"}};
  for (const auto& [tc, speed] : tcs)
    text += "[Event \"" + speed + "\"]\n[TimeControl \"" + tc + "\"]\n\n1. e4 e5 *\n\n";
  auto p = write_text("tc.pgn", text).string();
  CHECK(count_of("--speed blitz " + p) == 2);
  CHECK(count_of("--speed bullet " + p) == 1);
  CHECK(count_of("--speed correspondence " + p) == 1);
  CHECK(count_of("--time-control 600+5 " + p) == 1);
  CHECK(count_of("--not --speed blitz " + p) == tcs.size() - 2);
}

TEST_CASE("filter: moves, positions and material against convert's replay", "[filter]") {
  auto fens = fens_by_game(Sample);
  REQUIRE(fens.size() == 1042);
  // 1.d4 d5 2.c4 e6 3.Nc3 Nf6, often reached by another order: board, side and castling
  // rights, no en passant square to differ on.
  const std::string qgd = "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq";
  std::size_t reach = 0, exact = 0;
  auto uci = lines_of(run_qipu("convert --to uci " + Sample).out);
  REQUIRE(uci.size() == 1042);
  for (std::size_t i = 0; i < fens.size(); ++i) {
    reach += std::any_of(fens[i].begin(), fens[i].end(), [&](auto& f) { return f.rfind(qgd, 0) == 0; });
    exact += uci[i].rfind("d2d4 d7d5 c2c4 e7e6 b1c3 g8f6", 0) == 0;
  }
  REQUIRE(reach > exact);
  CHECK(count_of("--moves '1.d4 d5 2.c4 e6 3.Nc3 Nf6' " + Sample) == exact);
  CHECK(count_of("--moves '1.d4 d5 2.c4 e6 3.马c3 马f6' " + Sample) == exact);
  CHECK(count_of("--moves '1.d4 d5 2.c4 e6 3.Nc3 Nf6' --transpose " + Sample) == reach);
  CHECK(count_of("--fen '" + qgd + " - 2 4' " + Sample) == reach);
  // Material held for N plies, counted from the FENs.
  const std::string target = "KRPPvKRP";
  auto held = [&](std::size_t n) {
    return std::size_t(std::count_if(fens.begin(), fens.end(), [&](auto& g) {
      std::size_t run = 0, best = 0;
      for (auto& f : g) best = std::max(best, run = material_of(f) == target ? run + 1 : 0);
      return best >= n;
    }));
  };
  REQUIRE(held(1) > held(8));
  CHECK(count_of("--material RPPvRP " + Sample) == held(1));
  CHECK(count_of("--material KRPPvKRP --stable 8 " + Sample) == held(8));
  // Plies: the number of UCI moves.
  CHECK(count_of("--plies 60-80 " + Sample) == std::size_t(std::count_if(uci.begin(), uci.end(), [](auto& l) {
          auto n = std::count(l.begin(), l.end(), ' ') + (l.empty() ? 0 : 1);
          return n >= 60 && n <= 80;
        })));
}

TEST_CASE("filter: openings as qipu eco classifies them", "[filter]") {
  if (!fs::exists(EcoFile)) return;
  auto lines = lines_of(run_qipu("eco " + Sample).out);
  REQUIRE(lines.size() == 1042);
  std::size_t sicilian = 0, b9 = 0;
  for (const auto& l : lines) {
    auto f = l.find('\t', l.find('\t') + 1);
    std::string eco = l.substr(f + 1, 3);
    b9 += eco >= "B90" && eco <= "B99";
    sicilian += lower(l.substr(f + 1)).find("sicilian") != std::string::npos;
  }
  REQUIRE(b9 > 0);
  CHECK(count_of("--eco B90-B99 " + Sample) == b9);
  CHECK(count_of("--opening sicilian " + Sample) == sicilian);
  // --add-eco writes the same codes.
  std::string out = run_qipu("filter --seven-tags --add-eco " + Sample).out;
  auto games = pgn_games(out);
  REQUIRE(games.size() == lines.size());
  for (std::size_t i = 0; i < games.size(); i += 97) {
    auto f = lines[i].find('\t', lines[i].find('\t') + 1);
    std::string eco = lines[i].substr(f + 1, 3);
    if (eco != "\t\t") CHECK(contains(games[i], "[ECO \"" + eco + "\"]"));
  }
  // With --to zh, the Chinese names qipu eco --to zh gives (ECO, opening, variation).
  auto zh_lines = lines_of(run_qipu("eco --to zh " + Sample).out);
  auto zh_games = pgn_games(run_qipu("filter --seven-tags --add-eco --to zh " + Sample).out);
  REQUIRE(zh_games.size() == zh_lines.size());
  std::size_t named = 0;
  for (std::size_t i = 0; i < zh_games.size(); i += 41) {
    auto f = split(zh_lines[i], '\t');  // file:game, players, ECO, opening, variation
    REQUIRE(f.size() == 5);
    if (f[2].empty()) continue;
    ++named;
    CHECK(contains(zh_games[i], "[Opening \"" + f[3] + "\"]"));
    if (!f[4].empty()) CHECK(contains(zh_games[i], "[Variation \"" + f[4] + "\"]"));
    CHECK(static_cast<unsigned char>(f[3][0]) >= 0xE0);  // a Chinese name, not the English one
  }
  CHECK(named > 10);
}

TEST_CASE("filter: outcome criteria", "[filter]") {
  auto mates = write_text("mates.pgn",
                          "[Event \"fool\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n"
                          "[Event \"open\"]\n[Result \"*\"]\n\n1. e4 {a comment} e5 (1... c5) *\n\n"
                          "[Event \"bad\"]\n[Result \"*\"]\n\n1. e4 e4 *\n\n")
                   .string();
  // pgn-extract's --checkmate finds the same games.
  Run pe = shell("PATH=$PATH:/usr/games pgn-extract -s --checkmate " + mates);
  CHECK(pgn_games(pe.out).size() == count_of("--termination checkmate " + mates));
  CHECK(count_of("--termination checkmate " + mates) == 1);
  CHECK(count_of("--valid " + mates) == 2);
  CHECK(count_of("--invalid " + mates) == 1);
  CHECK(count_of("--with-comments " + mates) == 1);
  CHECK(count_of("--with-variations " + mates) == 1);
  Run fixed = run_qipu("filter --fix-result --add-termination --add-plycount --event fool " + mates);
  CHECK(contains(fixed.out, "[Result \"0-1\"]"));
  CHECK(contains(fixed.out, "Qh4# 0-1"));
  CHECK(contains(fixed.out, "[Termination \"checkmate\"]"));
  CHECK(contains(fixed.out, "[PlyCount \"4\"]"));
  CHECK(contains(fixed.err, "corrected to 0-1"));
}

TEST_CASE("filter: no criteria writes what convert writes, and filter | filter is the same", "[filter]") {
  Run f = run_qipu("filter " + Sample);
  Run c = run_qipu("convert --to en " + Sample);
  REQUIRE(f.code == 0);
  CHECK(f.out == c.out);
  CHECK(run_qipu("filter --to zh " + Sample).out == run_qipu("convert --to zh " + Sample).out);
  // JSON of the games chosen is convert's JSON of the PGN written, but for the game's
  // number (in its input) and the lines of messages.
  auto no_number = [](const std::string& json) {
    std::string out;
    for (const auto& l : lines_of(json)) out += l.substr(l.find(',')) + "\n";
    return out;
  };
  CHECK(no_number(run_qipu("filter --to json --player Fischer " + Sample).out) ==
        no_number(run_qipu("filter --player Fischer " + Sample + " | \"" QIPU_BINARY "\" convert --to json -").out));
  auto once = run_qipu("filter --player Carlsen --no-comments " + Sample).out;
  CHECK(shell("\"" QIPU_BINARY "\" filter --player Carlsen " + Sample + " | \"" QIPU_BINARY "\" filter -").out ==
        run_qipu("filter --player Carlsen " + Sample).out);
  CHECK(run_qipu("filter --jobs 1 --player Carlsen " + Sample).out ==
        run_qipu("filter --jobs 2 --player Carlsen " + Sample).out);
  // Every input form check reads.
  auto dir = temp_dir("filter");
  REQUIRE(shell("gzip -c " + Sample + " > " + (dir / "s.pgn.gz").string() + " && zstd -q -f " + Sample + " -o " +
                (dir / "s.pgn.zst").string())
              .code == 0);
  CHECK(run_qipu("filter --player Carlsen " + (dir / "s.pgn.gz").string()).out == once);
  CHECK(run_qipu("filter --player Carlsen " + (dir / "s.pgn.zst").string()).out == once);
  CHECK(shell("\"" QIPU_BINARY "\" filter --player Carlsen - < " + Sample).out == once);
}

TEST_CASE("filter: stripping, as pgn-extract -C -N -V strips", "[filter]") {
  const std::string annotated = data("annotated.pgn");
  Run pe =
      shell("PATH=$PATH:/usr/games pgn-extract -s -C -N -V " + annotated + " | \"" QIPU_BINARY "\" convert --to en -");
  Run q = run_qipu("filter --no-comments --no-nags --no-variations " + annotated);
  CHECK(q.out == pe.out);
  CHECK(!contains(q.out, "{"));
  auto clocks =
      write_text("clk.pgn", "[Event \"clk\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%eval 0.2] [%clk 0:02:59] good } *\n\n")
          .string();
  Run c = run_qipu("filter --no-clock " + clocks);
  CHECK(!contains(c.out, "%clk"));
  CHECK(!contains(c.out, "%eval"));
  CHECK(contains(c.out, "e5 {good}"));
  // Seven tags, and the ply limit as convert's UCI moves give it.
  Run seven = run_qipu("filter --seven-tags " + Sample);
  CHECK(!contains(seven.out, "[ECO "));
  CHECK(!contains(seven.out, "[WhiteElo "));
  auto full = lines_of(run_qipu("convert --to uci " + Sample).out);
  auto cut = lines_of(run_qipu("filter --ply-limit 10 --to uci " + Sample).out);
  REQUIRE(full.size() == cut.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    std::string first10;
    std::istringstream in(full[i]);
    std::string m;
    for (int n = 0; n < 10 && in >> m; ++n) first10 += (first10.empty() ? "" : " ") + m;
    CHECK(cut[i] == first10);
  }
}

TEST_CASE("filter: duplicates and split", "[filter]") {
  auto dir = temp_dir("filter");
  auto twice = (dir / "twice.pgn").string();
  shell("cat " + Sample + " " + Sample + " > " + twice);
  std::string once = run_qipu("filter " + Sample).out;
  Run d = run_qipu("filter --dedup --duplicates " + (dir / "dups.pgn").string() + " " + twice);
  CHECK(d.out == once);
  CHECK(slurp((dir / "dups.pgn").string()) == once);
  // Parts concatenated in order are the unsplit output.
  fs::remove_all(dir / "parts");
  REQUIRE(run_qipu("filter --split 100 -o " + (dir / "parts").string() + " " + Sample).code == 0);
  std::vector<fs::path> parts;
  for (auto& e : fs::directory_iterator(dir / "parts")) parts.push_back(e.path());
  std::sort(parts.begin(), parts.end());
  CHECK(parts.size() == 11);
  std::string joined;
  for (auto& p : parts) joined += slurp(p.string());
  CHECK(joined == once);
  fs::remove_all(dir / "byeco");
  REQUIRE(run_qipu("filter --split-by event -o " + (dir / "byeco").string() + " " + Sample).code == 0);
  std::size_t games = 0;
  for (auto& e : fs::directory_iterator(dir / "byeco")) games += pgn_games(slurp(e.path().string())).size();
  CHECK(games == 1042);
  // Never onto an input.
  auto copy = (dir / "copy.pgn").string();
  fs::copy_file(Sample, copy, fs::copy_options::overwrite_existing);
  CHECK(run_qipu("filter -o " + copy + " " + copy).code == 2);
  CHECK(slurp(copy) == slurp(Sample));
}

TEST_CASE("filter: bad criteria fail before reading, with search's messages", "[filter]") {
  for (std::string bad :
       {"--eco Z99", "--fen 'not a fen'", "--moves '1.e4 e4'", "--date-from 19x0", "--material KRXvK"}) {
    Run f = run_qipu("filter " + bad + " /nonexistent/games.pgn");
    Run s = run_qipu("search --db /nonexistent/x.db " + bad);
    INFO(bad << "\n" << f.err << s.err);
    CHECK(f.code == 2);
    CHECK(s.code == 2);
    CHECK(!contains(f.err, "nonexistent"));
    CHECK(f.err.substr(f.err.find(':')) == s.err.substr(s.err.find(':')));
  }
  CHECK(run_qipu("filter --not " + Sample).code == 2);
}

TEST_CASE("filter: pgnmentor files against a tag scan and pgn-extract", "[filter][corpus]") {
  QIPU_NEEDS_CORPORA("real/pgnmentor/data__pgn__Anand.pgn", "real/pgnmentor/data__pgn__Carlsen.pgn");
  auto dir = temp_dir("filter");
  auto both = write_pgnmentor(dir / "ac.pgn", {"Anand", "Carlsen"}).string();
  auto games = scan_tags(both);
  CHECK(count_of(both) == games.size());
  // The scan finds the name anywhere: --substring means the same ("anand" is in Praggnanandhaa).
  CHECK(count_of("--substring --player carlsen " + both) ==
        count_if_games(games, [](auto& g) { return has(g, "White", "carlsen") || has(g, "Black", "carlsen"); }));
  CHECK(count_of("--substring --white anand --black carlsen " + both) ==
        count_if_games(games, [](auto& g) { return has(g, "White", "anand") && has(g, "Black", "carlsen"); }));
  // By words (the default), Praggnanandhaa's games drop out, and only they.
  CHECK(count_of("--white anand --black carlsen " + both) == count_if_games(games, [](auto& g) {
          return has(g, "White", "anand") && !has(g, "White", "praggnanandhaa") && has(g, "Black", "carlsen");
        }));
  // The games both files hold (their matches) are duplicates, as pgn-extract -D finds them
  // too when the roster agrees (pgn-extract compares moves only: it drops more).
  std::size_t dedup = count_of("--dedup " + both);
  CHECK(dedup < games.size());
  CHECK(dedup >= pgn_games(shell("PATH=$PATH:/usr/games pgn-extract -s -D " + both).out).size());
  // Checkmates: pgn-extract's --checkmate means the same.
  CHECK(count_of("--termination checkmate " + both) ==
        pgn_games(shell("PATH=$PATH:/usr/games pgn-extract -s --checkmate " + both).out).size());
}

}  // namespace test_filter
