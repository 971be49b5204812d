-- remaining: the answers that fit every scored guess (classic layout, SQLite).
--
-- Parameters: $guess_1, the guess's wordidx, and $score_1, the code it showed (0..242 for five letters;
-- score_index turns emoji into codes). For several scored guesses raten repeats the
-- lines from "begin move" to "end move" with $guess_2, $score_2, ... and joins them
-- with INTERSECT, which keeps the answers that fit them all.
-- no move: SELECT wordidx FROM answer_index
--
-- One guess's rows are one range of the key: pairidx = guessidx * words + answeridx.
WITH
stride(words) AS (SELECT COUNT(*) FROM word_index),
answers_left(wordidx) AS (
    -- begin move
    SELECT answeridx FROM score
     WHERE pairidx BETWEEN $guess_1 * (SELECT words FROM stride)
                       AND ($guess_1 + 1) * (SELECT words FROM stride) - 1
       AND scoreidx = $score_1
    -- end move
)
SELECT w.word
  FROM answers_left JOIN word_index w USING (wordidx)
 ORDER BY w.word;
