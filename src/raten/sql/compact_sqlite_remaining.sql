-- remaining: the answers that fit every scored guess (compact layout, SQLite).
--
-- Parameters: $guess_1, the guess's wordidx, and $score_1, the code it showed (0..242 for five letters;
-- score_index turns emoji into codes). For several scored guesses raten repeats the
-- lines from "begin move" to "end move" with $guess_2, $score_2, ... and joins them
-- with INTERSECT, which keeps the answers that fit them all.
-- no move: SELECT wordidx, answerpos FROM answer_index
--
-- The guess's row holds one byte per answer; an answer fits when its byte is the
-- one-byte blob of the code.
WITH
answers_left(wordidx, answerpos) AS (
    -- begin move
    SELECT a.wordidx, a.answerpos
      FROM answer_index a, guess_score g, score_index s
     WHERE g.guessidx = $guess_1 AND s.scoreidx = $score_1
       AND substr(g.scores, a.answerpos + 1, 1) = s.byte
    -- end move
)
SELECT w.word
  FROM answers_left JOIN word_index w USING (wordidx)
 ORDER BY w.word;
