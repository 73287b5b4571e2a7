// An event's standings (db/standings.hpp): moved here from qipu stats so that the web
// server computes the same table.
#include "qipu/db/standings.hpp"

#include <algorithm>

#include "qipu/db/search.hpp"
#include "qipu/db/summary.hpp"

namespace qipu::db {

std::optional<EventRef> find_event(Connection& c, const std::string& name, std::vector<EventRef>* candidates) {
  auto exact = c.prepare("SELECT id, name FROM event WHERE qipu_fold(name) = ?");
  exact.bind(1, game::fold_name(name));
  if (exact.step()) return EventRef{exact.int64(0), std::string(exact.text(1))};
  auto like = c.prepare("SELECT id, name FROM event WHERE qipu_fold(name) LIKE ? ESCAPE '\\' ORDER BY name LIMIT 21");
  // Built by appending: "%" + s + "%" draws GCC 12's false -Wrestrict (bug 105329) at -O3.
  std::string pattern = "%";
  pattern += escape_like(game::fold_name(name));
  pattern += "%";
  like.bind(1, pattern);
  std::vector<EventRef> found;
  while (like.step()) found.push_back({like.int64(0), std::string(like.text(1))});
  if (found.size() == 1) return found.front();
  if (candidates) *candidates = std::move(found);
  return std::nullopt;
}

namespace {

struct EventGame {
  std::int64_t white, black;
  double white_points;  // 1, ½ or 0; negative when the game has no result
};

std::vector<EventGame> load_event_games(Connection& c, std::int64_t event, std::map<std::int64_t, Entrant>& entrants) {
  GameQuery q = event_games(c, event);
  auto st = c.prepare(
      "SELECT g.white, g.black, g.result, w.name, b.name FROM game g JOIN player w ON w.id = g.white "
      "JOIN player b ON b.id = g.black WHERE " +
      q.where + " ORDER BY g.date_sort, g.id");
  bind_params(st, q);
  std::vector<EventGame> games;
  while (st.step()) {
    std::string_view r = st.text(2);
    double wp = r == "1-0" ? 1 : r == "0-1" ? 0 : r == "1/2-1/2" ? 0.5 : -1;
    games.push_back({st.int64(0), st.int64(1), wp});
    entrants[st.int64(0)].name = st.text(3);
    entrants[st.int64(1)].name = st.text(4);
  }
  return games;
}

// Points first; Sonneborn–Berger then needs every final score: the sum, over games, of
// the opponent's points times the points scored against them.
void score_event(const std::vector<EventGame>& games, std::map<std::int64_t, Entrant>& entrants) {
  auto cell = [](double p) { return p == 1 ? "1" : p == 0 ? "0" : "½"; };
  for (const auto& g : games) {
    if (g.white_points < 0) continue;
    auto& w = entrants[g.white];
    auto& b = entrants[g.black];
    w.points += g.white_points;
    b.points += 1 - g.white_points;
    ++w.games;
    ++b.games;
    w.cells[g.black] += cell(g.white_points);
    b.cells[g.white] += cell(1 - g.white_points);
  }
  for (const auto& g : games) {
    if (g.white_points < 0) continue;
    entrants[g.white].sb += g.white_points * entrants[g.black].points;
    entrants[g.black].sb += (1 - g.white_points) * entrants[g.white].points;
  }
}

}  // namespace

Standings event_standings(Connection& c, std::int64_t event) {
  std::map<std::int64_t, Entrant> by_id;
  auto games = load_event_games(c, event, by_id);
  score_event(games, by_id);
  Standings s;
  s.games = std::int64_t(games.size());
  for (auto& [id, e] : by_id) {
    e.id = id;
    s.entrants.push_back(std::move(e));
  }
  std::stable_sort(s.entrants.begin(), s.entrants.end(), [](const Entrant& x, const Entrant& y) {
    return x.points != y.points ? x.points > y.points : x.sb > y.sb;
  });
  return s;
}

}  // namespace qipu::db
