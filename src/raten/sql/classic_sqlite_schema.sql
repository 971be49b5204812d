-- The classic layout in SQLite: one row per guess x answer, the layout of the
-- well-known "Wordle rainbow table" article, made small.
--
-- score keeps the columns guessidx, answeridx and scoreidx, but only scoreidx is
-- stored: the row's key pairidx = guessidx * {stride} + answeridx ({stride} is the
-- number of words) is the table's rowid, and guessidx and answeridx are computed from
-- it (VIRTUAL generated columns, no bytes on disk). So a row costs about 10.8 bytes
-- instead of 16 for a table with its own rowid, and one guess's rows are one short
-- range of the key: pairidx BETWEEN guessidx * {stride} AND guessidx * {stride} + {stride} - 1.
-- Filtering on the generated columns works too, but scans every row: the packaged
-- queries use ranges of pairidx instead.
PRAGMA page_size = 65536;

CREATE TABLE word_index (
    wordidx INTEGER PRIMARY KEY,        -- 0, 1, ... in alphabetical order
    word    TEXT NOT NULL UNIQUE        -- lowercase, normalised, all of one length
);

CREATE TABLE answer_index (             -- the words that may be the answer
    wordidx INTEGER PRIMARY KEY REFERENCES word_index (wordidx)
);

CREATE TABLE score_index (
    scoreidx INTEGER PRIMARY KEY,       -- the feedback code 0..3^L - 1: base 3, first letter most
                                        -- significant, 0 grey, 1 yellow, 2 green
    score    TEXT NOT NULL UNIQUE       -- the same as emoji, e.g. ⬜⬜🟨🟩⬜ (code 15)
);

CREATE TABLE score (                    -- what guess guessidx shows when the answer is answeridx
    pairidx   INTEGER PRIMARY KEY,      -- guessidx * {stride} + answeridx
    scoreidx  INTEGER NOT NULL REFERENCES score_index (scoreidx),
    guessidx  INTEGER GENERATED ALWAYS AS (pairidx / {stride}) VIRTUAL REFERENCES word_index (wordidx),
    answeridx INTEGER GENERATED ALWAYS AS (pairidx % {stride}) VIRTUAL REFERENCES answer_index (wordidx)
);

CREATE TABLE raten_meta (               -- what was built from what: word list, sizes, versions
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
