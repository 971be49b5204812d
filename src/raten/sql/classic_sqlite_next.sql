-- next: the best next guesses after some scored guesses (classic layout, SQLite).
--
-- answers_left is the query of remaining.sql. Each guess in the pool splits the answers
-- left into groups by the score it would show; a group of k of the n answers left has
-- probability p = k / n, and the guess's entropy is -SUM(p * LOG2(p)) bits.
-- SQLite groups by sorting, so each guess's groups are counted in a correlated
-- subquery (n lookups by key: pairidx = guessidx * words + answeridx), not in one sort
-- of all rows; only the best $top are then described in full. Ties as in openers.sql.
--
-- Parameters: $guess_1, $score_1 (wordidx and code, repeated per scored guess with
-- INTERSECT as in remaining.sql), $top.
-- no move: SELECT wordidx FROM answer_index
WITH
stride(words) AS (SELECT COUNT(*) FROM word_index),
answers_left(wordidx) AS MATERIALIZED (
    -- begin move
    SELECT answeridx FROM score
     WHERE pairidx BETWEEN $guess_1 * (SELECT words FROM stride)
                       AND ($guess_1 + 1) * (SELECT words FROM stride) - 1
       AND scoreidx = $score_1
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
                      FROM answers_left a, stride, score s
                     WHERE s.pairidx = g.guessidx * words + a.wordidx
                     GROUP BY s.scoreidx)) AS bits,
           g.guessidx IN (SELECT wordidx FROM answers_left) AS candidate
      FROM pool g
),
ranked AS MATERIALIZED (            -- the best $top
    SELECT * FROM scored
     ORDER BY ROUND(bits, 9) DESC, candidate DESC, guessidx
     LIMIT $top
),
bucket(guessidx, k) AS (            -- the groups of the best guesses only
    SELECT r.guessidx, COUNT(*)
      FROM ranked r, answers_left a, stride, score s
     WHERE s.pairidx = r.guessidx * words + a.wordidx
     GROUP BY r.guessidx, s.scoreidx
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
