-- next: the best next guesses after some scored guesses (compact layout, DuckDB).
--
-- answers_left is the query of remaining.sql. Each guess in the pool splits the answers
-- left into groups by its list's score at each answer's place (bucket: one row per
-- guess and score, with the group's size k); a group of k of the n answers left has
-- probability p = k / n, and the guess's entropy is -SUM(p * LOG2(p)) bits. Ties as in
-- openers.sql.
--
-- Parameters: $guess_1, $score_1 (wordidx and code, repeated per scored guess with
-- INTERSECT as in remaining.sql), $top.
-- no move: SELECT wordidx, answerpos FROM answer_index
WITH
answers_left(wordidx, answerpos) AS MATERIALIZED (
    -- begin move
    SELECT a.wordidx, a.answerpos
      FROM answer_index a, guess_score g
     WHERE g.guessidx = $guess_1 AND g.scores[a.answerpos + 1] = $score_1
    -- end move
),
total(n) AS (SELECT COUNT(*) FROM answers_left),
pool(guessidx) AS (                 -- every word; with one or two answers left,
                                    -- only those (as raten does)
    SELECT wordidx FROM word_index WHERE (SELECT n FROM total) > 2
    UNION ALL
    SELECT wordidx FROM answers_left WHERE (SELECT n FROM total) <= 2
),
bucket(guessidx, k) AS (
    SELECT g.guessidx, COUNT(*)
      FROM pool
      JOIN guess_score g USING (guessidx)
     CROSS JOIN answers_left a
     GROUP BY g.guessidx, g.scores[a.answerpos + 1]
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
       w.wordidx IN (SELECT wordidx FROM answers_left) AS candidate,
       s.patterns, s.largest, s.expected_remaining
  FROM split s JOIN word_index w ON w.wordidx = s.guessidx
 ORDER BY ROUND(s.bits, 9) DESC, candidate DESC, w.wordidx
 LIMIT $top;
