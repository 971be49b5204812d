-- next: the best next guesses after some scored guesses (compact layout, SQLite).
--
-- answers_left is the query of remaining.sql. Each guess in the pool splits the answers
-- left into groups by the byte of its row at each answer's place; a group of k of the
-- n answers left has probability p = k / n, and the guess's entropy is
-- -SUM(p * LOG2(p)) bits. Counted one guess at a time in a correlated subquery (SQLite
-- groups by sorting); only the best $top are then described in full. Ties as in
-- openers.sql.
--
-- Parameters: $guess_1, $score_1 (wordidx and code, repeated per scored guess with
-- INTERSECT as in remaining.sql), $top.
-- no move: SELECT wordidx, answerpos FROM answer_index
WITH
answers_left(wordidx, answerpos) AS MATERIALIZED (
    -- begin move
    SELECT a.wordidx, a.answerpos
      FROM answer_index a, guess_score g, score_index s
     WHERE g.guessidx = $guess_1 AND s.scoreidx = $score_1
       AND substr(g.scores, a.answerpos + 1, 1) = s.byte
    -- end move
),
total(n) AS (SELECT COUNT(*) FROM answers_left),
pool(guessidx) AS (                 -- every word; with one or two answers left,
                                    -- only those (as raten does)
    SELECT wordidx FROM word_index WHERE (SELECT n FROM total) > 2
    UNION ALL
    SELECT wordidx FROM answers_left WHERE (SELECT n FROM total) <= 2
),
scored AS MATERIALIZED (            -- every guess's bits, once (not again for ORDER BY)
    SELECT g.guessidx,
           (SELECT -SUM(p * LOG2(p))
              FROM (SELECT CAST(COUNT(*) AS DOUBLE) / (SELECT n FROM total) AS p
                      FROM (SELECT CAST(substr(g.scores, a.answerpos + 1, 1) AS TEXT) AS byte
                              FROM answers_left a)
                     GROUP BY byte)) AS bits,
           g.guessidx IN (SELECT wordidx FROM answers_left) AS candidate
      FROM pool JOIN guess_score g USING (guessidx)
),
ranked AS MATERIALIZED (            -- the best $top
    SELECT * FROM scored
     ORDER BY ROUND(bits, 9) DESC, candidate DESC, guessidx
     LIMIT $top
),
bucket(guessidx, k) AS (            -- the groups of the best guesses only
    SELECT r.guessidx, COUNT(*)
      FROM ranked r, guess_score g, answers_left a
     WHERE g.guessidx = r.guessidx
     GROUP BY r.guessidx, CAST(substr(g.scores, a.answerpos + 1, 1) AS TEXT)
)
SELECT w.word, r.bits, r.candidate,
       COUNT(*) AS patterns,
       MAX(b.k) AS largest,
       CAST(SUM(b.k * b.k) AS DOUBLE) / (SELECT n FROM total) AS expected_remaining
  FROM ranked r
  JOIN bucket b USING (guessidx)
  JOIN word_index w ON w.wordidx = r.guessidx
 GROUP BY r.guessidx
 ORDER BY ROUND(r.bits, 9) DESC, r.candidate DESC, r.guessidx;
