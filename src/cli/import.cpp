// qipu import [--db PATH] FILE...|- — replay games and store them in the database.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "cli/lang.hpp"
#include "qipu/db/eco.hpp"
#include "qipu/db/store.hpp"

namespace qipu::cli {

namespace {

struct ImportCmdOptions {
  InputOptions input;
  std::string db;
  bool allow_duplicates = false;
  bool no_index = false;
  std::size_t batch = 0;  // the importer's choice
  std::string eco_file = db::DefaultEcoFile;
  std::string lang;  // of the summary
};

// "illegal move", "unknown move token", … : the kind of a game's first error.
std::string reason_of(const game::GameRecord& rec) {
  for (const auto& d : rec.diagnostics)
    if (d.error) {
      auto colon = d.message.find(':');
      return colon == std::string::npos ? d.message : d.message.substr(0, colon);
    }
  return "error";
}

std::string error_text(const game::GameRecord& rec) {
  std::string s;
  for (const auto& d : rec.diagnostics)
    if (d.error) s += diagnostic_line(d) + "\n";
  return s;
}

// A number with three significant digits, as a stream writes it by default.
std::string three_digits(double x) {
  std::ostringstream s;
  s.precision(3);
  s << x;
  return s.str();
}

void print_summary(std::ostream& out, Lang lang, const db::ImportStats& st,
                   const std::map<std::string, std::uint64_t>& reasons, double secs, std::uint64_t bytes,
                   const std::string& path) {
  std::uint64_t games = st.imported + st.duplicates + st.rejected;
  out << say(lang, "imported {} games into {}; {} duplicates skipped; {} rejected",
             {std::to_string(st.imported), shown(path), std::to_string(st.duplicates), std::to_string(st.rejected)})
      << "\n";
  for (const auto& [reason, n] : reasons)
    out << say(lang, "  rejected for {}: {}", {shown(reason), std::to_string(n)}) << "\n";
  out << say(lang, "{} games in {} s ({} games/s, {} MB/s)",
             {std::to_string(games), three_digits(secs), std::to_string(std::uint64_t(games / std::max(secs, 1e-9))),
              three_digits(bytes / 1e6 / std::max(secs, 1e-9))})
      << "\n";
}

// The ECO table, or nothing (with a warning) when the file cannot be read: games are
// then stored without opening names.
std::optional<db::EcoTable> load_eco(const std::string& path) {
  if (path.empty()) return std::nullopt;
  try {
    return db::EcoTable::load(path);
  } catch (const db::DbError& e) {
    std::cerr << "qipu import: warning: " << e.what() << "; games are stored without ECO classification\n";
    return std::nullopt;
  }
}

// An exclusive lock on the database file for a whole import, so that a second import
// waits for the first: each import reads the stored games' hashes once, at its start,
// to skip duplicates, and two running at once would store the same games twice.
// (flock locks do not touch SQLite's fcntl locks; the file stays open until after
// SQLite has closed it, since closing a descriptor would drop SQLite's locks.)
class ImportLock {
 public:
  explicit ImportLock(const std::string& path) : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || flock(fd_, LOCK_EX | LOCK_NB) == 0) return;  // cannot open: open_database says why
    std::cerr << "qipu import: waiting for another import into " << path << " to finish\n";
    while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {}
  }
  ~ImportLock() {
    if (fd_ >= 0) close(fd_);
  }
  ImportLock(const ImportLock&) = delete;
  ImportLock& operator=(const ImportLock&) = delete;

 private:
  int fd_;
};

