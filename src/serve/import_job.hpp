// Imports started from the page (POST /api/import, with --allow-import): each runs on a
// thread of its own, one at a time, into the server's database, while reads go on
// through read-only connections (WAL). Its progress, summary and every error can be
// asked for while it runs and after.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "serve/api.hpp"

namespace qipu::serve {

class ImportJobs {
 public:
  ImportJobs(std::string db_path, const db::EcoTable* eco);
  ~ImportJobs();  // waits for the imports under way
  ImportJobs(const ImportJobs&) = delete;
  ImportJobs& operator=(const ImportJobs&) = delete;

  // Imports `file` (a temporary file, which the job removes when done) under the name
  // the user gave it; returns the job's number.
  std::int64_t start(const std::string& file, const std::string& name, std::uint64_t size);
  // GET /api/import/N; ApiError 404 for an unknown job.
  Json status(std::int64_t id) const;

 private:
  struct Job;
  void run(Job& job);
  std::string db_path_;
  const db::EcoTable* eco_;
  mutable std::mutex mutex_;  // guards the jobs' fields
  std::mutex one_at_a_time_;  // held by the running import
  std::deque<std::unique_ptr<Job>> jobs_;
  std::deque<std::thread> threads_;
};

}  // namespace qipu::serve
