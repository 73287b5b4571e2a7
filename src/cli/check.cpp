// qipu check [options] FILE... — read, replay and report every problem.
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/lang.hpp"

namespace qipu::cli {

namespace {

struct CheckOptions {
  InputOptions input;
  bool json = false;
  bool verbose = false;
  std::string rejects;
  std::string lang;  // of the summary line
};

struct CheckTally {
  std::uint64_t games = 0, valid = 0, invalid = 0, warnings = 0;
  bool io_failed = false;
};

void json_diagnostic(std::string& out, const game::Diagnostic& d) {
  out += "{\"severity\":";
  out += d.error ? "\"error\"" : "\"warning\"";
  out += ",\"code\":\"" + std::string(problem_code(d.kind)) + "\"";
  out += ",\"line\":" + std::to_string(d.pos.line) + ",\"column\":" + std::to_string(d.pos.column);
  out += ",\"ply\":" + std::to_string(d.ply) + ",\"move\":";
  append_json_string(out, d.move);
  out += ",\"message\":";
  append_json_string(out, d.message);
  out += "}";
}

// An error of the input outside any game (cannot open, corrupt data), shaped as a game's
// diagnostic less the ply and move, so that programs read both the same way.
void json_input_error(std::string& out, const pgn::SyntaxError& e) {
  out += "{\"severity\":";
  out += e.warning ? "\"warning\"" : "\"error\"";
  out += ",\"code\":\"" + std::string(problem_code(e.kind)) + "\"";
  out += ",\"line\":" + std::to_string(e.pos.line) + ",\"column\":" + std::to_string(e.pos.column);
  out += ",\"message\":";
  append_json_string(out, e.message);
  out += "}";
}

// One JSON object per game that has something to report.
std::string json_game(const std::string& file, const game::GameRecord& rec) {
  std::string out = "{\"file\":";
  append_json_string(out, file);
  out += ",\"game\":" + std::to_string(rec.index) + ",\"line\":" + std::to_string(rec.start.line) + ",\"white\":";
  append_json_string(out, rec.tag("White"));
  out += ",\"black\":";
  append_json_string(out, rec.tag("Black"));
  out += std::string(",\"valid\":") + (rec.valid() ? "true" : "false") + ",\"diagnostics\":[";
  for (std::size_t i = 0; i < rec.diagnostics.size(); ++i) {
    if (i) out += ',';
    json_diagnostic(out, rec.diagnostics[i]);
  }
  return out + "]}";
}

void run_check(const CheckOptions& o) {
  CheckTally t;
  Output report("check"), rejects("check");
  if (!report.open("", o.input.files)) return;
  if (!o.rejects.empty() && !rejects.open(o.rejects, o.input.files)) return;
  std::ostream& out = report.stream();
  std::string json_games, json_inputs;
  Progress progress(o.input.files);
  game::PipelineCallbacks cb;
  cb.trim = release_on_worker;  // only diagnostics (with players) and raw text are reported
  cb.game = [&](const game::InputReport& in, game::GameRecord& rec) {
    ++t.games;
    bool ok = rec.valid();
    ok ? ++t.valid : ++t.invalid;
    t.warnings += rec.warning_count();
    if (!ok && !o.rejects.empty()) rejects.stream() << pgn::reject_bytes(rec.raw, rec.encoding);
    if (o.json) {
      if (!rec.diagnostics.empty()) json_games += (json_games.empty() ? "" : ",\n") + json_game(in.path, rec);
      return;
    }
    for (const auto& d : rec.diagnostics) {
      out << format_diagnostic(in.path, rec, d) << "\n";
      if (o.verbose) {
        std::string ex = caret_excerpt(rec, d);
        if (!ex.empty()) out << ex << "\n";
      }
    }
  };
  cb.input_done = [&](const game::InputReport& in) {
    t.io_failed |= report_input(in, o.json ? nullptr : &out);
    if (o.json) {
      std::string s = "{\"file\":";
      append_json_string(s, in.path);
      s += ",\"encoding\":";
      append_json_string(s, in.encoding);
      s += ",\"compression\":";
      append_json_string(s, in.compression);
      s += ",\"bytes\":" + std::to_string(in.bytes) + ",\"errors\":[";
      for (std::size_t i = 0; i < in.input_errors.size(); ++i) {
        if (i) s += ',';
        json_input_error(s, in.input_errors[i]);
      }
      json_inputs += (json_inputs.empty() ? "" : ",\n") + s + "]}";
    } else if (in.opened && in.encoding != "utf-8" && !in.encoding.empty()) {
      std::cerr << shown(in.path) << ": note: not valid UTF-8, decoded as " << in.encoding << "\n";
    } else if (o.verbose && in.opened) {
      std::cerr << shown(in.path) << ": note: decoded as " << in.encoding << " (" << in.compression << ")\n";
    }
  };
  cb.progress = [&](std::uint64_t bytes, std::uint64_t games) { progress.update(bytes, games); };
  game::run_pipeline(o.input.files, pipeline_options(o.input), cb);
  progress.finish();
  std::string summary =
      say(resolve_lang(o.lang), "{} games, {} valid, {} invalid, {} warnings",
          {std::to_string(t.games), std::to_string(t.valid), std::to_string(t.invalid), std::to_string(t.warnings)});
  if (o.json) {
    out << "{\"inputs\":[\n"
        << json_inputs << "\n],\"games\":[\n"
        << json_games << "\n],\"summary\":{\"games\":" << t.games << ",\"valid\":" << t.valid
        << ",\"invalid\":" << t.invalid << ",\"warnings\":" << t.warnings << "}}\n";
  } else {
    out << summary << "\n";
  }
  set_exit_code(t.io_failed ? 2 : t.invalid ? 1 : 0);
  report.finish();
  rejects.finish();  // last: it is put in place only if all else went well
}

}  // namespace

void setup_check(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand("check", "Read PGN files, replay every move and report every problem");
  add_input_options(*cmd, o->input);
  cmd->add_flag("--json", o->json,
                "Print a JSON report instead of lines; each diagnostic has a stable \"code\" (illegal_move, …: README "
                "lists them)");
  cmd->add_flag("-v,--verbose", o->verbose, "Show the source line with a caret under each problem");
  cmd->add_option("--rejects", o->rejects, "Write every invalid game's original text to this file, unchanged");
  add_lang_option(*cmd, o->lang);
  cmd->footer(
      "Each problem is one line: FILE:LINE:COL: error|warning: game N (White – Black), move 31. Qxe1: message\n"
      "The last line reads: N games, V valid, I invalid, W warnings (--lang zh: N 盘对局，V 盘有效，…)\n"
      "Exit status: 0 no game has an error, 1 some game has one, 2 usage or I/O problem.\n"
      "Example: qipu check --rejects bad.pgn games.pgn");
  cmd->callback([o] { run_check(*o); });
}

}  // namespace qipu::cli
