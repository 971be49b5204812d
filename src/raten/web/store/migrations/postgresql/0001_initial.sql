-- raten's game store on PostgreSQL, version 1: the same tables as SQLite's version 1.
-- rows: the guesses as JSON text, [[word, code], ...] (compared as text when a move is saved).
-- rowid: the order games were begun in, named as SQLite's implicit column so both engines
-- share the store's queries.

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE players (id TEXT PRIMARY KEY, created TEXT NOT NULL);

CREATE TABLE games (
    rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id),
    list TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('daily', 'practice')),
    number INTEGER,
    hard INTEGER NOT NULL,
    answer TEXT NOT NULL,
    rows TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'playing',
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    boards INTEGER NOT NULL DEFAULT 1
);

CREATE INDEX games_player ON games (player);

-- One daily game per player, list, board count and day.
CREATE UNIQUE INDEX games_daily_boards ON games (player, list, boards, number) WHERE mode = 'daily';
