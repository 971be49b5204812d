-- openers: the best first guesses (classic layout, SQLite).
--
-- Each guess splits the answers into groups by the score it would show. A group of k
-- of the n answers has probability p = k / n, and the guess's entropy, -SUM(p * LOG2(p))
-- bits, is how much its score tells on average: the higher the better.
-- SQLite groups by sorting, so the groups are counted one guess at a time in a
-- correlated subquery over that guess's own rows (one range of the key), not in one
-- sort of all guess x answer rows. Only the best $top are then described in full:
-- number of patterns, largest group, expected number of answers left.
-- Ties go to guesses that may be the answer, then alphabetically, as in raten; the bits
-- are rounded to 9 places first so that equal splits tie whatever the order of summing.
--
-- Parameters: $top.
WITH
stride(words) AS (SELECT COUNT(*) FROM word_index),  -- pairidx = guessidx * words + answeridx
total(n) AS (SELECT COUNT(*) FROM answer_index),
scored AS MATERIALIZED (            -- every guess's bits, once (not again for ORDER BY)
    SELECT g.wordidx AS guessidx,
           (SELECT -SUM(p * LOG2(p))
              FROM (SELECT CAST(COUNT(*) AS DOUBLE) / (SELECT n FROM total) AS p
                      FROM score, stride
                     WHERE pairidx BETWEEN g.wordidx * words AND g.wordidx * words + words - 1
                     GROUP BY scoreidx)) AS bits,
           g.wordidx IN (SELECT wordidx FROM answer_index) AS candidate
      FROM word_index g
),
ranked AS MATERIALIZED (            -- the best $top
    SELECT * FROM scored
     ORDER BY ROUND(bits, 9) DESC, candidate DESC, guessidx
     LIMIT $top
),
bucket(guessidx, k) AS (            -- the groups of the best guesses only
    SELECT r.guessidx, COUNT(*)
      FROM ranked r, stride, score s
     WHERE s.pairidx BETWEEN r.guessidx * words AND r.guessidx * words + words - 1
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
