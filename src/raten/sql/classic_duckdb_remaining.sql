-- remaining: the answers that fit every scored guess (classic layout, DuckDB).
--
-- Parameters: $guess_1, the guess's wordidx, and $score_1, the code it showed (0..242 for five letters;
-- score_index turns emoji into codes). For several scored guesses raten repeats the
-- lines from "begin move" to "end move" with $guess_2, $score_2, ... and joins them
-- with INTERSECT, which keeps the answers that fit them all.
-- no move: SELECT wordidx FROM answer_index
WITH
answers_left(wordidx) AS (
    -- begin move
    SELECT answeridx FROM score
     WHERE guessidx = $guess_1 AND scoreidx = $score_1
    -- end move
)
SELECT w.word
  FROM answers_left JOIN word_index w USING (wordidx)
 ORDER BY w.word;
