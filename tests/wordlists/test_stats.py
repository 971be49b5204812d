"""List statistics (raten.wordlists.stats, `raten words stats`) against plain Python counts."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from raten.cli.main import main
from raten.engine.words import WordSet
from raten.wordlists.files import read_word_file
from raten.wordlists.stats import ALPHABET, letter_stats, list_stats


def _plain(words: list[str]) -> tuple[int, Counter, Counter, list[Counter]]:
    repeated = sum(1 for w in words if len(set(w)) < len(w))
    counts = Counter(c for w in words for c in w)
    in_words = Counter(c for w in words for c in set(w))
    by_position = [Counter(w[i] for w in words) for i in range(5)]
    return repeated, counts, in_words, by_position


def test_matches_plain_counts_on_the_original_answers(shared_list) -> None:
    answers = list(read_word_file(shared_list("en", "answers.txt")))
    s = letter_stats(answers)
    repeated, counts, in_words, by_position = _plain(answers)
    assert s.words == 2315
    assert s.repeated == repeated
    assert s.repeated_share == pytest.approx(repeated / 2315)
    for j, c in enumerate(ALPHABET):
        assert s.counts[j] == counts[c], c
        assert s.in_words[j] == in_words[c], c
        assert [s.by_position[i][j] for i in range(5)] == [by_position[i][c] for i in range(5)], c
    assert s.ranked()[0] == counts.most_common(1)[0][0]
    assert sum(s.counts) == 5 * 2315


def test_small_cases() -> None:
    s = letter_stats(["geese", "sassy", "crane"])
    assert s.repeated == 2
    assert s.counts[ALPHABET.index("e")] == 4 and s.in_words[ALPHABET.index("e")] == 2
    assert s.by_position[0][ALPHABET.index("s")] == 1 and s.by_position[2][ALPHABET.index("s")] == 1
    assert s.share("e") == pytest.approx(4 / 15)
    empty = letter_stats([])
    assert empty.words == 0 and empty.repeated_share == 0.0 and empty.share("a") == 0.0


def test_list_stats_json_shape() -> None:
    ws = WordSet.from_lists(["geese", "crane"], ["sassy"], name="tiny")
    data = list_stats(ws)
    assert data["list"] == "tiny" and data["solutions"]["words"] == 2 and data["allowed"]["words"] == 3
    assert data["solutions"]["letters"]["e"] == {"count": 4, "share": 0.4, "words": 2, "by_position": [0, 1, 1, 0, 2]}


def test_cli_words_stats(tmp_path, shared_list) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["words", "stats", "en", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    answers = list(read_word_file(shared_list("en", "answers.txt")))
    assert data["solutions"]["repeated"] == _plain(answers)[0]
    assert data["allowed"]["words"] == 12972
    text = runner.invoke(main, ["words", "stats", "en", "--of", "allowed"])
    assert text.exit_code == 0 and "letters of the 12972 allowed of en" in text.output
    sol = tmp_path / "s.txt"
    sol.write_text("geese\ncrane\n")
    files = runner.invoke(main, ["words", "stats", "--solutions", str(sol)])
    assert files.exit_code == 0 and "with a repeated letter 1 (50.0%)" in files.output
    bad = runner.invoke(main, ["words", "stats", "klingon"])
    assert bad.exit_code != 0 and "unknown word list" in bad.output


@pytest.mark.slow
def test_rows_rank_letters_by_the_words_containing_them_and_name_their_commonest_place():
    words = ["sassy", "geese", "eerie", "crane", "slate"]
    rows = letter_stats(words).rows()
    # counted by hand: e in geese, eerie, crane, slate; s in sassy, geese, slate; a in sassy, crane, slate
    assert [(r.letter, r.words) for r in rows[:3]] == [("e", 4), ("a", 3), ("s", 3)]
    e = rows[0]
    assert e.share == 4 / 5 and e.most_at == 5  # e stands last in geese, eerie, crane, slate
    s = next(r for r in rows if r.letter == "s")
    assert s.most_at == 1  # at 1 in sassy, slate; at 4 in sassy, geese: two each, the first of equals
    assert {r.letter for r in rows} == set("".join(words)) and all(r.words > 0 for r in rows)
