// Tests of qipu show and qipu serve's JSON API (#18): the server runs in-process on a free
// port and is asked over HTTP; answers are checked against the command line (convert --to
// fen, search --count, explore --format json) and against facts known from the games.
#include <catch2/catch.hpp>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <csignal>
#include <regex>
#include <thread>

#include "cli_util.hpp"
#include "serve/server.hpp"

// One namespace a file: the test files compile several to a unit (CMakeLists.txt).
namespace test_serve {

using namespace cli_test;
using Json = nlohmann::json;

namespace {

// The first `count` games of the bundled sample (the 1886 match first) in a new database.
struct SampleDb {
  fs::path dir, db, pgn;
  explicit SampleDb(const std::string& name, std::size_t count = 40, const std::string& import_flags = "") {
    dir = fs::temp_directory_path() / ("qipu-serve-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    db = dir / "games.db";
    pgn = write_sample_games(dir / "games.pgn", 0, count);
    REQUIRE(run_qipu("import " + import_flags + " --db \"" + db.string() + "\" \"" + pgn.string() + "\"").code == 0);
  }
  ~SampleDb() { fs::remove_all(dir); }
  // FENs after each ply of game n (from 1) of the file, from qipu convert --to fen.
  [[nodiscard]] std::vector<std::string> fens(int n) const {
    std::string all = run_qipu("convert --to fen \"" + pgn.string() + "\"").out;
    std::vector<std::string> games;
    for (std::size_t at = 0, next; at < all.size(); at = next + 2) {
      next = all.find("\n\n", at);
      if (next == std::string::npos) next = all.size();
      games.push_back(all.substr(at, next - at));
    }
    std::vector<std::string> lines;
    std::istringstream in(games.at(std::size_t(n - 1)));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
};

// qipu serve's server on a free port of 127.0.0.1, serving on a thread of its own.
class TestServer {
 public:
  explicit TestServer(const fs::path& db, bool allow_import = false, int query_ms = 10000)
      : server_(options(db, allow_import, query_ms)) {
    port_ = server_.bind();
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_.run(); });
  }
  ~TestServer() {
    server_.stop();
    thread_.join();
  }
  [[nodiscard]] httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(60);
    return c;
  }
  // GET path: the status and the body as JSON.
  std::pair<int, Json> get(const std::string& path) const {
    auto res = client().Get(path.c_str());
    REQUIRE(res);
    return {res->status, Json::parse(res->body)};
  }

 private:
  static qipu::serve::ServerOptions options(const fs::path& db, bool allow_import, int query_ms) {
    qipu::serve::ServerOptions o;
    o.query_ms = query_ms;
    o.db = db.string();
    o.port = 0;
    o.allow_import = allow_import;
    o.eco_file = "";
    return o;
  }
  qipu::serve::Server server_;
  int port_ = -1;
  std::thread thread_;
};

// The placement field of a FEN read back from show's board of Unicode pieces.
std::string placement_of_board(const std::string& text) {
  static const std::vector<std::pair<std::string, char>> glyphs = {{"♔", 'K'}, {"♕", 'Q'}, {"♖", 'R'}, {"♗", 'B'},
                                                                   {"♘", 'N'}, {"♙", 'P'}, {"♚", 'k'}, {"♛", 'q'},
                                                                   {"♜", 'r'}, {"♝", 'b'}, {"♞", 'n'}, {"♟", 'p'}};
  std::string fen;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 2 || line[0] < '1' || line[0] > '8' || line[1] != ' ') continue;
    std::string row;
    int empty = 0;
    for (std::size_t i = 2; i < line.size();) {
      if (line[i] == ' ') {
        ++i;
        continue;
      }
      char piece = 0;
      for (const auto& [glyph, letter] : glyphs)
        if (line.compare(i, glyph.size(), glyph) == 0) piece = letter;
      if (piece == 0) {
        ++empty;
        i += std::string("·").size();
        continue;
      }
      if (empty) row += std::to_string(empty);
      empty = 0;
      row += piece;
      i += 3;  // every piece glyph is three bytes of UTF-8
    }
    if (empty) row += std::to_string(empty);
    fen += (fen.empty() ? "" : "/") + row;
  }
  return fen;
}

