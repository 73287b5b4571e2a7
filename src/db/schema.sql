-- qipu database, schema version 1. Applied by src/db/store.cpp, which records the
-- version in PRAGMA user_version and runs later migrations in order.

CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE event  (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE site   (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE source (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
CREATE TABLE opening (id INTEGER PRIMARY KEY, name TEXT NOT NULL, variation TEXT NOT NULL, UNIQUE (name, variation));

CREATE TABLE game (
  id          INTEGER PRIMARY KEY,
  white       INTEGER REFERENCES player(id),
  black       INTEGER REFERENCES player(id),
  event       INTEGER REFERENCES event(id),
  site        INTEGER REFERENCES site(id),
  date        TEXT,               -- the Date tag as written
  date_sort   INTEGER,            -- YYYYMMDD, unknown month or day as 00; NULL without a year
  round       TEXT,
  result      TEXT,               -- the Result tag
  white_elo   INTEGER,
  black_elo   INTEGER,
  eco         TEXT,
  eco_guessed INTEGER NOT NULL DEFAULT 0, -- 1: eco was classified by qipu, not read from a tag
  opening_id  INTEGER REFERENCES opening(id), -- names of the deepest catalogued position reached
  material    TEXT,               -- final material, White first: "KRPvKR"
  plies       INTEGER NOT NULL,
  termination INTEGER NOT NULL,   -- qipu::Termination
  start_fen   TEXT,               -- set-up position, NULL for the standard start
  moves       BLOB NOT NULL,      -- one byte a move (src/db/codec.cpp)
  notes       BLOB,               -- comments, NAGs, variations; NULL when none
  movetext_result TEXT,           -- the movetext's result when it differs from the tag
  tag_layout  TEXT,               -- where WhiteElo, BlackElo, ECO stood among the other tags
  source      INTEGER REFERENCES source(id),
  offset      INTEGER,            -- byte offset of the game in its source
  hash        INTEGER NOT NULL    -- of the roster tags and moves, for duplicates
);
CREATE INDEX game_white ON game(white);
CREATE INDEX game_black ON game(black);
CREATE INDEX game_date ON game(date_sort);
CREATE INDEX game_eco ON game(eco, date_sort);
CREATE INDEX game_result ON game(result, date_sort);

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
  text       TEXT NOT NULL,
  errors     TEXT NOT NULL,
  UNIQUE (source, offset)
);

-- Position index: the Polyglot key of every mainline position, as sorted runs
-- ("segments") cut into chunks of delta-encoded (key, game, ply) entries
-- (src/db/position_index.cpp). Keys are stored as their top 48 bits; matches are
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
