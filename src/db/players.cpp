#include "qipu/db/players.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "name_rows.hpp"

namespace qipu::db {

namespace {

// Union-find over player rows.
class Groups {
 public:
  std::size_t add() {
    parent_.push_back(parent_.size());
    return parent_.size() - 1;
  }
  std::size_t root(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[root(a)] = root(b); }

 private:
  std::vector<std::size_t> parent_;
};

struct Row {
  Spelling spelling;
  PlayerTotal total;
  std::string fide_id;
  game::NameKey key;
  bool split = false;
};

std::optional<int> optional_int(Statement& st, int col) {
  return st.is_null(col) ? std::nullopt : std::optional<int>(int(st.int64(col)));
}

bool has_table(Connection& db, const char* name) {
  auto st = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  st.bind(1, std::string_view(name));
  return st.step();
}

// The FIDE id given by the most games (the least of those, on a tie); empty without one.
std::string most_given(const std::map<std::string, std::int64_t>& ids) {
  const std::pair<const std::string, std::int64_t>* best = nullptr;
  for (const auto& id : ids)
    if (!best || id.second > best->second) best = &id;
  return best ? best->first : std::string();
}

// The player rows with games, in id order, from their totals (db/player_totals.hpp).
std::vector<Row> load_rows(Connection& db) {
  PlayerTotals totals = read_player_totals(db);
  std::vector<Row> rows;
  auto st = db.prepare("SELECT id, name FROM player ORDER BY id");
  while (st.step()) {
    auto it = totals.find(st.int64(0));
    if (it == totals.end() || it->second.games <= 0) continue;
    const PlayerTotal& t = it->second;
    Row r;
    r.spelling = {st.int64(0), std::string(st.text(1)), t.games};
    r.total = t;
    r.fide_id = most_given(t.fide_ids);
    r.key = game::name_key(r.spelling.name);
    rows.push_back(std::move(r));
  }
  return rows;
}

// Rows spelt as in the stored corrections, by spelling.
std::vector<std::size_t> rows_named(const std::vector<Row>& rows, std::string_view name) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].spelling.name == name) out.push_back(i);
  return out;
}

void join_by_fide_id(const std::vector<Row>& rows, Groups& g) {
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].fide_id.empty() || rows[i].split) continue;
    auto [it, added] = first.try_emplace(rows[i].fide_id, i);
    if (!added) g.join(i, it->second);
  }
}

// The given names x can stand for: the longest names that begin with it ("i" and "iv"
// stand for "ivan"; "" for any), none of them the beginning of another.
std::vector<std::string> extensions(const std::string& x,
                                    const std::map<std::string, std::vector<std::size_t>>& by_given) {
  std::vector<std::string> longer;
  for (const auto& [y, members] : by_given)
    if (y.size() > x.size() && y.compare(0, x.size(), x) == 0) longer.push_back(y);
  std::vector<std::string> out;
  for (const auto& y : longer)
    if (std::none_of(longer.begin(), longer.end(),
                     [&](const std::string& z) { return z.size() > y.size() && z.compare(0, y.size(), y) == 0; }))
      out.push_back(y);
  return out;
}

// Rows of one surname: each given name joins the one longer name it can stand for
// ("Sokolov,I" and "Sokolov,Iv" join "Sokolov, Ivan"), and stays apart when it could
// stand for several ("Sokolov" with both "Sokolov, Ivan" and "Sokolov, Andrei"). Rows
// whose FIDE ids differ are never joined by name.
void join_surname(const std::vector<Row>& rows, const std::vector<std::size_t>& of_surname, Groups& g) {
  std::map<std::string, std::vector<std::size_t>> by_given;
  for (auto i : of_surname) by_given[rows[i].key.given].push_back(i);
  for (const auto& [given, members] : by_given) {
    std::vector<std::size_t> group = members;
    auto ext = extensions(given, by_given);
    if (ext.size() == 1) group.push_back(by_given[ext.front()].front());
    std::set<std::string> fide;
    for (auto i : group)
      if (!rows[i].fide_id.empty()) fide.insert(rows[i].fide_id);
    if (fide.size() > 1) continue;
    for (auto i : group) g.join(i, group.front());
  }
}

// "Ding Liren" may be surname first, as Chinese names are: it is read so when the
// surname "Ding" is known from an unambiguous spelling ("Ding,L") and "Liren" is not.
void reorder_keys(std::vector<Row>& rows) {
  std::set<std::string> known;
  for (const auto& r : rows)
    if (r.key.alternative.surname.empty()) known.insert(r.key.surname);
  for (auto& r : rows) {
    const auto& alt = r.key.alternative;
    if (!alt.surname.empty() && known.count(alt.surname) && !known.count(r.key.surname)) {
      r.key.surname = alt.surname;
      r.key.given = alt.given;
    }
  }
}

void join_by_name(std::vector<Row>& rows, Groups& g) {
  reorder_keys(rows);
  std::map<std::string, std::vector<std::size_t>> by_surname;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (!rows[i].split && !rows[i].key.surname.empty()) by_surname[rows[i].key.surname].push_back(i);
  for (const auto& [surname, members] : by_surname) join_surname(rows, members, g);
}

