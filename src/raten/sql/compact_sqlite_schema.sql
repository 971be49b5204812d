-- The compact layout in SQLite: one row per guess, its scores against every answer
-- packed in a blob, one byte per answer (about 1.02 bytes per guess x answer on disk); so for
-- words of up to five letters (243 codes): longer words take the classic layout.
--
-- Byte i of guess_score.scores (substr(scores, i + 1, 1)) is the feedback code of the
-- guess against the answer whose answerpos is i. SQL reads it with substr() and
-- compares the one-byte blob with score_index.byte, or groups the bytes as they are
-- (cast to text, which SQLite sorts faster than blobs): no function beyond core SQLite.
-- The price: a row is a blob, not a relation; one guess x answer is
-- substr(scores, answerpos + 1, 1), and ranking reads every byte through substr().
PRAGMA page_size = 65536;               -- 28 blobs of 2315 bytes fill a page: little waste

CREATE TABLE word_index (
    wordidx INTEGER PRIMARY KEY,        -- 0, 1, ... in alphabetical order
    word    TEXT NOT NULL UNIQUE        -- lowercase, normalised, all of one length
);

CREATE TABLE answer_index (             -- the words that may be the answer
    answerpos INTEGER PRIMARY KEY,      -- this answer's byte in guess_score.scores, 0..
    wordidx   INTEGER NOT NULL UNIQUE REFERENCES word_index (wordidx)
);

CREATE TABLE score_index (
    scoreidx INTEGER PRIMARY KEY,       -- the feedback code 0..3^L - 1: base 3, first letter most
                                        -- significant, 0 grey, 1 yellow, 2 green
    score    TEXT NOT NULL UNIQUE,      -- the same as emoji, e.g. ⬜⬜🟨🟩⬜ (code 15)
    byte     BLOB NOT NULL UNIQUE       -- the code as the one-byte blob stored in scores
);

CREATE TABLE guess_score (              -- one row per allowed guess
    guessidx INTEGER PRIMARY KEY REFERENCES word_index (wordidx),
    scores   BLOB NOT NULL              -- byte answerpos: the code against that answer
);

CREATE TABLE raten_meta (               -- what was built from what: word list, sizes, versions
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
