// qipu show ID [--ply N] [--to zh] — one stored game on the terminal: its PGN in any
// notation, then a board of Unicode pieces at a ply, so a search result can be looked at.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/db_options.hpp"
#include "qipu/db/search.hpp"
#include "qipu/game/writer.hpp"

namespace qipu::cli {

namespace {

struct ShowOptions {
  std::string db, to = "en";
  std::int64_t id = 0;
  int ply = -1;  // -1: the end of the mainline
  bool flip = false;
  StyleOptions style;
};

// ♔♕♖♗♘♙ for White, ♚♛♜♝♞♟ for Black, indexed by PieceType.
const char* piece_glyph(Piece p) {
  static const char* const white[] = {"", "♙", "♘", "♗", "♖", "♕", "♔"};
  static const char* const black[] = {"", "♟", "♞", "♝", "♜", "♛", "♚"};
  return color_of(p) == White ? white[type_of(p)] : black[type_of(p)];
}

// Eight ranks with their numbers, files a–h below, a middle dot on each empty square.
std::string board_text(const Position& pos, bool flip) {
  std::string out;
  for (int r = 0; r < 8; ++r) {
    int rank = flip ? r : 7 - r;
    out += std::to_string(rank + 1) + " ";
    for (int f = 0; f < 8; ++f) {
      int file = flip ? 7 - f : f;
      Piece p = pos.piece_on(make_square(file, rank));
      out += " ";
      out += p != NoPiece ? piece_glyph(p) : "·";
    }
    out += "\n";
  }
  out += flip ? "   h g f e d c b a\n" : "   a b c d e f g h\n";
  return out;
}

// The position after `ply` mainline moves (all of them when ply is -1 or past the end),
// with the last move played, numbered, in the chosen notation.
struct PlyView {
  Position pos;
  int ply = 0;
  std::string last_move;
};

PlyView view_at(const game::GameRecord& rec, int ply, const game::WriterOptions& w) {
  PlyView v{rec.start_position, 0, ""};
  game::for_each_move(rec.start_position, rec.mainline,
                      [&](const Position& before, const game::MoveNode& node, const Position& after) {
                        if (ply >= 0 && v.ply >= ply) return;
                        v.last_move = game::numbered_move(before, write_move(before, node.move, *w.notation, w.style));
                        v.pos = after;
                        ++v.ply;
                      });
  return v;
}

void show(std::ostream& out, const ShowOptions& o) {
  auto c = db::open_for_search(db::database_path(o.db));
  game::GameRecord rec;
  if (!db::load_game(*c, o.id, rec)) {
    std::cerr << "qipu show: no game " << o.id << " in " << shown(db::database_path(o.db))
              << " (ids are the first column of qipu search)\n";
    return set_exit_code(2);
  }
  game::WriterOptions w = writer_options(*find_notation(o.to), o.style);
  out << game::write_pgn(rec, w);
  PlyView v = view_at(rec, o.ply, w);
  if (o.ply > v.ply)
    std::cerr << "qipu show: note: game " << o.id << " has " << v.ply << " plies; showing the last position\n";
  out << (v.ply == 0 ? std::string("Start position") : "After " + v.last_move) << " (ply " << v.ply << ")\n\n";
  out << board_text(v.pos, o.flip) << "\nFEN: " << v.pos.fen() << "\n";
}

void run_show(const ShowOptions& o) {
  Output output("show");
  if (!output.open("")) return;
  show(output.stream(), o);
  output.finish();
}

}  // namespace

void setup_show(CLI::App& app) {
  auto o = std::make_shared<ShowOptions>();
  auto* cmd = app.add_subcommand("show", "Show one stored game: tags, moves and a board at a ply");
  cmd->add_option("id", o->id, "The game's id (the first column of qipu search)")->required();
  add_db_option(*cmd, o->db);
  cmd->add_option("--ply", o->ply, "The board after this many half-moves (default: the last; 0: the start)")
      ->check(CLI::NonNegativeNumber);
  std::vector<std::string> codes;
  for (const auto& n : notations()) codes.emplace_back(n.code);
  cmd->add_option("--to", o->to, "Notation of the moves: en (default), zh, zh-Hant, fan, de, …")
      ->check(CLI::IsMember(codes));
  add_style_options(*cmd, o->style);
  cmd->add_flag("--flip", o->flip, "Draw the board from Black's side");
  cmd->footer(
      "White's pieces are ♔♕♖♗♘♙, Black's ♚♛♜♝♞♟; the FEN under the board is the same position.\n"
      "Examples: qipu search --player Tal --limit 5 && qipu show 42\n"
      "          qipu show 42 --ply 20 --to zh");
  cmd->callback([o] { run_show(*o); });
}

}  // namespace qipu::cli