// An input that is a regular file (standard input too, when it is one): its first bytes,
// read in place without moving the offset, and how many bytes are left to read. A pipe or
// FIFO is not looked at: it would lose what is read.
struct FileStart {
  std::string head;
  std::uint64_t left = 0;
};
std::optional<FileStart> regular_input(const std::string& input, std::size_t head_bytes) {
  if (!regular_file_id(input)) return std::nullopt;
  int fd = input == "-" ? STDIN_FILENO : open(input.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;  // the reader says why
  off_t at = input == "-" ? lseek(fd, 0, SEEK_CUR) : 0;
  struct stat st {};
  std::optional<FileStart> f;
  if (at >= 0 && fstat(fd, &st) == 0) {
    f.emplace();
    f->head.resize(head_bytes);
    ssize_t got = pread(fd, f->head.data(), head_bytes, at);
    f->head.resize(got > 0 ? std::size_t(got) : 0);
    f->left = st.st_size > at ? std::uint64_t(st.st_size - at) : 0;
  }
  if (fd != STDIN_FILENO) close(fd);
  return f;
}

// True when the file (or standard input, if it is a file) starts as every SQLite
// database does.
bool is_sqlite_file(const std::string& input) {
  static constexpr std::string_view Magic("SQLite format 3\0", 16);
  auto f = regular_input(input, Magic.size());
  return f && f->head == Magic;
}

// About how many games the inputs hold, for the size of the importer's duplicate set
// (db::ImportOptions::expected_games): plain PGN files by their size, at about 700 bytes a
// game (pgnmentor's collections: 718; annotated games are longer, and are then counted
// high). Compressed files and pipes are not counted: the set then grows as games come.
std::int64_t expected_games(const std::vector<std::string>& inputs) {
  constexpr std::uint64_t BytesPerGame = 700;
  std::uint64_t bytes = 0;
  for (const auto& in : inputs) {
    auto f = regular_input(in, 4);
    bool compressed = f && (f->head.starts_with("\x1f\x8b") || f->head == "\x28\xb5\x2f\xfd");  // gzip, zstd
    if (f && !compressed) bytes += f->left;
  }
  return std::int64_t(bytes / BytesPerGame);
}

void import_files(std::ostream& out, const ImportCmdOptions& o, const std::string& path) {
  auto start = std::chrono::steady_clock::now();
  auto conn = db::open_database(path, db::Connection::Mode::ReadWrite);
  db::ImportOptions io;
  io.allow_duplicates = o.allow_duplicates;
  io.position_index = !o.no_index;
  io.batch_games = o.batch;
  io.expected_games = expected_games(o.input.files);
  db::Importer importer(*conn, io);
  std::map<std::string, std::uint64_t> reasons;
  bool io_failed = false;
  std::uint64_t bytes = 0;
  Progress progress(o.input.files);
  game::PipelineCallbacks<db::GameEncoding> cb;
  auto eco = load_eco(o.eco_file);
  db::encode_while_replaying(cb, eco ? &*eco : nullptr, importer.keeps_aggregate());
  cb.game = [&](const game::InputReport& in, game::GameRecord& rec, db::GameEncoding& enc) {
    std::string source = in.path == "-" ? "<stdin>" : in.path;
    if (enc.rows && *enc.rows) {
      importer.add(source, rec, **enc.rows);
    } else if (enc.rows) {
      ++reasons["cannot be stored"];
      importer.reject(source, rec, enc.rows->error() + "\n");
    } else {
      ++reasons[reason_of(rec)];
      importer.reject(source, rec, error_text(rec));
    }
  };
  cb.input_done = [&](const game::InputReport& in) {
    bytes += in.bytes;
    io_failed |= report_input(in, &std::cerr);
  };
  cb.progress = [&](std::uint64_t b, std::uint64_t games) { progress.update(b, games); };
  game::PipelineOptions po = pipeline_options(o.input);
  po.batches_ahead = db::ImportBatchesAhead;
  game::run_pipeline(o.input.files, po, cb);
  progress.finish();
  importer.finish();
  if (eco) eco->store(*conn);  // for explore, which then need not read the file (db/eco.hpp)
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_summary(out, resolve_lang(o.lang), importer.stats(), reasons, secs, bytes, path);
  if (importer.stats().imported > 0 && isatty(STDOUT_FILENO))
    out << "next: qipu search --db " << path << " --player Morphy   |   qipu explore --db " << path
        << " --moves \"1.e4 e5\"\n      qipu export --db " << path << " --to zh   |   qipu stats --db " << path << "\n";
  set_exit_code(io_failed ? 2 : importer.stats().rejected ? 1 : 0);
}

// An input that is the database or any SQLite file is refused, the whole command with
// it, before the database is touched: read as PGN, the database would be rejected game
// by game into itself, growing as it is read.
bool refuse_databases(const std::vector<std::string>& inputs, const std::string& db) {
  auto db_id = regular_file_id(db);
  for (const auto& in : inputs) {
    std::string why = db_id && regular_file_id(in) == db_id ? "it is the database"
                      : is_sqlite_file(in)                  ? "it is an SQLite database, not PGN"
                                                            : "";
    if (why.empty()) continue;
    std::cerr << "qipu import: refusing to read " << shown(in == "-" ? "standard input" : in) << ": " << why << "\n";
    set_exit_code(2);
    return true;
  }
  return false;
}

void run_import(const ImportCmdOptions& o) {
  std::string path = db::database_path(o.db);
  if (refuse_databases(o.input.files, path)) return;
  Output output("import");
  if (!output.open("", o.input.files, path)) return;
  ImportLock lock(path);
  try {
    import_files(output.stream(), o, path);
    output.finish();
  } catch (const db::DbError& e) {
    // SQLite's own messages ("database or disk is full") do not say which file.
    std::string what = e.what();
    if (what.find(path) != std::string::npos) throw;
    throw db::DbError(path + ": " + what + " (batches committed before this stay whole)", e.code());
  }
}

}  // namespace

void setup_import(CLI::App& app) {
  auto o = std::make_shared<ImportCmdOptions>();
  auto* cmd = app.add_subcommand("import", "Check PGN files and store their games in the database");
  add_input_options(*cmd, o->input);
  add_db_option(*cmd, o->db);
  cmd->add_flag("--allow-duplicates", o->allow_duplicates,
                "Store games even when the same game (roster tags and moves) is already there");
  cmd->add_option("--batch", o->batch,
                  "Games per transaction: a killed import keeps every finished batch (default 20000, or a fiftieth of "
                  "the games already in the database when more, up to 40000)")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--eco-file", o->eco_file,
                  "ECO lines for classifying games by position (default: " + std::string(db::DefaultEcoFile) +
                      ", from Debian's pgn-extract; empty: do not classify)");
  cmd->add_flag("--no-position-index", o->no_index,
                "Store no position data: a faster import and a smaller database, but position questions replay "
                "these games (see below)");
  add_lang_option(*cmd, o->lang);
  cmd->footer(
      "Games that fail to replay are kept whole, with their errors, in the rejects table (qipu rejects).\n"
      "Importing the same file again adds nothing. Exit status follows qipu check.\n"
      "--no-position-index gives up the position index and, for a new database, the explorer's aggregate:\n"
      "search --fen/--moves and explore then replay these games (seconds a million games, not milliseconds).\n"
      "The aggregate covers every game or none: a database keeps what its first import chose, so one made\n"
      "with the option never has it, and one made without keeps adding every game to it (that costs a\n"
      "few % of an import's time). To have both for all games, export and import into a new database.\n"
      "Example: qipu import games.pgn.zst && qipu export | head");
  cmd->callback([o] { run_import(*o); });
}

}  // namespace qipu::cli