void apply_corrections(Connection& db, std::vector<Row>& rows, Groups& g, bool splits) {
  if (!has_table(db, "player_merge")) return;
  if (splits) {
    auto st = db.prepare("SELECT name FROM player_split");
    while (st.step())
      for (auto i : rows_named(rows, st.text(0))) rows[i].split = true;
    return;
  }
  auto st = db.prepare("SELECT a, b FROM player_merge");
  while (st.step())
    for (auto i : rows_named(rows, st.text(0)))
      for (auto j : rows_named(rows, st.text(1))) g.join(i, j);
}

PlayerIdentity make_identity(const std::vector<Row>& rows, const std::vector<std::size_t>& members) {
  PlayerIdentity id;
  for (auto i : members) {
    const Row& r = rows[i];
    id.spellings.push_back(r.spelling);
    id.games += r.spelling.games;
    if (id.fide_id.empty()) id.fide_id = r.fide_id;
    const PlayerTotal& t = r.total;
    id.wins += t.wins;
    id.draws += t.draws;
    id.losses += t.losses;
    if (t.min_elo) id.min_elo = std::min(id.min_elo.value_or(int(*t.min_elo)), int(*t.min_elo));
    if (t.max_elo) id.max_elo = std::max(id.max_elo.value_or(int(*t.max_elo)), int(*t.max_elo));
    int first_year = t.first_date ? int(*t.first_date / 10000) : 0;  // 0: no dated game
    if (first_year) id.first_year = id.first_year ? std::min(id.first_year, first_year) : first_year;
    if (t.last_date) id.last_year = std::max(id.last_year, int(*t.last_date / 10000));
  }
  std::stable_sort(id.spellings.begin(), id.spellings.end(),
                   [](const Spelling& a, const Spelling& b) { return a.games > b.games; });
  id.name = id.spellings.front().name;
  return id;
}

bool spelling_exists(Connection& db, const std::string& name) {
  auto st = db.prepare("SELECT 1 FROM player WHERE name = ?");
  st.bind(1, name);
  return st.step();
}

}  // namespace

Identities load_identities(Connection& db) {
  Identities out;
  std::vector<Row> rows = load_rows(db);
  Groups g;
  for (std::size_t i = 0; i < rows.size(); ++i) g.add();
  apply_corrections(db, rows, g, true);
  join_by_fide_id(rows, g);
  join_by_name(rows, g);
  apply_corrections(db, rows, g, false);
  std::map<std::size_t, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < rows.size(); ++i) members[g.root(i)].push_back(i);
  for (const auto& [root, m] : members) out.list.push_back(make_identity(rows, m));
  std::stable_sort(out.list.begin(), out.list.end(), [](const PlayerIdentity& a, const PlayerIdentity& b) {
    return a.games != b.games ? a.games > b.games : a.name < b.name;
  });
  for (std::size_t i = 0; i < out.list.size(); ++i)
    for (const auto& s : out.list[i].spellings) out.of_player[s.player] = i;
  return out;
}

std::vector<const PlayerIdentity*> find_identities(const Identities& ids, std::string_view query,
                                                   game::NameMatch mode) {
  game::NameQuery q(query, mode);
  std::vector<const PlayerIdentity*> out;
  for (const auto& id : ids.list)
    if (std::any_of(id.spellings.begin(), id.spellings.end(), [&](const Spelling& s) { return q.matches(s.name); }))
      out.push_back(&id);
  return out;
}

std::vector<std::int64_t> matching_players(Connection& db, std::string_view query, game::NameMatch mode) {
  return matching_rows(db, "player", query, mode);
}

// The tables are made by opening the database for writing (schema.sql, after the marker).
std::string merge_players(Connection& db, const std::string& a, const std::string& b) {
  for (const auto* name : {&a, &b})
    if (!spelling_exists(db, *name)) return "no player is spelt \"" + *name + "\" (see qipu players --name …)";
  if (a == b) return "give two different spellings";
  auto st = db.prepare("INSERT OR IGNORE INTO player_merge(a, b) VALUES (?, ?)");
  st.bind(1, a).bind(2, b).run();
  return {};
}

std::string split_player(Connection& db, const std::string& name) {
  if (!spelling_exists(db, name)) return "no player is spelt \"" + name + "\" (see qipu players --name …)";
  Transaction tx(db);
  auto del = db.prepare("DELETE FROM player_merge WHERE a = ? OR b = ?");
  del.bind(1, name).bind(2, name).run();
  auto st = db.prepare("INSERT OR IGNORE INTO player_split(name) VALUES (?)");
  st.bind(1, name).run();
  tx.commit();
  return {};
}