std::string fen_line(const std::string& out) {
  auto at = out.rfind("FEN: ");
  REQUIRE(at != std::string::npos);
  return out.substr(at + 5, out.find('\n', at) - at - 5);
}

}  // namespace

TEST_CASE("show: tags, moves and the board at a ply, as convert --to fen has it", "[serve]") {
  SampleDb s("show", 8);
  auto fens = s.fens(3);
  auto r = run_qipu("show 3 --ply 10 --db \"" + s.db.string() + "\"");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("[White \"Zukertort, Johannes Hermann\"]") != std::string::npos);  // game 3 of the sample
  CHECK(fen_line(r.out) == fens[9]);
  CHECK(placement_of_board(r.out) == fens[9].substr(0, fens[9].find(' ')));
  CHECK(r.out.find("After 5...") != std::string::npos);

  auto last = run_qipu("show 3 --db \"" + s.db.string() + "\"");
  CHECK(fen_line(last.out) == fens.back());
  auto start = run_qipu("show 3 --ply 0 --flip --db \"" + s.db.string() + "\"");
  CHECK(fen_line(start.out) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  CHECK(start.out.find("1  ♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖") != std::string::npos);  // flipped: rank 1 on top, from h to a

  auto zh = run_qipu("show 3 --to zh --style compact --db \"" + s.db.string() + "\"");
  CHECK(std::regex_search(zh.out, std::regex("马x?[a-h][1-8]")));

  auto missing = run_qipu("show 99999 --db \"" + s.db.string() + "\"");
  CHECK(missing.code == 2);
  CHECK(missing.err.find("no game 99999") != std::string::npos);
}

// The total of /api/count for these parameters.
std::int64_t total(TestServer& server, const std::string& params) {
  auto [status, body] = server.get("/api/count?" + params);
  REQUIRE(status == 200);
  return body["total"].get<std::int64_t>();
}

std::vector<std::int64_t> page_ids(const Json& body) {
  std::vector<std::int64_t> ids;
  for (const auto& g : body["games"]) ids.push_back(g["id"].get<std::int64_t>());
  return ids;
}

