-- The classic layout in DuckDB: one row per guess x answer, the layout of the
-- well-known "Wordle rainbow table" article.
--
-- DuckDB stores columns compressed, so the plain three-column table is already small
-- when the rows are in the right order: answer by answer (answeridx, then guessidx).
-- Then answeridx is a few thousand runs (RLE), guessidx counts up by one (delta
-- bit-packing) and only scoreidx costs about a byte a row. Guess by guess, answeridx
-- would jump back at every guess and cost 14 bits a row.
-- No key or foreign-key constraints on score: DuckDB would build an index for them,
-- bigger than the table. The references are documented here instead.

CREATE TABLE word_index (
    wordidx INTEGER PRIMARY KEY,        -- 0, 1, ... in alphabetical order
    word    VARCHAR NOT NULL UNIQUE     -- lowercase, normalised, all of one length
);

CREATE TABLE answer_index (             -- the words that may be the answer
    wordidx INTEGER PRIMARY KEY REFERENCES word_index (wordidx)
);

CREATE TABLE score_index (
    scoreidx INTEGER PRIMARY KEY,       -- the feedback code 0..3^L - 1: base 3, first letter most
                                        -- significant, 0 grey, 1 yellow, 2 green
    score    VARCHAR NOT NULL UNIQUE    -- the same as emoji, e.g. ⬜⬜🟨🟩⬜ (code 15)
);

CREATE TABLE score (                    -- what guess guessidx shows when the answer is answeridx
    guessidx  USMALLINT NOT NULL,       -- references word_index (wordidx)
    answeridx USMALLINT NOT NULL,       -- references answer_index (wordidx)
    scoreidx  {code_type} NOT NULL      -- references score_index (scoreidx); UTINYINT up to five letters, USMALLINT above
);

CREATE TABLE raten_meta (               -- what was built from what: word list, sizes, versions
    key   VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);
