// Opens a qipu database (made by `qipu import`) and lists the games that reach the
// position after the given moves, by any move order.
// Usage: position_query DATABASE "1.e4 e5 2.Nf3 Nc6"
#include <iostream>

#include "qipu/db/search.hpp"
#include "qipu/db/store.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: position_query DATABASE MOVES\n";
    return 2;
  }
  try {
    auto db = qipu::db::open_for_search(argv[1]);
    auto moves = qipu::db::parse_move_list(argv[2]);  // any notation, 马f3 too
    if (!moves) {
      std::cerr << "position_query: " << moves.error() << "\n";
      return 2;
    }
    qipu::db::PositionQuery query{moves->position, std::nullopt};  // reached at any ply
    qipu::db::GameQuery all;                                       // no other condition
    for (std::int64_t id : qipu::db::find_position(*db, query, all)) {
      qipu::game::GameRecord game;
      if (qipu::db::load_game(*db, id, game))
        std::cout << id << "\t" << game.tag("White") << " - " << game.tag("Black") << "\n";
    }
  } catch (const qipu::db::DbError& e) {  // the db module's one exception type
    std::cerr << "position_query: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
