// qipu serve's HTTP side (server.hpp): routes, the page's files from memory, the bounds on
// requests (body size, query time), and errors as JSON with a status and a message.
#include "serve/server.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <httplib.h>
#include <optional>
#include <unordered_map>

#include "qipu/db/search.hpp"
#include "qipu/notation/notation.hpp"
#include "serve/api.hpp"
#include "serve/assets.hpp"
#include "serve/import_job.hpp"

namespace qipu::serve {

namespace {

using Clock = std::chrono::steady_clock;

void reply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json; charset=utf-8");
}

void reply_error(httplib::Response& res, int status, const std::string& message) {
  reply(res, status, {{"error", message}});
}

std::string_view content_type(std::string_view path) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

// The upload, streamed to a temporary file with every write checked. Empty on failure,
// with `why` set.
std::string save_upload(const httplib::ContentReader& read, std::uint64_t& size, std::string& why) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/qipu-upload-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) {
    why = "cannot make a temporary file for the upload: " + std::string(std::strerror(errno));
    return {};
  }
  bool ok = read([&](const char* data, std::size_t n) {
    for (std::size_t done = 0; done < n;) {
      ssize_t w = write(fd, data + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        why = "cannot write the upload to " + path + ": " + std::strerror(errno);
        return false;
      }
      done += std::size_t(w);
    }
    size += n;
    return true;
  });
  if (close(fd) != 0 && why.empty()) why = "cannot write the upload to " + path + ": " + std::strerror(errno);
  if (ok && why.empty()) return path;
  if (why.empty()) why = "the upload was cut short";
  unlink(path.c_str());
  return {};
}

// A browser names the page a request comes from in Origin; another site's page must not
// write into the database through the user's browser (a cross-site POST needs no
// permission). Scripts such as curl send no Origin.
bool same_origin(const httplib::Request& req) {
  if (!req.has_header("Origin")) return true;
  return req.get_header_value("Origin") == "http://" + req.get_header_value("Host");
}

std::optional<std::int64_t> id_of(const std::string& digits) {
  std::int64_t id = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return id;
}

}  // namespace

struct Server::Impl {
  ServerOptions o;
  httplib::Server http;
  std::optional<db::EcoTable> eco;
  std::unique_ptr<ImportJobs> imports;
  std::unordered_map<std::string_view, std::string_view> files;
  int port = -1;

  const db::EcoTable* eco_table() const { return eco ? &*eco : nullptr; }

  // Runs an API call on a read-only connection of its own, under the query deadline, and
  // turns what it throws into a status and a message.
  template <class F>
  void answer(httplib::Response& res, F&& f) {
    auto start = Clock::now();
    run_call(res, f);
    // The time spent here, for the browser's developer tools and bench/bench_serve.sh.
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    res.set_header("Server-Timing", "app;dur=" + std::to_string(ms));
  }

  template <class F>
  void run_call(httplib::Response& res, F&& f) {
    try {
      auto c = db::open_for_search(o.db);
      // Past the deadline, its SQL and its replays stop with SQLITE_INTERRUPT: answered 503.
      c->set_deadline(Clock::now() + std::chrono::milliseconds(o.query_ms));
      try {
        reply(res, 200, f(*c));
      } catch (const db::DbError& e) {
        if ((e.code() & 0xff) != SQLITE_INTERRUPT) throw;
        reply_error(res, 503,
                    "the query took longer than " + std::to_string(o.query_ms) + " ms and was stopped; narrow it");
      }
    } catch (const ApiError& e) { reply_error(res, e.status(), e.what()); } catch (const std::exception& e) {
      reply_error(res, 500, e.what());
    }
  }

  void add_api_routes();
  void add_import_routes();
  void add_file_routes();
};