TEST_CASE(
    "serve: search answers with a page, whether more follow and search --format json's fields, count with the total",
    "[serve]") {
  SampleDb s("search");
  TestServer server(s.db);
  auto [status, body] = server.get("/api/search?player=Zukertort&sort=date&desc=1&limit=5&offset=2");
  REQUIRE(status == 200);
  auto count = run_qipu("search --player Zukertort --count --db \"" + s.db.string() + "\"");
  CHECK(total(server, "player=Zukertort") == std::stoll(count.out));
  CHECK(total(server, "player=Zukertort") == 20);  // the 1886 match, his only one in the sample
  CHECK(body["more"] == true);
  CHECK(server.get("/api/search?player=Zukertort&offset=14&limit=5").second["more"] == true);
  CHECK(server.get("/api/search?player=Zukertort&offset=15&limit=5").second["more"] == false);
  CHECK(server.get("/api/search?player=Zukertort&offset=15&limit=5").second["games"].size() == 5);
  CHECK(server.get("/api/count?player=Zukertort&limit=5").first == 400);  // no paging in a count
  REQUIRE(body["games"].size() == 5);
  for (const auto& g : body["games"]) {
    for (const char* field : {"id", "White", "Black", "Result", "Date", "Event", "ECO", "plies"})
      CHECK(g.contains(field));
    CHECK((g["White"].get<std::string>() + g["Black"].get<std::string>()).find("Zukertort") != std::string::npos);
  }
  CHECK(body["games"][0]["Date"] >= body["games"][4]["Date"]);  // descending by date

  // The player's side and names by words, as qipu search has them.
  for (auto [api, cli] : std::vector<std::pair<std::string, std::string>>{
           {"player=steinitz&outcome=won&color=black", "--player steinitz --won --color black"},
           {"player=stein&substring=1", "--player stein --substring"},
           {"player=stein", "--player stein"}}) {
    auto [side_status, side] = server.get("/api/search?" + api);
    INFO(api);
    REQUIRE(side_status == 200);
    CHECK(total(server, api) == std::stoll(run_qipu("search " + cli + " --count --db \"" + s.db.string() + "\"").out));
    CHECK(side["games"].size() == std::min<std::size_t>(50, std::size_t(total(server, api))));
  }
  auto won = total(server, "player=steinitz&outcome=won");
  CHECK(0 < won);
  CHECK(won < total(server, "player=steinitz"));
  CHECK(total(server, "player=stein") == 0);  // no name has the word "stein"

  // A position search's page in id order reads its matches only up to the page's end: the
  // same games as the whole list's slice, in either order.
  auto moves = server.get("/api/search?moves=1.d4%20d5%202.c4&limit=1000").second;
  auto moves_count = run_qipu("search --moves \"1.d4 d5 2.c4\" --count --db \"" + s.db.string() + "\"");
  CHECK(total(server, "moves=1.d4%20d5%202.c4") == std::stoll(moves_count.out));
  auto all = page_ids(moves);
  REQUIRE(std::int64_t(all.size()) == std::stoll(moves_count.out));
  REQUIRE(all.size() > 6);
  CHECK(moves["more"] == false);
  auto slice = server.get("/api/search?moves=1.d4%20d5%202.c4&limit=3&offset=2").second;
  CHECK(page_ids(slice) == std::vector<std::int64_t>(all.begin() + 2, all.begin() + 5));
  CHECK(slice["more"] == true);
  std::string last = "&limit=3&offset=" + std::to_string(all.size() - 3);
  CHECK(page_ids(server.get("/api/search?moves=1.d4%20d5%202.c4" + last).second) ==
        std::vector<std::int64_t>(all.end() - 3, all.end()));
  CHECK(server.get("/api/search?moves=1.d4%20d5%202.c4" + last).second["more"] == false);
  auto desc = page_ids(server.get("/api/search?moves=1.d4%20d5%202.c4&desc=1&limit=3").second);
  CHECK(desc == std::vector<std::int64_t>(all.rbegin(), all.rbegin() + 3));
}

TEST_CASE("serve: a position search past --query-ms is stopped with 503, replays included", "[serve]") {
  // Without index entries every game is replayed between SQL rows (tests/test_deadline.cpp
  // has the library's side); a zero budget is past before the first replay.
  SampleDb s("deadline", 200, "--no-position-index");
  const std::string ask = "/api/search?moves=1.e4%20e5&transpose=1";
  auto [status, body] = TestServer(s.db, false, 0).get(ask);
  CHECK(status == 503);
  CHECK(body["error"].get<std::string>().find("longer than 0 ms") != std::string::npos);
  auto [in_time, answer] = TestServer(s.db).get(ask);
  REQUIRE(in_time == 200);
  auto count = run_qipu("search --transpose --moves \"1.e4 e5\" --count --db \"" + s.db.string() + "\"");
  CHECK(answer["games"].size() == std::min<std::size_t>(50, std::stoul(count.out)));
  TestServer in_budget(s.db);
  CHECK(total(in_budget, "moves=1.e4%20e5&transpose=1") == std::stoll(count.out));
  CHECK(TestServer(s.db, false, 0).get("/api/count?moves=1.e4%20e5&transpose=1").first == 503);
}

TEST_CASE("serve: bad parameters are 400 with a message naming them", "[serve]") {
  SampleDb s("bad", 4);
  TestServer server(s.db);
  for (const char* path :
       {"/api/search?min-elo=abc", "/api/search?colour=white", "/api/search?sort=password", "/api/search?limit=0",
        "/api/search?result=2-0", "/api/explore?fen=not%20a%20fen", "/api/explore?moves=1.e5",
        "/api/game/1?notation=klingon", "/api/search?date-from=yesterday"}) {
    INFO(path);
    auto [status, body] = server.get(path);
    CHECK(status == 400);
    REQUIRE(body.contains("error"));
    CHECK(!body["error"].get<std::string>().empty());
  }
  CHECK(server.get("/api/search?min-elo=abc").second["error"].get<std::string>().find("min-elo") != std::string::npos);
  CHECK(server.get("/api/search?colour=white").second["error"].get<std::string>().find("colour") != std::string::npos);
}

