-- openers: the best first guesses (classic layout, DuckDB).
--
-- Each guess splits the answers into groups by the score it would show (bucket: one
-- row per guess and score, with the group's size k). A group of k of the n answers has
-- probability p = k / n, and the guess's entropy, -SUM(p * LOG2(p)) bits, is how much
-- its score tells on average: the higher the better.
-- Ties go to guesses that may be the answer, then alphabetically, as in raten; the bits
-- are rounded to 9 places first so that equal splits tie whatever the order of summing.
--
-- Parameters: $top.

-- guessidx (14 bits for up to 16384 words) and scoreidx (8 bits) make a 22-bit key:
-- allowed that much, DuckDB counts the groups in a plain array instead of a hash table,
-- about twice as fast here. A setting of this connection, harmless elsewhere.
SET perfect_ht_threshold = 22;

WITH
total(n) AS (SELECT COUNT(*) FROM answer_index),
bucket(guessidx, k) AS (
    SELECT guessidx, COUNT(*)
      FROM score
     GROUP BY guessidx, scoreidx
),
split AS (
    SELECT guessidx,
           -SUM(p * LOG2(p)) AS bits,
           COUNT(*) AS patterns,
           MAX(k) AS largest,
           CAST(SUM(k * k) AS DOUBLE) / n AS expected_remaining
      FROM (SELECT guessidx, k, CAST(k AS DOUBLE) / n AS p, n FROM bucket, total)
     GROUP BY guessidx, n
)
SELECT w.word, s.bits,
       w.wordidx IN (SELECT wordidx FROM answer_index) AS candidate,
       s.patterns, s.largest, s.expected_remaining
  FROM split s JOIN word_index w ON w.wordidx = s.guessidx
 ORDER BY ROUND(s.bits, 9) DESC, candidate DESC, w.wordidx
 LIMIT $top;
