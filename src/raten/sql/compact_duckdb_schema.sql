-- The compact layout in DuckDB: one row per guess, its scores against every answer in
-- a list of one-byte integers (about 1.02 bytes per guess x answer on disk).
--
-- scores[answerpos + 1] is the feedback code of the guess against the answer whose
-- answerpos is answerpos (DuckDB lists count from 1). UNNEST(scores) turns a row back
-- into one value per answer, for grouping.
-- The price: a row is a list, not a relation; lists are read whole.

CREATE TABLE word_index (
    wordidx INTEGER PRIMARY KEY,        -- 0, 1, ... in alphabetical order
    word    VARCHAR NOT NULL UNIQUE     -- lowercase, normalised, all of one length
);

CREATE TABLE answer_index (             -- the words that may be the answer
    answerpos INTEGER PRIMARY KEY,      -- this answer's place in guess_score.scores, 0..
    wordidx   INTEGER NOT NULL UNIQUE REFERENCES word_index (wordidx)
);

CREATE TABLE score_index (
    scoreidx INTEGER PRIMARY KEY,       -- the feedback code 0..3^L - 1: base 3, first letter most
                                        -- significant, 0 grey, 1 yellow, 2 green
    score    VARCHAR NOT NULL UNIQUE    -- the same as emoji, e.g. ⬜⬜🟨🟩⬜ (code 15)
);

CREATE TABLE guess_score (              -- one row per allowed guess
    guessidx INTEGER PRIMARY KEY,       -- references word_index (wordidx)
    scores   {code_type}[] NOT NULL     -- scores[answerpos + 1]: the code against that answer (UTINYINT or USMALLINT)
);

CREATE TABLE raten_meta (               -- what was built from what: word list, sizes, versions
    key   VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);
