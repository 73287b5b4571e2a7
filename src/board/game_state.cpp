#include "qipu/board/game_state.hpp"

#include "qipu/board/movegen.hpp"

namespace qipu {

std::string_view termination_name(Termination t) {
  switch (t) {
    case Termination::None: return "none";
    case Termination::Checkmate: return "checkmate";
    case Termination::Stalemate: return "stalemate";
    case Termination::InsufficientMaterial: return "insufficient_material";
    case Termination::FivefoldRepetition: return "fivefold_repetition";
    case Termination::SeventyFiveMoveRule: return "seventy_five_move_rule";
    case Termination::ThreefoldRepetition: return "threefold_repetition";
    case Termination::FiftyMoveRule: return "fifty_move_rule";
  }
  return "none";
}

bool insufficient_material(const Position& pos) {
  if (pos.pieces(Pawn, Rook) | pos.pieces(Queen)) return false;
  Bitboard minors = pos.pieces(Knight, Bishop);
  if (popcount(minors) <= 1) return true;  // K v K, K+B v K, K+N v K
  if (pos.pieces(Knight)) return false;    // two knights or knight and bishop can mate
  Bitboard bishops = pos.pieces(Bishop);
  return !(bishops & DarkSquares) || !(bishops & ~DarkSquares);
}

void GameState::reset(const Position& start) {
  pos_ = start;
  keys_.clear();
  keys_.push_back(pos_.repetition_key());
}

void GameState::play(Move m) {
  pos_.play(m);
  keys_.push_back(pos_.repetition_key());
}

GameState GameState::rewind(const Position& before) const {
  GameState g(before);
  g.keys_.assign(keys_.begin(), keys_.end() - (keys_.size() > 1 ? 1 : 0));
  return g;
}

int GameState::repetitions() const {
  // Only positions since the last capture or pawn move can repeat the current one.
  int back = std::min<int>(pos_.halfmove_clock(), int(keys_.size()) - 1);
  int count = 1;
  Key now = keys_.back();
  for (int i = 2; i <= back; i += 2)
    if (keys_[keys_.size() - 1 - i] == now) ++count;
  return count;
}

Termination GameState::termination() const {
  if (!has_legal_move(pos_)) return pos_.in_check() ? Termination::Checkmate : Termination::Stalemate;
  if (insufficient_material(pos_)) return Termination::InsufficientMaterial;
  int reps = repetitions();
  if (reps >= 5) return Termination::FivefoldRepetition;
  if (pos_.halfmove_clock() >= 150) return Termination::SeventyFiveMoveRule;
  if (reps >= 3) return Termination::ThreefoldRepetition;
  if (pos_.halfmove_clock() >= 100) return Termination::FiftyMoveRule;
  return Termination::None;
}

}  // namespace qipu