TEST_CASE("serve: a game by id, moves in any notation with UCI and FEN, unknown ids 404", "[serve]") {
  SampleDb s("game", 8);
  TestServer server(s.db);
  auto fens = s.fens(3);
  auto [status, g] = server.get("/api/game/3");
  REQUIRE(status == 200);
  CHECK(g["tags"]["White"] == "Zukertort, Johannes Hermann");  // game 3 of the sample
  REQUIRE(g["moves"].size() == fens.size());
  for (std::size_t i = 0; i < fens.size(); ++i) CHECK(g["moves"][i]["fen"] == fens[i]);
  CHECK(g["moves"][0]["ply"] == 1);
  CHECK(g["moves"][0]["uci"].get<std::string>().size() >= 4);
  CHECK(g["start_position"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  CHECK(g["pgn"].get<std::string>().rfind("[Event \"World Championship Match 1886\"]", 0) == 0);

  auto zh = server.get("/api/game/3?notation=zh&style=compact").second;
  std::string all;
  for (const auto& m : zh["moves"]) all += m["san"].get<std::string>() + " ";
  CHECK(std::regex_search(all, std::regex("马x?[a-h][1-8]")));
  CHECK(zh["moves"][5]["fen"] == fens[5]);

  for (const char* path : {"/api/game/99999", "/api/game/0", "/api/game/99999999999999999999999"}) {
    INFO(path);
    auto [code, body] = server.get(path);
    CHECK(code == 404);
    CHECK(body["error"].get<std::string>().find("no game") != std::string::npos);
  }
  CHECK(server.get("/api/nothing").first == 404);
}

TEST_CASE("serve: comments, NAGs and variations reach the game's JSON", "[serve]") {
  fs::path dir = fs::temp_directory_path() / ("qipu-serve-notes-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "a.pgn") << "[Event \"Notes\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n"
                                  "1. e4 {best by test} e5 $1 (1... c5 2. Nf3) 2. Nf3 *\n";
  REQUIRE(run_qipu("import --db \"" + (dir / "n.db").string() + "\" \"" + (dir / "a.pgn").string() + "\"").code == 0);
  {
    TestServer server(dir / "n.db");
    auto g = server.get("/api/game/1").second;
    CHECK(g["moves"][0]["comments"] == Json::array({"best by test"}));
    CHECK(g["moves"][1]["nags"] == Json::array({1}));
    REQUIRE(g["moves"][1]["variations"].size() == 1);
    CHECK(g["moves"][1]["variations"][0][0]["san"] == "c5");
    CHECK(g["moves"][1]["variations"][0][1]["san"] == "Nf3");
    CHECK(g["moves"][1]["variations"][0][1]["ply"] == 3);
  }
  fs::remove_all(dir);
}

TEST_CASE("serve: explore has the counts of qipu explore, and the position's legal moves", "[serve]") {
  SampleDb s("explore");
  TestServer server(s.db);
  auto [status, e] = server.get("/api/explore?moves=1.d4%20d5");
  REQUIRE(status == 200);
  auto cli = Json::parse(run_qipu("explore --moves \"1.d4 d5\" --format json --db \"" + s.db.string() + "\"").out);
  CHECK(e["games"] == cli["games"]);
  REQUIRE(e["moves"].size() == cli["moves"].size());
  for (std::size_t i = 0; i < cli["moves"].size(); ++i) {
    CHECK(e["moves"][i]["move"] == cli["moves"][i]["move"]);
    CHECK(e["moves"][i]["games"] == cli["moves"][i]["games"]);
  }
  CHECK(e["legal"].size() == std::stoul(run_qipu("perft \"" + cli["fen"].get<std::string>() + "\" 1").out));
  std::string fen = std::regex_replace(cli["fen"].get<std::string>(), std::regex(" "), "%20");
  auto by_fen = server.get("/api/explore?fen=" + fen).second;
  CHECK(by_fen["games"] == cli["games"]);
  auto start = server.get("/api/explore").second;
  CHECK(start["games"] == 40);
  CHECK(start["legal"].size() == 20);
}

TEST_CASE("serve: event standings with Sonneborn–Berger, as qipu stats", "[serve]") {
  SampleDb s("event", 20);
  TestServer server(s.db);
  auto [status, e] = server.get("/api/event?name=World%20Championship%20Match%201886");
  REQUIRE(status == 200);
  REQUIRE(e["players"].size() == 2);
  // Steinitz beat Zukertort +10 −5 =5: 12½ points; SB 10 × 7½ + 5 × ½ × 7½ = 93.75.
  CHECK(e["players"][0]["name"] == "Steinitz, William");
  CHECK(e["players"][0]["points"] == 12.5);
  CHECK(e["players"][0]["sb"] == 93.75);
  CHECK(e["players"][1]["points"] == 7.5);
  CHECK(e["players"][0]["crosstable"][0] == "x");
  CHECK(e["players"][0]["crosstable"][1].get<std::string>().size() > 20);  // 20 results, ½ being two bytes
  CHECK(server.get("/api/event?name=Nowhere").first == 404);
  CHECK(server.get("/api/event").first == 400);
  auto stats = server.get("/api/stats").second;
  CHECK(stats["games"] == 20);
}

TEST_CASE("serve: import is refused read-only (403), and allowed it reports every error with its place", "[serve]") {
  SampleDb s("import", 2);
  const std::string bad =
      "[Event \"Upload\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n"
      "[Event \"Upload\"]\n[White \"Gamma\"]\n[Black \"Delta\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
  {
    TestServer server(s.db);
    auto res = server.client().Post("/api/import?name=bad.pgn", bad, "application/x-chess-pgn");
    REQUIRE(res);
    CHECK(res->status == 403);
    CHECK(Json::parse(res->body)["error"].get<std::string>().find("--allow-import") != std::string::npos);
  }
  TestServer server(s.db, true);
  auto client = server.client();
  httplib::Headers elsewhere = {{"Origin", "http://evil.example"}};
  auto cross = client.Post("/api/import?name=bad.pgn", elsewhere, bad, "text/plain");
  REQUIRE(cross);
  CHECK(cross->status == 403);  // another site's page, through the user's browser
  auto res = client.Post("/api/import?name=bad.pgn", bad, "application/x-chess-pgn");
  REQUIRE(res);
  REQUIRE(res->status == 202);
  auto job = Json::parse(res->body)["job"].get<int>();
  Json st;
  for (int i = 0; i < 600; ++i) {
    st = server.get("/api/import/" + std::to_string(job)).second;
    if (st["state"] == "done" || st["state"] == "failed") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(st["state"] == "done");
  CHECK(st["imported"] == 1);
  CHECK(st["rejected"] == 1);
  REQUIRE(st["errors"].size() == 1);
  const auto& first = st["errors"][0];
  CHECK(first["game"] == 1);
  CHECK(first["line"] == 6);
  CHECK(first["column"] == 13);  // as qipu check places it: 6:13
  CHECK(first["move"].get<std::string>().find("Ke3") != std::string::npos);
  CHECK(first["code"] == "illegal_move");
  CHECK(first["white"] == "Alpha");
  CHECK(run_qipu("rejects --db \"" + s.db.string() + "\"").out.find("Ke3") != std::string::npos);
  CHECK(server.get("/api/import/99").first == 404);
}

TEST_CASE("serve: the page from memory, nothing from the file system", "[serve]") {
  SampleDb s("files", 2);
  TestServer server(s.db);
  auto c = server.client();
  auto page = c.Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->get_header_value("Content-Type").find("text/html") == 0);
  CHECK(page->body.find("/app.js") != std::string::npos);
  for (const char* path : {"/app.js", "/board.js", "/style.css", "/pieces/wN.svg", "/pieces/bK.svg"}) {
    INFO(path);
    auto r = c.Get(path);
    REQUIRE(r);
    CHECK(r->status == 200);
  }
  for (const char* path : {"/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/CMakeLists.txt", "/web/app.js"}) {
    INFO(path);
    auto r = c.Get(path);
    REQUIRE(r);
    CHECK(r->status != 200);
  }
}

TEST_CASE("serve: reads answer while an upload is imported (WAL, a connection a request)", "[serve]") {
  SampleDb s("wal", 2);
  std::string pgn = slurp(write_sample_games(s.dir / "more.pgn", 2, 600).string());
  TestServer server(s.db, true);
  auto client = server.client();
  auto res = client.Post("/api/import?name=more.pgn", pgn, "application/x-chess-pgn");
  REQUIRE(res);
  REQUIRE(res->status == 202);
  int reads = 0, failed = 0;
  std::string state;
  for (int i = 0; i < 2000 && state != "done" && state != "failed"; ++i) {
    auto [status, body] = server.get("/api/search?player=a&sort=date&limit=5");
    ++reads;
    failed += status != 200;
    state = server.get("/api/import/1").second["state"];
  }
  CHECK(state == "done");
  CHECK(failed == 0);
  CHECK(reads > 0);
  CHECK(total(server, "") == 602);  // the two games, then the 600 uploaded, none a duplicate
}

// The URL line `qipu serve` prints when it listens, from the file its output goes to;
// empty if none came within a minute.
std::string wait_for_url(const fs::path& out) {
  for (int i = 0; i < 600; ++i) {
    std::smatch m;
    std::string text = slurp(out.string());
    if (std::regex_search(text, m, std::regex("http://127\\.0\\.0\\.1:([0-9]+)/"))) return m[0];
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

TEST_CASE("serve: qipu starts qipu-serve in its place, which answers and stops on SIGTERM with exit 0", "[serve]") {
  SampleDb s("program", 12);
  fs::path out = s.dir / "serve.out", pid_file = s.dir / "pid";
  // exec: the shell's pid becomes qipu's, then qipu-serve's.
  Run run;
  std::thread server([&] {
    run = shell("echo $$ > '" + pid_file.string() + "'; exec \"" QIPU_BINARY "\" serve --port 0 --db '" +
                s.db.string() + "' > '" + out.string() + "'");
  });
  std::string url = wait_for_url(out), pid_text = slurp(pid_file.string());
  pid_t pid = pid_text.empty() ? 0 : std::stoi(pid_text);  // written before the exec, so there by now
  std::error_code ec;
  std::string exe = fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec).filename().string();
  std::string answer;
  if (!url.empty()) {
    httplib::Client c(url.substr(0, url.size() - 1));
    c.set_read_timeout(60);
    if (auto res = c.Get("/api/count")) answer = res->body;
  }
  if (pid > 0) kill(pid, url.empty() ? SIGKILL : SIGTERM);
  server.join();
  REQUIRE_FALSE(url.empty());
  CHECK(exe == "qipu-serve");
  CHECK(Json::parse(answer)["total"] == 12);  // the games SampleDb imported
  CHECK(run.code == 0);
  CHECK(run.err.empty());
}

TEST_CASE("serve: qipu loads neither the HTTP library nor OpenSSL, and says so when qipu-serve is missing", "[serve]") {
  // How ldd lists a program's libraries: the dynamic loader prints them and stops.
  Run libs = shell("LD_TRACE_LOADED_OBJECTS=1 \"" QIPU_BINARY "\"");
  REQUIRE(contains(libs.out, "libsqlite3"));
  CHECK_FALSE(contains(libs.out, "httplib"));
  CHECK_FALSE(contains(libs.out, "libssl"));
  CHECK_FALSE(contains(libs.out, "libcrypto"));
  // qipu copied alone: no qipu-serve beside it, nor in ../libexec/qipu/.
  SampleDb s("alone", 2);
  fs::copy_file(QIPU_BINARY, s.dir / "qipu");
  Run r = shell(hang_guard + "'" + (s.dir / "qipu").string() + "' serve --port 0 --db '" + s.db.string() + "'");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "cannot start the server program"));
  CHECK(contains(r.err, "qipu-serve"));
}

}  // namespace test_serve
