"""UI text in English and German, and error messages in the language of the request.

The pages embed the whole table of their language for the JavaScript; the API words every
``RatenError`` from its ``key`` and ``params`` (the text ``err_<key>``), never from its
English message. Errors without a text here (the generic key ``invalid``) stay in English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from raten.errors import RatenError, shorten

LANGUAGES = ("en", "de")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "brand_tagline": "Wordle solver and game",
        "nav_solver": "Solver",
        "nav_play": "Play",
        "nav_openers": "Openers",
        "list_label": "Word list",
        "lang_label": "Language",
        "hard_mode": "Hard mode",
        "enter": "Enter",
        "backspace": "Delete",
        "loading": "Computing\u2026",
        "network_error": "The server did not answer; try again.",
        "title_solver": "Solver",
        "title_play": "Play",
        "title_openers": "Best openers",
        "solver_intro": "Type the word you guessed and press Enter, then click its tiles until they show "
        "the colours the game gave you (grey, yellow, green).",
        "set_colours": "Now click the tiles of {word} to set the colours the game showed.",
        "undo": "Undo",
        "clear": "Start over",
        "copy_link": "Copy link",
        "link_copied": "Link copied",
        "candidates_left": "{n} candidates left",
        "candidate_left": "1 candidate left: {word}",
        "fallback": "No word of the solution list fits: the answer is probably missing from it; "
        "these {n} allowed words fit.",
        "fallback_one": "No word of the solution list fits: the answer is probably missing from it; "
        "this allowed word fits.",
        "solved": "Solved in {n}!",
        "hints_heading": "Best next guesses",
        "openers_heading": "Best first guesses",
        "col_rank": "#",
        "col_guess": "Guess",
        "col_bits": "Bits",
        "col_answer": "Answer?",
        "col_patterns": "Patterns",
        "col_largest": "Largest group",
        "col_expected": "Expected left",
        "answer_mark_title": "could be the answer",
        "candidates_heading": "Candidates",
        "and_more": "and {n} more",
        "constraints_heading": "What the colours say",
        "c_greens": "Known letters in place: {pattern}",
        "c_not_at": "{letter} is in the word, not at position {positions}",
        "c_exact": "{letter} appears exactly {n}\u00d7",
        "c_min": "{letter} appears at least {n}\u00d7",
        "c_excluded": "Not in the word: {letters}",
        "c_none": "Nothing known yet.",
        "split_heading": "How {word} splits the {n} candidates",
        "more_groups": "+ {groups} more groups with {words} words",
        "warnings_heading": "Note",
        "use_hint": "Use {word} as the next guess",
        "daily": "Daily word",
        "practice": "Practice",
        "share_practice": "practice",
        "new_game": "New practice game",
        "game_daily": "{list} #{number}",
        "game_practice": "{list} practice",
        "tries_left": "{n} tries left",
        "won": "Solved in {n}!",
        "lost": "Not this time.",
        "answer_was": "The word was {answer}.",
        "share_heading": "Share",
        "copy": "Copy",
        "copied": "Copied!",
        "stats_heading": "Your statistics ({list})",
        "stat_played": "Played",
        "stat_win": "Win %",
        "stat_streak": "Current streak",
        "stat_max": "Max streak",
        "distribution": "Guess distribution",
        "review_heading": "How you played",
        "review_intro": "Each guess against perfect play, computed exactly: skill 99 loses no guess on "
        "average; luck 50 is a typical outcome.",
        "review_busy": "Judging every guess\u2026",
        "review_caption": "Each guess: skill, luck, guesses lost, words left and the best guess",
        "review_game_label": "The whole game",
        "review_col_guess": "Guess",
        "review_col_skill": "Skill",
        "review_col_luck": "Luck",
        "review_col_lost": "Lost",
        "review_col_left": "Left",
        "review_col_best": "Best",
        "review_lost_title": "Guesses lost on average against the best guess",
        "review_left_title": "Words left after the guess, and what the best guess would have left",
        "review_best_left": "best {n}",
        "review_yours_best": "(yours)",
        "review_as_good": "(as good)",
        "review_at_least": "at least",
        "review_at_most": "at most",
        "review_unknown": "unknown",
        "review_not_exact": "not known exactly",
        "review_guesses": "Guesses",
        "review_not_solved": "{n}, not solved",
        "review_expected": "Perfect play, average",
        "review_total_lost": "Guesses lost",
        "review_hard": "Hard mode: the values are over the guesses hard mode allows.",
        "review_note_guess": "Guess {n}: {note}",
        "review_ready": "Review ready: skill {skill}, luck {luck}.",
        "review_solver_game": "The solver's own game",
        "review_action": "Review this game",
        "w_review_not_allowed": "{word} is not an allowed guess in the {list} list",
        "w_review_no_fit": "no answer of the list fits the colours so far: no values",
        "w_review_limit": "the 6-guess limit can no longer be kept for sure: values without it",
        "w_review_outside": "{answer} is not one of the {n} answers of the {list} list: the values treat the "
        "list's answers as the only possible ones",
        "w_review_share_hard": "the share text marks a hard-mode game: review it with hard mode for hard-mode values",
        "w_review_lost_answer": "not solved in {n} guesses: the answer was {answer}",
        "w_review_lost": "not solved in {n} guesses",
        "w_review_partial": "total regret and skill count the {n} guesses whose regret is exact",
        "hard_locked": "Hard mode can only change before the first guess.",
        "too_short": "Not enough letters",
        "err_unknown_word": "{word} is not in the word list",
        "err_hard_green": "Hard mode: letter {position} must be {letter}",
        "err_hard_present": "Hard mode: the guess must contain {letter}",
        "err_hard_present_n": "Hard mode: the guess must contain {letter} {count} times",
        "err_game_over": "This game is over",
        "err_word_length": "{word!r} has {length} letters, not 5",
        "err_word_length_spelled": "{word!r} is {spelled}: {length} letters, not 5",
        "err_list_and_files": "choose a built-in list ({name}) or files, not both",
        "err_word_letters": "{word!r} must be letters a-z only (umlauts and \u00df are transliterated)",
        "err_pattern_symbol": "pattern {pattern!r} has an unknown symbol {symbol!r}: use . ? ! (grey, yellow, green), "
        "b y g, 0 1 2 or the emoji \u2b1c \U0001f7e8 \U0001f7e9",
        "err_pattern_length": "pattern {pattern!r} has {length} symbols, not 5",
        "err_no_fit": "no word fits these hints{why}; check the colours you entered",
        "err_contradiction": "no word fits these hints: {problem}; check the colours you entered in rows {rows}",
        "err_contradiction_one": "no word fits these hints: {problem}; check the colours you entered in row {rows}",
        "err_answer_not_in_list": "no word of the {list} list fits these hints, and they agree with each other: "
        "the answer is probably a word the list does not know",
        "err_unknown_list": "unknown word list {name!r}: choose one of {choices}",
        "err_review_no_colours": "give the answer, the colours of each guess or a share text",
        "err_review_rows": "{source} has {rows} rows for {guesses} guesses",
        "err_review_mismatch": "guess {number} ({guess}): {first} gives {ours} but {second} shows {theirs}",
        "err_review_hard": "guess {number} ({guess}) breaks hard mode: {reason}; review the game without hard mode",
        "err_review_after_win": "guess {number} already solved the game; remove the guesses after it",
        "err_review_empty": "give at least one guess to review",
        "err_review_prior": "only the uniform prior is supported in reviews so far",
        "err_share_empty": "the share text has no rows of five coloured squares",
        "err_lookahead_too_broad": "look-ahead is offered for at most {limit} candidates, and {count} are left: "
        "add a row or choose another strategy",
        "err_too_large": "the request body is larger than {limit} bytes",
        "err_too_many_requests": "too many requests; slow down",
        "err_busy": "the server is busy; try again shortly",
        "err_conflict": "the game changed meanwhile; reload it",
        "err_internal": "something went wrong on the server",
        "openers_intro": "The best first guesses for each list by entropy: how many bits of information the "
        "colours give on average, how many colour patterns they can show, the largest group of answers "
        "left by one pattern and how many answers are left on average; beside it, the openers proven "
        "optimal by exact decision trees.",
        "openers_sizes": "{solutions} possible answers, {allowed} allowed guesses",
        "err_invalid_value": "invalid value",
        "err_too_long": "at most {max_length} characters",
        "yes": "yes",
        "timeout": "The server took too long to answer.",
        "not_found_title": "Page not found",
        "hard_star": "Hard mode: every hint found must be used",
        "wordle_en": "Wordle in English",
        "wordle_de": "Wordle in German",
        "number": "No. {number}",
        "not_found_text": "There is no page at this address.",
        "not_found_home": "To the solver",
        "retry": "Try again",
        "device_badge": "on this device",
        "device_badge_title": "Computed in this browser, not on the server",
        "device_toggle": "On this device",
        "device_toggle_title": "Always compute the hints in this browser, even with the server at hand",
        "state_absent": "grey, not in the word",
        "state_present": "yellow, elsewhere in the word",
        "state_correct": "green, in the right place",
        "tile_empty": "empty",
        "tile_click": "Click to change the colour",
        "row_label": "Row {n}: {word}",
        "input_row": "Your next guess: {word}",
        "row_added": "{word} added; set its colours by clicking the tiles",
        "row_revealed": "Row {n}: {tiles}",
        "best_guess": "best: {word}",
        "board_label": "Board",
        "keyboard_label": "Keyboard",
        "results_label": "Results",
        "sending": "Checking…",
        "w_not_in_list": "{word} is not in the {list} word list; used anyway",
        "w_breaks_hard": "{word} breaks hard mode; used anyway",
        "w_too_many": "{n} allowed words fit, too many to rank: add a row",
        # --- many boards and the statistics dialog (issue 14, issue 12 item 5) ---
        "boards_label": "Boards",
        "daily_short": "Daily",
        "boards_choice": "{n} boards",
        "board_n": "Board {n}",
        "board_left": "{n} left",
        "board_one": "1 left: {word}",
        "board_solved_in": "solved in {n}",
        "board_open": "not solved",
        "boards_solved": "All boards solved in {n}!",
        "boards_input": "Your next guess, on every board: {word}",
        "col_on": "Answer on",
        "variant_label": "Game",
        "game_daily_v": "{variant} {list} #{number}",
        "game_practice_v": "{variant} {list} practice",
        "won_boards": "All {boards} boards in {n}!",
        "lost_boards": "{solved} of {boards} boards solved.",
        "answers_were": "The words were {answers}.",
        "stats_button": "Statistics",
        "stats_title": "Statistics",
        "stats_close": "Close",
        "stats_next": "Next daily word in",
        "stats_share": "Share",
        "stats_fallback": "Select the text and copy it:",
        "stats_none": "No game finished yet.",
        "stats_today": "today",
        "stats_shared": "Shared",
        "err_boards_hard": "{name} has no hard mode",
        "err_boards_patterns": "each guess needs {boards} patterns, one per board, not {given}",
        "err_board_solved": "board {board} is solved already: give it - after later guesses",
        "err_board_pattern": "board {board} is not solved: the guess needs its colours",
        "err_board_no_fit": "board {board}: no word fits these colours; check the colours you entered",
        "err_review_boards": "the review is offered for games on one board",
        "err_game_boards": "games are played on 1, 2 or 4 boards, not {boards}",
        "err_boards_strategy": "unknown strategy for many boards",
        "w_fallback": "No {list} solution fits: the answer is probably missing from the list; going on with "
        "the {n} allowed words that fit.",
        "w_fallback_one": "No {list} solution fits: the answer is probably missing from the list; going on with "
        "the one allowed word that fits.",
        "prior_label": "Likely answers",
        "prior_uniform": "the list's solutions",
        "prior_frequency": "every word, by frequency",
        "answers_only": "Only words that could be the answer",
        "footer": "raten: Wordle solver for German and English",
        # settings and how to play (issue 12 item 6)
        "settings": "Settings",
        "close": "Close",
        "theme": "Theme",
        "theme_system": "As the system",
        "theme_light": "Light",
        "theme_dark": "Dark",
        "high_contrast": "High contrast colours",
        "high_contrast_hint": "Orange for the right place, blue for elsewhere in the word, also in the share text.",
        "motion_note": "Animations follow the system's setting to reduce motion.",
        "help_button": "How to play",
        "help_title": "How to play",
        "help_goal": "Guess the hidden five-letter word in six tries. Type a word of the list and press Enter.",
        "help_colours": "After each guess the tiles show how close it was:",
        "help_examples": "crane slate ghost",
        "help_ex_correct": "{letter} is in the word and in the right place (green).",
        "help_ex_present": "{letter} is in the word but elsewhere (yellow).",
        "help_ex_absent": "{letter} is not in the word (grey).",
        "help_hard": "Hard mode, shown as *: every hint found must be used, green letters stay in place "
        "and yellow ones appear in every later guess. It can only change before the first guess.",
        "help_daily": "The daily word is the same for everyone and numbered (No. 700); practice games are "
        "unlimited. After a game the solver shows what it would have played.",
        # the openers page (issue 12 item 9)
        "openers_lists": "Word lists",
        "entropy_heading": "By entropy",
        "proven_heading": "Proven optimal",
        "proven_intro": "Exact decision trees over all answers with at most six guesses: the least average "
        "number of guesses each opener allows, and the worst case of its best tree.",
        "proven_normal": "Normal mode",
        "proven_hard": "Hard mode",
        "proven_none": "Not computed for this list yet.",
        "letters_heading": "Letters of the answers",
        "letters_intro": "{share} % of the {words} answers repeat a letter. How many answers contain each "
        "letter, and where it stands most often:",
        "col_letter": "Letter",
        "col_in_answers": "In answers",
        "col_most_at": "Most often at",
        "col_average": "Average",
        "col_worst": "Worst",
        "list_desc_en": "The original Wordle lists.",
        "list_desc_de": "German: common five-letter words as answers, every German five-letter form allowed.",
        "list_desc_de-ext": "German extended: every allowed German word can be the answer.",
        "list_desc_en-nyt": "NYT Wordle's accepted words today, every one a possible answer.",
    },
    "de": {
        "brand_tagline": "Wordle-L\u00f6ser und Spiel",
        "nav_solver": "L\u00f6ser",
        "nav_play": "Spielen",
        "nav_openers": "Startw\u00f6rter",
        "list_label": "Wortliste",
        "lang_label": "Sprache",
        "hard_mode": "Schwerer Modus",
        "enter": "Eingabe",
        "backspace": "L\u00f6schen",
        "loading": "Rechne\u2026",
        "network_error": "Der Server antwortet nicht; bitte noch einmal versuchen.",
        "title_solver": "L\u00f6ser",
        "title_play": "Spielen",
        "title_openers": "Die besten Startw\u00f6rter",
        "solver_intro": "Tippe das geratene Wort und dr\u00fccke Eingabe, dann klicke auf die Felder, bis sie "
        "die Farben zeigen, die das Spiel gegeben hat (grau, gelb, gr\u00fcn).",
        "set_colours": "Klicke jetzt auf die Felder von {word}, um die Farben des Spiels einzustellen.",
        "undo": "Zur\u00fcck",
        "clear": "Neu anfangen",
        "copy_link": "Link kopieren",
        "link_copied": "Link kopiert",
        "candidates_left": "{n} W\u00f6rter m\u00f6glich",
        "candidate_left": "1 Wort m\u00f6glich: {word}",
        "fallback": "Kein L\u00f6sungswort passt: die L\u00f6sung fehlt wohl in der Liste; "
        "diese {n} erlaubten W\u00f6rter passen.",
        "fallback_one": "Kein L\u00f6sungswort passt: die L\u00f6sung fehlt wohl in der Liste; "
        "dieses erlaubte Wort passt.",
        "solved": "Gel\u00f6st mit {n} Versuchen!",
        "hints_heading": "Die besten n\u00e4chsten W\u00f6rter",
        "openers_heading": "Die besten ersten W\u00f6rter",
        "col_rank": "#",
        "col_guess": "Wort",
        "col_bits": "Bits",
        "col_answer": "L\u00f6sung?",
        "col_patterns": "Muster",
        "col_largest": "Gr\u00f6\u00dfte Gruppe",
        "col_expected": "Erwartet \u00fcbrig",
        "answer_mark_title": "k\u00f6nnte die L\u00f6sung sein",
        "candidates_heading": "M\u00f6gliche L\u00f6sungen",
        "and_more": "und {n} weitere",
        "constraints_heading": "Was die Farben sagen",
        "c_greens": "Bekannte Buchstaben an ihrer Stelle: {pattern}",
        "c_not_at": "{letter} ist im Wort, nicht an Stelle {positions}",
        "c_exact": "{letter} kommt genau {n}\u00d7 vor",
        "c_min": "{letter} kommt mindestens {n}\u00d7 vor",
        "c_excluded": "Nicht im Wort: {letters}",
        "c_none": "Noch nichts bekannt.",
        "split_heading": "Wie {word} die {n} W\u00f6rter aufteilt",
        "more_groups": "+ {groups} weitere Gruppen mit {words} W\u00f6rtern",
        "warnings_heading": "Hinweis",
        "use_hint": "{word} als n\u00e4chstes Wort nehmen",
        "daily": "Wort des Tages",
        "practice": "\u00dcben",
        "share_practice": "\u00dcbung",
        "new_game": "Neues \u00dcbungsspiel",
        "game_daily": "{list} Nr. {number}",
        "game_practice": "{list} \u00dcbung",
        "tries_left": "noch {n} Versuche",
        "won": "Gel\u00f6st mit {n} Versuchen!",
        "lost": "Diesmal nicht.",
        "answer_was": "Das Wort war {answer}.",
        "share_heading": "Teilen",
        "copy": "Kopieren",
        "copied": "Kopiert!",
        "stats_heading": "Deine Statistik ({list})",
        "stat_played": "Gespielt",
        "stat_win": "Gewonnen %",
        "stat_streak": "Serie",
        "stat_max": "Beste Serie",
        "distribution": "Versuche pro Sieg",
        "review_heading": "So hast du gespielt",
        "review_intro": "Jedes Wort gegen perfektes Spiel, exakt berechnet: K\u00f6nnen 99 verschenkt im Mittel "
        "keinen Versuch; Gl\u00fcck 50 ist ein gew\u00f6hnliches Ergebnis.",
        "review_busy": "Jedes Wort wird bewertet\u2026",
        "review_caption": "Jedes Wort: K\u00f6nnen, Gl\u00fcck, verschenkte Versuche, \u00fcbrige W\u00f6rter und "
        "das beste Wort",
        "review_game_label": "Das ganze Spiel",
        "review_col_guess": "Wort",
        "review_col_skill": "K\u00f6nnen",
        "review_col_luck": "Gl\u00fcck",
        "review_col_lost": "Verlust",
        "review_col_left": "\u00dcbrig",
        "review_col_best": "Bestes",
        "review_lost_title": "Im Mittel verschenkte Versuche gegen\u00fcber dem besten Wort",
        "review_left_title": "\u00dcbrige W\u00f6rter nach dem Wort, und wie viele das beste Wort \u00fcbrig "
        "gelassen h\u00e4tte",
        "review_best_left": "bestes {n}",
        "review_yours_best": "(deins)",
        "review_as_good": "(gleich gut)",
        "review_at_least": "mindestens",
        "review_at_most": "h\u00f6chstens",
        "review_unknown": "unbekannt",
        "review_not_exact": "nicht exakt bekannt",
        "review_guesses": "Versuche",
        "review_not_solved": "{n}, nicht gel\u00f6st",
        "review_expected": "Perfektes Spiel, Mittel",
        "review_total_lost": "Verlust",
        "review_hard": "Schwerer Modus: die Werte gelten f\u00fcr die W\u00f6rter, die der schwere Modus erlaubt.",
        "review_note_guess": "Wort {n}: {note}",
        "review_ready": "Bewertung fertig: K\u00f6nnen {skill}, Gl\u00fcck {luck}.",
        "review_solver_game": "Das Spiel des L\u00f6sers",
        "review_action": "Dieses Spiel bewerten",
        "w_review_not_allowed": "{word} ist in der Liste {list} kein erlaubtes Wort",
        "w_review_no_fit": "keine L\u00f6sung der Liste passt zu den bisherigen Farben: keine Werte",
        "w_review_limit": "sechs Versuche reichen nicht mehr sicher: Werte ohne diese Grenze",
        "w_review_outside": "{answer} ist keine der {n} L\u00f6sungen der Liste {list}: die Werte nehmen nur "
        "deren L\u00f6sungen als m\u00f6glich an",
        "w_review_share_hard": "der geteilte Text zeigt ein Spiel im schweren Modus: bewerte es im schweren Modus",
        "w_review_lost_answer": "nicht gel\u00f6st in {n} Versuchen: die L\u00f6sung war {answer}",
        "w_review_lost": "nicht gel\u00f6st in {n} Versuchen",
        "w_review_partial": "verschenkte Versuche und K\u00f6nnen z\u00e4hlen die {n} W\u00f6rter mit exaktem Wert",
        "hard_locked": "Der schwere Modus l\u00e4sst sich nur vor dem ersten Versuch \u00e4ndern.",
        "too_short": "Zu wenige Buchstaben",
        "err_unknown_word": "{word} steht nicht in der Wortliste",
        "err_hard_green": "Schwerer Modus: Buchstabe {position} muss {letter} sein",
        "err_hard_present": "Schwerer Modus: das Wort muss {letter} enthalten",
        "err_hard_present_n": "Schwerer Modus: das Wort muss {count}\u00d7 {letter} enthalten",
        "err_game_over": "Dieses Spiel ist vorbei",
        "err_word_length": "\u201e{word}\u201c hat {length} Buchstaben, nicht 5",
        "err_word_length_spelled": "\u201e{word}\u201c wird {spelled} geschrieben: {length} Buchstaben, nicht 5",
        "err_list_and_files": "Entweder eine eingebaute Liste ({name}) oder Dateien, nicht beides",
        "err_word_letters": "\u201e{word}\u201c darf nur Buchstaben a\u2013z enthalten "
        "(Umlaute und \u00df werden umschrieben)",
        "err_pattern_symbol": "Das Muster \u201e{pattern}\u201c hat ein unbekanntes Zeichen \u201e{symbol}\u201c: "
        "erlaubt sind . ? ! (grau, gelb, gr\u00fcn), b y g, 0 1 2 oder die Emoji \u2b1c \U0001f7e8 \U0001f7e9",
        "err_pattern_length": "Das Muster \u201e{pattern}\u201c hat {length} Zeichen, nicht 5",
        "err_no_fit": "Kein Wort passt zu diesen Farben; pr\u00fcfe die Eingabe",
        "err_contradiction": "Kein Wort passt zu diesen Farben: die Zeilen {rows} widersprechen einander; "
        "pr\u00fcfe die Eingabe",
        "err_contradiction_one": "Kein Wort passt zu diesen Farben: Zeile {rows} widerspricht sich selbst; "
        "pr\u00fcfe die Eingabe",
        "err_answer_not_in_list": "Kein Wort der Liste {list} passt zu diesen Farben, und sie widersprechen "
        "einander nicht: die L\u00f6sung ist wohl ein Wort, das die Liste nicht kennt",
        "err_unknown_list": "Unbekannte Wortliste \u201e{name}\u201c: w\u00e4hle eine von {choices}",
        "err_review_no_colours": "Gib die L\u00f6sung, die Farben jedes Worts oder einen geteilten Text an",
        "err_review_rows": "{rows} Farbzeilen f\u00fcr {guesses} W\u00f6rter",
        "err_review_mismatch": "Wort {number} ({guess}): die Farben passen nicht zusammen ({ours} gegen {theirs})",
        "err_review_hard": "Wort {number} ({guess}) verletzt den schweren Modus: {reason}; "
        "bewerte das Spiel ohne schweren Modus",
        "err_review_after_win": "Wort {number} hat das Spiel schon gel\u00f6st; entferne die W\u00f6rter danach",
        "err_review_empty": "Gib mindestens ein Wort zum Bewerten an",
        "err_review_prior": "Bewertungen kennen bisher nur die Gleichverteilung",
        "err_share_empty": "Der geteilte Text hat keine Zeilen aus f\u00fcnf farbigen Quadraten",
        "err_lookahead_too_broad": "Vorausschau gibt es f\u00fcr h\u00f6chstens {limit} Kandidaten, "
        "es sind noch {count}: gib eine weitere Zeile ein oder w\u00e4hle eine andere Strategie",
        "err_too_large": "Die Anfrage ist gr\u00f6\u00dfer als {limit} Bytes",
        "err_too_many_requests": "Zu viele Anfragen; bitte langsamer",
        "err_busy": "Der Server ist gerade ausgelastet; versuche es gleich noch einmal",
        "err_conflict": "Das Spiel hat sich inzwischen ge\u00e4ndert; lade es neu",
        "err_internal": "Auf dem Server ist etwas schiefgegangen",
        "openers_intro": "Die besten ersten W\u00f6rter jeder Liste nach Entropie: wie viele Bits Information "
        "die Farben im Mittel geben, wie viele Farbmuster sie zeigen k\u00f6nnen, die gr\u00f6\u00dfte Gruppe, "
        "die ein Muster \u00fcbrig l\u00e4sst, und wie viele W\u00f6rter im Mittel \u00fcbrig bleiben; daneben die "
        "durch exakte Entscheidungsb\u00e4ume beweisbar optimalen Startw\u00f6rter.",
        "openers_sizes": "{solutions} m\u00f6gliche L\u00f6sungen, {allowed} erlaubte W\u00f6rter",
        "err_invalid_value": "ung\u00fcltiger Wert",
        "err_too_long": "h\u00f6chstens {max_length} Zeichen",
        "yes": "ja",
        "timeout": "Der Server hat zu lange nicht geantwortet.",
        "not_found_title": "Seite nicht gefunden",
        "hard_star": "Schwerer Modus: jeder gefundene Hinweis muss verwendet werden",
        "wordle_en": "Wordle auf Englisch",
        "wordle_de": "Wordle auf Deutsch",
        "number": "Nr. {number}",
        "not_found_text": "Unter dieser Adresse gibt es keine Seite.",
        "not_found_home": "Zum L\u00f6ser",
        "retry": "Noch einmal",
        "device_badge": "auf diesem Ger\u00e4t",
        "device_badge_title": "In diesem Browser berechnet, nicht auf dem Server",
        "device_toggle": "Auf diesem Ger\u00e4t",
        "device_toggle_title": "Die Tipps immer in diesem Browser berechnen, auch wenn der Server erreichbar ist",
        "state_absent": "grau, nicht im Wort",
        "state_present": "gelb, an anderer Stelle im Wort",
        "state_correct": "gr\u00fcn, an der richtigen Stelle",
        "tile_empty": "leer",
        "tile_click": "Klicken \u00e4ndert die Farbe",
        "row_label": "Zeile {n}: {word}",
        "input_row": "Dein n\u00e4chster Versuch: {word}",
        "row_added": "{word} eingetragen; stelle die Farben durch Klicken auf die Felder ein",
        "row_revealed": "Zeile {n}: {tiles}",
        "best_guess": "am besten: {word}",
        "board_label": "Spielfeld",
        "keyboard_label": "Tastatur",
        "results_label": "Ergebnisse",
        "sending": "Pr\u00fcfe\u2026",
        "w_not_in_list": "{word} steht nicht in der Wortliste {list}; trotzdem verwendet",
        "w_breaks_hard": "{word} verletzt den schweren Modus; trotzdem verwendet",
        "w_too_many": "{n} erlaubte W\u00f6rter passen, zu viele zum Bewerten: f\u00fcge eine Zeile hinzu",
        # --- many boards and the statistics dialog (issue 14, issue 12 item 5) ---
        "boards_label": "Spielfelder",
        "daily_short": "Heute",
        "boards_choice": "{n} Spielfelder",
        "board_n": "Feld {n}",
        "board_left": "noch {n}",
        "board_one": "noch 1: {word}",
        "board_solved_in": "gel\u00f6st mit {n}",
        "board_open": "nicht gel\u00f6st",
        "boards_solved": "Alle Felder gel\u00f6st mit {n} Versuchen!",
        "boards_input": "Dein n\u00e4chster Versuch, auf allen Feldern: {word}",
        "col_on": "L\u00f6sung auf",
        "variant_label": "Spiel",
        "game_daily_v": "{variant} {list} Nr. {number}",
        "game_practice_v": "{variant} {list} \u00dcbung",
        "won_boards": "Alle {boards} Felder mit {n} Versuchen!",
        "lost_boards": "{solved} von {boards} Feldern gel\u00f6st.",
        "answers_were": "Die W\u00f6rter waren {answers}.",
        "stats_button": "Statistik",
        "stats_title": "Statistik",
        "stats_close": "Schlie\u00dfen",
        "stats_next": "N\u00e4chstes Wort des Tages in",
        "stats_share": "Teilen",
        "stats_fallback": "Markiere den Text und kopiere ihn:",
        "stats_none": "Noch kein Spiel beendet.",
        "stats_today": "heute",
        "stats_shared": "Geteilt",
        "err_boards_hard": "{name} hat keinen schweren Modus",
        "err_boards_patterns": "jedes Wort braucht {boards} Muster, eins pro Feld, nicht {given}",
        "err_board_solved": "Feld {board} ist schon gel\u00f6st: gib dort bei sp\u00e4teren W\u00f6rtern - an",
        "err_board_pattern": "Feld {board} ist nicht gel\u00f6st: das Wort braucht seine Farben",
        "err_board_no_fit": "Feld {board}: kein Wort passt zu diesen Farben; pr\u00fcfe die Eingabe",
        "err_game_boards": "Gespielt wird auf 1, 2 oder 4 Feldern, nicht auf {boards}",
        "err_review_boards": "Die Auswertung gibt es f\u00fcr Spiele auf einem Feld",
        "err_boards_strategy": "Unbekannte Strategie f\u00fcr mehrere Felder",
        "w_fallback": "Keine L\u00f6sung der Liste {list} passt: die L\u00f6sung fehlt wohl in der Liste; weiter mit "
        "den {n} erlaubten W\u00f6rtern, die passen.",
        "w_fallback_one": "Keine L\u00f6sung der Liste {list} passt: die L\u00f6sung fehlt wohl in der Liste; "
        "weiter mit dem einen erlaubten Wort, das passt.",
        "prior_label": "M\u00f6gliche L\u00f6sungen",
        "prior_uniform": "die L\u00f6sungen der Liste",
        "prior_frequency": "jedes Wort, nach H\u00e4ufigkeit",
        "answers_only": "Nur W\u00f6rter, die die L\u00f6sung sein k\u00f6nnen",
        "footer": "raten: Wordle-L\u00f6ser f\u00fcr Deutsch und Englisch",
        "settings": "Einstellungen",
        "close": "Schlie\u00dfen",
        "theme": "Farbschema",
        "theme_system": "Wie das System",
        "theme_light": "Hell",
        "theme_dark": "Dunkel",
        "high_contrast": "Farben mit hohem Kontrast",
        "high_contrast_hint": "Orange f\u00fcr die richtige Stelle, Blau f\u00fcr eine andere Stelle im Wort, "
        "auch im geteilten Text.",
        "motion_note": "Animationen folgen der Systemeinstellung f\u00fcr reduzierte Bewegung.",
        "help_button": "Spielregeln",
        "help_title": "So wird gespielt",
        "help_goal": "Errate das gesuchte Wort aus f\u00fcnf Buchstaben in sechs Versuchen. Tippe ein Wort der "
        "Liste und dr\u00fccke Eingabe.",
        "help_colours": "Nach jedem Versuch zeigen die Felder, wie nah er war:",
        "help_examples": "raten lampe tisch",
        "help_ex_correct": "{letter} ist im Wort und an der richtigen Stelle (gr\u00fcn).",
        "help_ex_present": "{letter} ist im Wort, aber an einer anderen Stelle (gelb).",
        "help_ex_absent": "{letter} ist nicht im Wort (grau).",
        "help_hard": "Schwerer Modus, gezeigt als *: jeder gefundene Hinweis muss verwendet werden, gr\u00fcne "
        "Buchstaben bleiben an ihrer Stelle und gelbe kommen in jedem weiteren Versuch vor. Er l\u00e4sst sich "
        "nur vor dem ersten Versuch \u00e4ndern.",
        "help_daily": "Das Wort des Tages ist f\u00fcr alle gleich und nummeriert (Nr. 700); \u00dcbungsspiele "
        "gibt es unbegrenzt. Nach dem Spiel zeigt der L\u00f6ser, was er gespielt h\u00e4tte.",
        "openers_lists": "Wortlisten",
        "entropy_heading": "Nach Entropie",
        "proven_heading": "Beweisbar optimal",
        "proven_intro": "Exakte Entscheidungsb\u00e4ume \u00fcber alle L\u00f6sungen mit h\u00f6chstens sechs "
        "Versuchen: die kleinste mittlere Zahl an Versuchen, die ein Startwort erlaubt, und der schlechteste "
        "Fall seines besten Baums.",
        "proven_normal": "Normaler Modus",
        "proven_hard": "Schwerer Modus",
        "proven_none": "F\u00fcr diese Liste noch nicht berechnet.",
        "letters_heading": "Buchstaben der L\u00f6sungen",
        "letters_intro": "{share} % der {words} L\u00f6sungen haben einen Buchstaben doppelt. Wie viele "
        "L\u00f6sungen jeden Buchstaben enthalten und wo er am h\u00e4ufigsten steht:",
        "col_letter": "Buchstabe",
        "col_in_answers": "In L\u00f6sungen",
        "col_most_at": "Meist an Stelle",
        "col_average": "Mittel",
        "col_worst": "Schlechtester Fall",
        "list_desc_en": "Die originalen Wordle-Listen.",
        "list_desc_de": "Deutsch: h\u00e4ufige W\u00f6rter aus f\u00fcnf Buchstaben als L\u00f6sungen, jede "
        "deutsche Wortform aus f\u00fcnf Buchstaben erlaubt.",
        "list_desc_de-ext": "Deutsch erweitert: jedes erlaubte deutsche Wort kann die L\u00f6sung sein.",
        "list_desc_en-nyt": "Die heute von NYT Wordle angenommenen W\u00f6rter, jedes eine m\u00f6gliche L\u00f6sung.",
    },
}


def pick_language(query: str | None, accept: str | None, default: str = "en") -> str:
    """The UI language: ``?lang=`` if it is one we have, else the first we have in
    ``Accept-Language`` when the caller sets it, else ``default``."""
    if query in LANGUAGES:
        return query
    if accept:
        for part in accept.split(","):
            tag = part.split(";")[0].strip().lower()[:2]
            if tag in LANGUAGES:
                return tag
    return default if default in LANGUAGES else "en"


def t(lang: str, key: str, **params: object) -> str:
    """One UI string, filled in."""
    text = TEXT.get(lang, TEXT["en"]).get(key) or TEXT["en"][key]
    return text.format(**params) if params else text


def list_description(lang: str, name: str, fallback: str) -> str:
    """A word list's description in ``lang`` (the built-in lists have one), else ``fallback``."""
    key = f"list_desc_{name}"
    return t(lang, key) if key in TEXT["en"] else fallback


