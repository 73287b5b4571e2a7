-- qipu database, schema version 6. Applied by src/db/store.cpp, which records the
-- version in PRAGMA user_version.

-- Names are unique: the importer reads them all and interns them in memory, so they
-- need no index of their own (name searches use LIKE, which scans them anyway).
CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE event  (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE site   (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE source (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
CREATE TABLE opening (id INTEGER PRIMARY KEY, name TEXT NOT NULL, variation TEXT NOT NULL);
-- Final material signatures, White first: "KRPvKR" (db/search.hpp).
CREATE TABLE material (id INTEGER PRIMARY KEY, name TEXT NOT NULL);

CREATE TABLE game (
  id          INTEGER PRIMARY KEY,
  white       INTEGER REFERENCES player(id),
  black       INTEGER REFERENCES player(id),
  event       INTEGER REFERENCES event(id),
  site        INTEGER REFERENCES site(id),
  date_sort   INTEGER,            -- YYYYMMDD, unknown month or day as 00; NULL without a year
  date_text   TEXT,               -- the Date tag when date_sort does not give it back as written
  round       TEXT,
  result      TEXT,               -- the Result tag
  white_elo   INTEGER,
  black_elo   INTEGER,
  eco         TEXT,
  eco_guessed INTEGER NOT NULL DEFAULT 0, -- 1: eco was classified by qipu, not read from a tag
  opening_id  INTEGER REFERENCES opening(id), -- names of the deepest catalogued position reached
  material    INTEGER REFERENCES material(id),
  plies       INTEGER NOT NULL,
  termination INTEGER NOT NULL,   -- qipu::Termination
  start_fen   TEXT,               -- set-up position, NULL for the standard start
  moves       BLOB NOT NULL,      -- ranked moves, Huffman coded (src/db/codec.cpp)
  notes       BLOB,               -- comments, NAGs, variations; NULL when none
  movetext_result TEXT,           -- the movetext's result when it differs from the tag
  tag_layout  TEXT,               -- where WhiteElo, BlackElo, ECO stood among the other tags; w, b: empty Elos
  source      INTEGER REFERENCES source(id),
  offset      INTEGER,            -- byte offset of the game in its source
  -- The Date tag as written ("1990.05.17", "1990.??.??", "????.??.??"); NULL without one.
  -- Computed on reading, so the usual dates cost no bytes.
  date TEXT GENERATED ALWAYS AS (coalesce(date_text, CASE WHEN date_sort IS NOT NULL THEN
    printf('%04d.', date_sort / 10000) ||
    CASE WHEN date_sort / 100 % 100 = 0 THEN '??' ELSE printf('%02d', date_sort / 100 % 100) END || '.' ||
    CASE WHEN date_sort % 100 = 0 THEN '??' ELSE printf('%02d', date_sort % 100) END END)) VIRTUAL
);

-- Tags that have no column, in their original order.
CREATE TABLE tag (
  game  INTEGER NOT NULL REFERENCES game(id) ON DELETE CASCADE,
  seq   INTEGER NOT NULL,
  name  TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (game, seq)
) WITHOUT ROWID;

-- Games that could not be replayed, kept whole with their errors.
CREATE TABLE reject (
  id         INTEGER PRIMARY KEY,
  source     INTEGER REFERENCES source(id),
  offset     INTEGER,
  game_index INTEGER,
  white      TEXT,
  black      TEXT,
  text       TEXT NOT NULL,         -- as decoded to UTF-8
  errors     TEXT NOT NULL,
  -- What text was decoded from when not UTF-8 ("gb18030", "windows-1252", ...), so that
  -- `rejects --pgn` writes the input's bytes back. Added after version 2 came out: the
  -- importer adds it to older files (reject_encoding_column).
  encoding   TEXT,
  UNIQUE (source, offset)
);

-- Position index: the Polyglot key of every mainline position, as sorted runs
-- ("segments") cut into chunks of delta-encoded (key, game, ply) entries
-- (src/db/position_index.cpp; their layout, and the one of chunks before version 6, in
-- src/db/index_codec.hpp). Keys are stored as their top 48 bits; matches are
-- verified by replaying the game.
CREATE TABLE segment (id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);
CREATE TABLE posting (
  id        INTEGER PRIMARY KEY,
  segment   INTEGER NOT NULL REFERENCES segment(id) ON DELETE CASCADE,
  first_key INTEGER NOT NULL,
  last_key  INTEGER NOT NULL,
  data      BLOB NOT NULL
);
CREATE INDEX posting_range ON posting(segment, last_key);

-- Games stored without position index entries (import --no-position-index), as ranges
-- of ids, written with the games: position queries replay these games instead.
CREATE TABLE unindexed (first_game INTEGER NOT NULL, last_game INTEGER NOT NULL);

-- @explore: the explorer's aggregate (include/qipu/db/explore.hpp): per position with at
-- most 12 units off their start squares and per move played from it, the games, results,
-- Elo sums, last year and best-rated games, as sorted runs of chunks in the position
-- index's form; rows of one position and move in several runs add up. Version 3;
-- opening a version 2 database for writing adds these and fills them from its games.
CREATE TABLE explore_segment (id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);
CREATE TABLE explore_posting (
  id        INTEGER PRIMARY KEY,
  segment   INTEGER NOT NULL REFERENCES explore_segment(id) ON DELETE CASCADE,
  first_key INTEGER NOT NULL,
  last_key  INTEGER NOT NULL,
  data      BLOB NOT NULL
);
CREATE INDEX explore_posting_range ON explore_posting(segment, last_key);

-- @players: the player index (include/qipu/db/player_index.hpp): each game under its
-- White player (key player id * 2) and its Black player (key player id * 2 + 1), as sorted
-- runs of chunks in the position index's form, whose ply field holds the game's result (1:
-- 1-0, 2: 0-1, 3: 1/2-1/2, 4: other; 0 in entries written before qipu kept it, whose games'
-- rows say), so that a player's wins, draws or losses cost no game row. Version 4; it
-- replaces the SQLite indexes game_white and game_black, which opening a version 3 database
-- for writing drops after filling these from the games. Filters on result, ECO and dates
-- scan the game table: such filters match too many games for an index to pay for its size.
CREATE TABLE player_segment (id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);
CREATE TABLE player_posting (
  id        INTEGER PRIMARY KEY,
  segment   INTEGER NOT NULL REFERENCES player_segment(id) ON DELETE CASCADE,
  first_key INTEGER NOT NULL,
  last_key  INTEGER NOT NULL,
  data      BLOB NOT NULL
);
CREATE INDEX player_posting_range ON player_posting(segment, last_key);

-- @merges: merges of position index runs in progress (src/db/runs.hpp, advance), done a
-- part after each batch rather than whole. Runs first_source to target - 1 are being
-- merged into run `target`, whose entries column already holds their sum; entries with keys
-- below `boundary` are in the target and no longer count in the sources; the target holds
-- `written` entries so far. Version 5; opening a version 4 database for writing adds it.
CREATE TABLE segment_merge (
  target       INTEGER PRIMARY KEY,
  first_source INTEGER NOT NULL,
  boundary     INTEGER NOT NULL,
  written      INTEGER NOT NULL
);

-- @every-open: opening for writing runs what follows each time (IF NOT EXISTS: a no-op
-- that takes no write lock when the tables are there), so that a database made before
-- them gains them.

-- Player identities corrected by hand (qipu players merge/split; db/players.hpp), by
-- spelling rather than player id, so that they outlive the games' rows: deleting games
-- and importing them again keeps them.
CREATE TABLE IF NOT EXISTS player_merge (a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS player_split (name TEXT PRIMARY KEY) WITHOUT ROWID;

-- The duplicate hashes of the stored games (game::duplicate_key), 8 bytes each,
-- little-endian, a row for a range of game ids, written with the games: an import reads
-- them in one pass at its start instead of hashing every stored game from its rows
-- (bench/bench_import.md, 2026-12-02). Games no row covers (stored before this table, or
-- by an older qipu) are hashed from their rows by the next import, and their row written.
CREATE TABLE IF NOT EXISTS game_hash (
  first_game INTEGER PRIMARY KEY,
  last_game  INTEGER NOT NULL,
  hashes     BLOB NOT NULL
);

-- The ECO lines the last import classified its games by (db/eco.hpp), a row a named
-- position (key: its Polyglot key; max_ply: the table's longest line, the same in every
-- row, beyond which classify looks no deeper), so that explore names a position with one
-- query instead of reading the ECO file again: 6 of the 25 ms of an answer (2026-12-03).
-- Empty until an import with an ECO file; explore then reads the file.
CREATE TABLE IF NOT EXISTS eco_line (
  key       INTEGER PRIMARY KEY,
  eco       TEXT NOT NULL,
  name      TEXT NOT NULL,
  variation TEXT NOT NULL,
  max_ply   INTEGER NOT NULL
);

-- The collection's totals (db/summary.hpp), kept by import in the games' transactions: games,
-- first and last dates and first and last game ids by kind and value ('all'; 'result' and
-- 'no result'; 'termination'; 'event' by id; 'opening' by id), and the last game id they count
-- ('through', in games; 'openings through' for the openings, kept since 2026-12-04, which a
-- qipu from before leaves behind when it imports). Games past it
-- (stored by an older qipu) are counted from their rows when read, and added by the next
-- import. Without it `qipu stats` and qipu serve's summary and events read every game: more
-- than 10 s at 12 M games (bench/bench_serve.md, 2026-12-04).
CREATE TABLE IF NOT EXISTS summary (
  kind       TEXT NOT NULL,
  value      NOT NULL,
  games      INTEGER NOT NULL,
  first_date INTEGER,
  last_date  INTEGER,
  first_game INTEGER NOT NULL,
  last_game  INTEGER NOT NULL,
  PRIMARY KEY (kind, value)
) WITHOUT ROWID;

-- Each player row's totals (db/player_totals.hpp), kept by import in the games' transactions:
-- games, wins, draws and losses (a game without a result counts in games only), the range of
-- the player's Elo and of the dates (date_sort), as sorted runs of chunks in the position
-- index's form, by player id, a player's entries in several runs adding up (runs, not a row a
-- player: updating such rows in place made an import by many players a third slower). Without
-- them, grouping players into people (qipu players, stats, rating) read every game and its
-- tags: 24.6 s for qipu players at 10 M games (bench/bench_search.md, 2026-12-04).
CREATE TABLE IF NOT EXISTS player_total_run (id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS player_total_chunk (
  id        INTEGER PRIMARY KEY,
  segment   INTEGER NOT NULL,
  first_key INTEGER NOT NULL,
  last_key  INTEGER NOT NULL,
  data      BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS player_total_chunk_range ON player_total_chunk(segment, last_key);
-- The FIDE ids (WhiteFideId, BlackFideId tags) each player row's games give, with the number
-- of games giving each. Player 0 (no player has that id), fide '': in games, the last game id
-- the totals count; games past it (stored by an older qipu) are counted from their rows when
-- read, and added by the next import.
CREATE TABLE IF NOT EXISTS player_fide (
  player INTEGER NOT NULL,
  fide   TEXT NOT NULL,
  games  INTEGER NOT NULL,
  PRIMARY KEY (player, fide)
) WITHOUT ROWID;

-- The deep positions (src/db/deep_positions.hpp): positions past the aggregate's depth that
-- many games reach, counted by import from the game after the position index's merges found
-- their key popular (first_game; 0: the key turned out to be an aggregated position's, and is
-- not counted), in runs of the aggregate's form. Key -1's first_game is the last game they
-- count; an import that finds games past it (stored by an older qipu) starts afresh.
CREATE TABLE IF NOT EXISTS deep_position (key INTEGER PRIMARY KEY, first_game INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deep_segment (id INTEGER PRIMARY KEY, entries INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deep_posting (
  id        INTEGER PRIMARY KEY,
  segment   INTEGER NOT NULL,
  first_key INTEGER NOT NULL,
  last_key  INTEGER NOT NULL,
  data      BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS deep_posting_range ON deep_posting(segment, last_key);
