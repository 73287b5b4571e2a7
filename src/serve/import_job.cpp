// Imports from the page (import_job.hpp).
#include "serve/import_job.hpp"

#include <cstdio>

#include "qipu/db/eco.hpp"
#include "qipu/db/store.hpp"
#include "qipu/game/pipeline.hpp"

namespace qipu::serve {

// What the status call reports. Errors are kept up to a bound: a file of a million bad
// games must not fill the server's memory.
struct ImportJobs::Job {
  static constexpr std::size_t MaxErrors = 1000;
  std::int64_t id = 0;
  std::string file, name, state = "queued", message;
  std::uint64_t size = 0, bytes = 0, games = 0;
  db::ImportStats stats;
  Json errors = Json::array();
  std::uint64_t errors_left_out = 0;

  void add_error(Json e) {
    if (errors.size() < MaxErrors)
      errors.push_back(std::move(e));
    else
      ++errors_left_out;
  }
};

ImportJobs::ImportJobs(std::string db_path, const db::EcoTable* eco) : db_path_(std::move(db_path)), eco_(eco) {}

ImportJobs::~ImportJobs() {
  for (auto& t : threads_) t.join();
}

std::int64_t ImportJobs::start(const std::string& file, const std::string& name, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  auto job = std::make_unique<Job>();
  job->id = std::int64_t(jobs_.size()) + 1;
  job->file = file;
  job->name = name;
  job->size = size;
  Job& j = *job;
  jobs_.push_back(std::move(job));
  threads_.emplace_back([this, &j] { run(j); });
  return j.id;
}

Json ImportJobs::status(std::int64_t id) const {
  std::lock_guard lock(mutex_);
  if (id < 1 || id > std::int64_t(jobs_.size())) throw ApiError(404, "no import " + std::to_string(id));
  const Job& j = *jobs_[std::size_t(id - 1)];
  Json out = {{"job", j.id},
              {"name", j.name},
              {"state", j.state},
              {"bytes", j.bytes},
              {"total_bytes", j.size},
              {"games", j.games},
              {"imported", j.stats.imported},
              {"duplicates", j.stats.duplicates},
              {"rejected", j.stats.rejected},
              {"errors", j.errors},
              {"errors_left_out", j.errors_left_out}};
  if (!j.message.empty()) out["message"] = j.message;
  return out;
}

namespace {

// An error as qipu check prints it, in fields: where (line, column, game, players, move),
// its code and what was expected.
Json error_entry(const game::GameRecord& rec, const game::Diagnostic& d) {
  std::string white(rec.tag("White")), black(rec.tag("Black"));
  return {{"game", rec.index},
          {"white", white},
          {"black", black},
          {"line", d.pos.line},
          {"column", d.pos.column},
          {"move", d.move},
          {"code", problem_code(d.kind)},
          {"message", d.message}};
}

// The rejects table's form of an error, as qipu import stores it.
std::string reject_line(const game::Diagnostic& d) {
  std::string s = "[" + std::string(problem_code(d.kind)) + "] " + std::to_string(d.pos.line) + ":" +
                  std::to_string(d.pos.column) + ": ";
  if (!d.move.empty()) s += "move " + d.move + ": ";
  return s + d.message + "\n";
}

Json input_error_entry(const pgn::SyntaxError& e) {
  return {{"game", e.game_index},
          {"line", e.pos.line},
          {"column", e.pos.column},
          {"code", problem_code(e.kind)},
          {"message", e.message}};
}

}  // namespace

void ImportJobs::run(Job& job) {
  std::lock_guard one(one_at_a_time_);
  auto set = [&](auto&& f) {
    std::lock_guard lock(mutex_);
    f();
  };
  set([&] { job.state = "running"; });
  try {
    auto conn = db::open_database(db_path_, db::Connection::Mode::ReadWrite);
    db::Importer importer(*conn, db::ImportOptions{});
    game::PipelineCallbacks<db::GameEncoding> cb;
    db::encode_while_replaying(cb, eco_, importer.keeps_aggregate());
    cb.game = [&](const game::InputReport&, game::GameRecord& rec, db::GameEncoding& enc) {
      std::string errors;
      if (enc.rows && *enc.rows) {
        importer.add(job.name, rec, **enc.rows);
      } else {
        for (const auto& d : rec.diagnostics)
          if (d.error) errors += reject_line(d);
        importer.reject(job.name, rec, enc.rows ? enc.rows->error() + "\n" : errors);
      }
      set([&] {
        job.stats = importer.stats();
        for (const auto& d : rec.diagnostics)
          if (d.error) job.add_error(error_entry(rec, d));
      });
    };
    cb.input_done = [&](const game::InputReport& in) {
      set([&] {
        for (const auto& e : in.input_errors) job.add_error(input_error_entry(e));
      });
    };
    cb.progress = [&](std::uint64_t bytes, std::uint64_t games) {
      set([&] {
        job.bytes = bytes;
        job.games = games;
      });
    };
    game::PipelineOptions po;
    po.batches_ahead = db::ImportBatchesAhead;
    game::run_pipeline({job.file}, po, cb);
    importer.finish();
    if (eco_) eco_->store(*conn);  // as qipu import does, for qipu explore
    set([&] {
      job.stats = importer.stats();
      job.bytes = job.size;
      job.games = job.stats.imported + job.stats.duplicates + job.stats.rejected;
      job.state = "done";
    });
  } catch (const std::exception& e) {
    set([&] {
      job.state = "failed";
      job.message = e.what();
    });
  }
  std::remove(job.file.c_str());
}

}  // namespace qipu::serve
