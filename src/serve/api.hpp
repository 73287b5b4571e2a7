// The JSON API's answers (docs/api.md), as functions of a connection and the query's
// parameters, apart from HTTP: the server calls them, the tests can too. Field names
// follow qipu's other JSON outputs (convert --to json, search and explore --format json).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "qipu/db/eco.hpp"
#include "qipu/db/sqlite.hpp"

namespace qipu::serve {

using Json = nlohmann::ordered_json;  // fields in the order written, as the command line writes them
// A request's query parameters (as httplib gives them).
using Params = std::multimap<std::string, std::string>;

// A request the API refuses: the HTTP status (400 bad parameter, 404 no such thing) and a
// message saying what was expected.
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  [[nodiscard]] int status() const { return status_; }

 private:
  int status_;
};

// GET /api/search: the filters of qipu search, sorting and paging: a page of games and
// whether more follow. Counting every match can take seconds at millions of games, so
// that is a call of its own (count), which the page makes after showing the games.
Json search(db::Connection& c, const Params& p);
// GET /api/count: how many games the filters of /api/search match.
Json count(db::Connection& c, const Params& p);
// GET /api/game/ID: tags, moves (SAN in the requested notation, UCI, FEN, comments, NAGs,
// variations) and the PGN.
Json game(db::Connection& c, std::int64_t id, const Params& p);
// GET /api/explore: the moves played from a position (FEN or moves), and its legal moves.
Json explore(db::Connection& c, const Params& p, const db::EcoTable* eco);
// GET /api/eco: the opening of a position or a line.
Json eco(const Params& p, const db::EcoTable* eco);
// GET /api/stats: totals of the database.
Json stats(db::Connection& c);
// GET /api/events: events whose name contains q, with their games.
Json events(db::Connection& c, const Params& p);
// GET /api/event: standings and crosstable with Sonneborn–Berger.
Json event(db::Connection& c, const Params& p);

}  // namespace qipu::serve
