// The codec's guess of which moves a player is likeliest to choose, from the position
// alone, so that a move's rank in this order means the same move in every game that
// reaches the position. Cheap, as it runs for every move of every imported game: a few
// attack sets per position, a handful of table lookups per move.
// Stored games depend on this order: a change to it needs a new schema version (and a
// migration or a re-import), as the test pinning a known line's code will say.
#pragma once

#include "qipu/board/position.hpp"

namespace qipu::db {

// The order, most likely first: queen promotions; captures by what they win (a guarded
// victim costs the capturer), so that bad captures fall among the quiet moves; castling;
// quiet moves by how often players move that piece from and to those squares, lower when
// the piece would stand where it can be taken, higher when it escapes an attack; checks
// a little higher; under-promotions last. Ties go to the lower 16-bit move value.
//
// The moves ranked ("candidates") are the legal ones when in check; otherwise every move
// of the side's pieces that does not put its king on an attacked square, which includes
// the odd move of a pinned piece or en passant capture that is illegal. Those take a
// place in the order but never occur; generating them costs much less than proving
// every move legal.

// The rank of a legal move: how many candidates come before it.
[[nodiscard]] int move_rank(const Position& pos, Move m);
// The candidate at `rank`; Move::none() past the last. It may be illegal.
[[nodiscard]] Move move_at_rank(const Position& pos, int rank);

}  // namespace qipu::db
