-- raten's game store on SQLite, version 2: games that travel between browsers, and their reviews.
-- A game is a player's: the same game id may now be held by two players (a copy imported on
-- another browser, merged by id), so games are keyed by (player, id). SQLite cannot change a
-- table's key: the table is made again with every row, its rowid (the order games were begun
-- in) kept.

CREATE TABLE games_v2 (
    id TEXT NOT NULL,
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
    boards INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (player, id)
);
INSERT INTO games_v2 (rowid, id, player, list, mode, number, hard, answer, rows, status, created, updated, boards)
    SELECT rowid, id, player, list, mode, number, hard, answer, rows, status, created, updated, boards FROM games;
DROP TABLE games;
ALTER TABLE games_v2 RENAME TO games;

-- One daily game per player, list, board count and day.
CREATE UNIQUE INDEX games_daily_boards ON games (player, list, boards, number) WHERE mode = 'daily';

-- A finished game's exact review (raten.play.review, as JSON), computed once in the background.
CREATE TABLE reviews (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    review TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (player, game),
    FOREIGN KEY (player, game) REFERENCES games (player, id) ON DELETE CASCADE
);

-- Short codes that bring a player's games to another browser (valid for a day).
CREATE TABLE transfers (
    code TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id),
    created TEXT NOT NULL
);