std::vector<std::pair<std::string, std::string>> player_corrections(Connection& db) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!has_table(db, "player_merge")) return out;
  auto splits = db.prepare("SELECT name FROM player_split ORDER BY name");
  while (splits.step()) out.emplace_back(splits.text(0), "");
  auto merges = db.prepare("SELECT a, b FROM player_merge ORDER BY a, b");
  while (merges.step()) out.emplace_back(merges.text(0), merges.text(1));
  return out;
}

std::optional<double> white_points(std::string_view result) {
  if (result == "1-0") return 1.0;
  if (result == "0-1") return 0.0;
  if (result == "1/2-1/2") return 0.5;
  return std::nullopt;
}

std::vector<PlayerGame> load_player_games(Connection& db, const GameQuery& q, bool with_teams) {
  std::string teams = with_teams ? ", (SELECT value FROM tag WHERE game = g.id AND name = 'WhiteTeam' LIMIT 1),"
                                   " (SELECT value FROM tag WHERE game = g.id AND name = 'BlackTeam' LIMIT 1)"
                                 : ", NULL, NULL";
  auto st = db.prepare(
      "SELECT g.id, coalesce(g.white, 0), coalesce(g.black, 0), coalesce(w.name, '?'), coalesce(b.name, '?'),"
      " coalesce(g.result, ''), coalesce(g.eco, ''), coalesce(g.round, ''), coalesce(e.name, ''), g.white_elo,"
      " g.black_elo, coalesce(g.date_sort, 0)" +
      teams +
      " FROM game g LEFT JOIN player w ON w.id = g.white LEFT JOIN player b ON b.id = g.black"
      " LEFT JOIN event e ON e.id = g.event WHERE " +
      q.where +
      " ORDER BY g.date_sort, CAST(g.round AS INTEGER), CAST(substr(g.round, instr(g.round, '.') + 1) AS INTEGER),"
      " g.id");
  bind_params(st, q);
  std::vector<PlayerGame> out;
  while (st.step()) {
    PlayerGame g;
    g.id = st.int64(0);
    g.white = st.int64(1);
    g.black = st.int64(2);
    g.white_name = st.text(3);
    g.black_name = st.text(4);
    g.result = st.text(5);
    g.eco = st.text(6);
    g.round = st.text(7);
    g.event = st.text(8);
    g.white_elo = optional_int(st, 9);
    g.black_elo = optional_int(st, 10);
    g.date_sort = st.int64(11);
    if (!st.is_null(12)) g.white_team = st.text(12);
    if (!st.is_null(13)) g.black_team = st.text(13);
    out.push_back(std::move(g));
  }
  return out;
}

namespace {

std::string round_of(const PlayerGame& g) {
  std::string r = g.round.substr(0, g.round.find('.'));
  if (r.empty() || r == "?" || r == "-") r = g.date_sort ? std::to_string(g.date_sort) : "?";
  return r;
}

// Adds a finished match to both teams' rows.
void score_match(const TeamMatch& m, std::map<std::string, TeamRow>& rows) {
  for (int side = 0; side < 2; ++side) {
    TeamRow& r = rows[m.teams[side]];
    r.team = m.teams[side];
    double mine = m.game_points[side], theirs = m.game_points[1 - side];
    ++r.matches;
    r.game_points += mine;
    r.against[m.teams[1 - side]] += mine;
    if (mine > theirs) {
      ++r.won;
      r.match_points += 2;
    } else if (mine == theirs) {
      ++r.drawn;
      r.match_points += 1;
    } else {
      ++r.lost;
    }
  }
}

}  // namespace

TeamStandings team_standings(const std::vector<PlayerGame>& games, bool by_game_points) {
  TeamStandings out;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> match_of;
  for (const auto& g : games) {
    auto wp = white_points(g.result);
    if (!wp || g.white_team.empty() || g.black_team.empty() || g.white_team == g.black_team) {
      ++out.left_out;
      continue;
    }
    std::string round = round_of(g);
    auto key = std::make_tuple(round, std::min(g.white_team, g.black_team), std::max(g.white_team, g.black_team));
    auto [it, added] = match_of.try_emplace(key, out.matches.size());
    if (added) out.matches.push_back({round, {g.white_team, g.black_team}, {0, 0}, 0});
    TeamMatch& m = out.matches[it->second];
    int white_side = m.teams[0] == g.white_team ? 0 : 1;
    m.game_points[white_side] += *wp;
    m.game_points[1 - white_side] += 1 - *wp;
    ++m.boards;
  }
  std::map<std::string, TeamRow> rows;
  for (const auto& m : out.matches) score_match(m, rows);
  for (auto& [team, row] : rows) out.table.push_back(std::move(row));
  std::stable_sort(out.table.begin(), out.table.end(), [&](const TeamRow& a, const TeamRow& b) {
    auto first = by_game_points ? std::pair<double, double>(a.game_points, a.match_points)
                                : std::pair<double, double>(a.match_points, a.game_points);
    auto second = by_game_points ? std::pair<double, double>(b.game_points, b.match_points)
                                 : std::pair<double, double>(b.match_points, b.game_points);
    return first > second;
  });
  return out;
}

}  // namespace qipu::db
