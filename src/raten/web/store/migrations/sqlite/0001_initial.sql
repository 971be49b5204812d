-- raten's game store on SQLite, version 1: players, their games, the daily secret.
-- Written so that it also adopts a database made before schema versions (every statement
-- leaves what is already there); a games table from before many boards gets its boards
-- column from the engine first (SQLite has no ADD COLUMN IF NOT EXISTS).
-- Statistics are worked out from the games (raten.play.records): an old stats table stays unread.

CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, created TEXT NOT NULL);

-- rows: the guesses as JSON, [[word, code], ...] (a list of codes per row on many boards).
-- The order games were begun in is SQLite's rowid.
CREATE TABLE IF NOT EXISTS games (
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

CREATE INDEX IF NOT EXISTS games_player ON games (player);

-- One daily game per player, list, board count and day (before many boards: without boards).
DROP INDEX IF EXISTS games_daily;
CREATE UNIQUE INDEX IF NOT EXISTS games_daily_boards ON games (player, list, boards, number) WHERE mode = 'daily';