def error_message(error: RatenError, lang: str) -> str:
    """The message of a library error in ``lang``, worded from its key and parameters.

    An error without a text of its own is worded as the input error that caused it (a game's
    ``bad_word`` as the word's ``word_length``), else left in the library's English."""
    key, params = error.key, dict(error.params)
    if key == "hard_present" and params.get("count", 1) != 1:
        key = "hard_present_n"
    if key == "contradiction" and " / " not in str(params.get("rows", "")):
        key = "contradiction_one"
    if f"err_{key}" in TEXT["en"]:
        return t(lang, f"err_{key}", **params)
    if isinstance(error.__cause__, RatenError):
        return error_message(error.__cause__, lang)
    return str(error)


def notice_message(notice: str, lang: str) -> str:
    """A library warning in ``lang``: worded from its key (``w_<key>``) when it is a ``Notice``
    with a text here, else left in the library's English."""
    key = getattr(notice, "key", None)
    if key == "fallback" and getattr(notice, "params", {}).get("n") == 1:
        key = "fallback_one"
    if key and f"w_{key}" in TEXT["en"]:
        return t(lang, f"w_{key}", **getattr(notice, "params", {}))
    return str(notice)


def validation_message(errors: Sequence[Mapping[str, Any]], lang: str) -> str:
    """A malformed request's first few problems, each as ``field: what is wrong``: in English
    pydantic's own words, in other languages worded from pydantic's error ``type``."""
    parts = []
    for e in errors[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        if lang == "en":
            what = str(e.get("msg", "invalid"))
        elif e.get("type") == "string_too_long":
            what = t(lang, "err_too_long", max_length=(e.get("ctx") or {}).get("max_length", "?"))
        else:
            what = t(lang, "err_invalid_value")
        parts.append(f"{shorten(where, 60)}: {what}" if where else what)
    return "; ".join(parts) or t(lang, "err_invalid_value")