void Server::Impl::add_api_routes() {
  using httplib::Request;
  using httplib::Response;
  http.Get("/api/search", [this](const Request& req, Response& res) {
    answer(res, [&](db::Connection& c) { return search(c, req.params); });
  });
  http.Get("/api/count", [this](const Request& req, Response& res) {
    answer(res, [&](db::Connection& c) { return count(c, req.params); });
  });
  http.Get(R"(/api/game/(\d+))", [this](const Request& req, Response& res) {
    auto id = id_of(req.matches[1]);
    if (!id) return reply_error(res, 404, "no game " + std::string(req.matches[1]) + " in the database");
    answer(res, [&](db::Connection& c) { return game(c, *id, req.params); });
  });
  http.Get("/api/explore", [this](const Request& req, Response& res) {
    answer(res, [&](db::Connection& c) { return explore(c, req.params, eco_table()); });
  });
  http.Get("/api/eco", [this](const Request& req, Response& res) {
    answer(res, [&](db::Connection&) { return serve::eco(req.params, eco_table()); });
  });
  http.Get("/api/stats",
           [this](const Request&, Response& res) { answer(res, [&](db::Connection& c) { return stats(c); }); });
  http.Get("/api/events", [this](const Request& req, Response& res) {
    answer(res, [&](db::Connection& c) { return events(c, req.params); });
  });
  http.Get("/api/event", [this](const Request& req, Response& res) {
    answer(res, [&](db::Connection& c) { return event(c, req.params); });
  });
  http.Get("/api/info", [this](const Request&, Response& res) {
    Json notes = Json::array();
    for (const auto& n : notations()) notes.push_back({{"code", n.code}, {"description", n.description}});
    reply(res, 200, {{"allow_import", o.allow_import}, {"notations", notes}, {"eco", eco.has_value()}});
  });
}

void Server::Impl::add_import_routes() {
  using httplib::Request;
  using httplib::Response;
  http.Post("/api/import", [this](const Request& req, Response& res, const httplib::ContentReader& read) {
    if (!imports)
      return reply_error(res, 403, "this server is read-only; start it with qipu serve --allow-import to import");
    if (!same_origin(req))
      return reply_error(
          res, 403, "an upload from another site's page is refused (Origin: " + req.get_header_value("Origin") + ")");
    if (req.is_multipart_form_data())
      return reply_error(res, 400, "send the file itself as the request body (curl --data-binary @FILE), not a form");
    std::string name = req.has_param("name") ? req.get_param_value("name") : "upload";
    std::uint64_t size = 0;
    std::string why;
    std::string path = save_upload(read, size, why);
    if (path.empty()) return reply_error(res, 500, why);
    std::int64_t job = imports->start(path, "upload:" + name, size);
    reply(res, 202, {{"job", job}, {"status", "/api/import/" + std::to_string(job)}});
  });
  http.Get(R"(/api/import/(\d+))", [this](const Request& req, Response& res) {
    if (!imports) return reply_error(res, 403, "this server is read-only; start it with qipu serve --allow-import");
    try {
      reply(res, 200, imports->status(id_of(req.matches[1]).value_or(0)));
    } catch (const ApiError& e) { reply_error(res, e.status(), e.what()); }
  });
}

// The page's files, by path; nothing from the URL reaches the file system.
void Server::Impl::add_file_routes() {
  for (const Asset& a : assets()) files[a.path] = a.data;
  http.Get(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
    if (req.path.rfind("/api/", 0) == 0) return reply_error(res, 404, "no such API call: " + req.path);
    std::string_view path = req.path == "/" ? std::string_view("/index.html") : std::string_view(req.path);
    auto it = files.find(path);
    if (it == files.end()) {
      res.status = 404;
      return res.set_content("not found\n", "text/plain");
    }
    res.set_header("Cache-Control", "no-cache");
    res.set_content(it->second.data(), it->second.size(), std::string(content_type(path)).c_str());
  });
}

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.o = std::move(options);
  if (!s.o.eco_file.empty()) {
    try {
      s.eco = db::EcoTable::load(s.o.eco_file);
    } catch (const db::DbError&) {
      // Opening names are a courtesy: the rest works without them (/api/info says so).
    }
  }
  if (s.o.allow_import) s.imports = std::make_unique<ImportJobs>(s.o.db, s.eco_table());
  s.http.set_payload_max_length(s.o.allow_import ? s.o.max_upload : std::size_t(1) << 16);
  s.http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"Content-Security-Policy", "default-src 'self'; img-src 'self' data:"},
                              {"Referrer-Policy", "no-referrer"}});
  s.add_api_routes();
  s.add_import_routes();
  s.add_file_routes();
}

Server::~Server() = default;

int Server::bind() {
  Impl& s = *impl_;
  s.port =
      s.o.port == 0 ? s.http.bind_to_any_port(s.o.host) : (s.http.bind_to_port(s.o.host, s.o.port) ? s.o.port : -1);
  return s.port;
}

bool Server::run() { return impl_->http.listen_after_bind(); }

void Server::stop() { impl_->http.stop(); }

}  // namespace qipu::serve
