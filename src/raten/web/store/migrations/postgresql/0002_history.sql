-- raten's game store on PostgreSQL, version 2: games that travel between browsers, and their
-- reviews (the same tables as SQLite's version 2). A game is a player's: the same game id may
-- be held by two players (a copy imported on another browser, merged by id).

ALTER TABLE games DROP CONSTRAINT games_pkey;
ALTER TABLE games ADD PRIMARY KEY (player, id);
DROP INDEX games_player;

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
