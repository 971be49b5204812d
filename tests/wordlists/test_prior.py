"""The priors (raten.wordlists.prior): the committed fit is the fit, the weights, the inflection
rule, attaching a prior to a list, and the frequency prior never dead-ending."""

from __future__ import annotations

import math

import numpy as np
import pytest

from raten.engine.state import State
from raten.engine.words import WordSet
from raten.errors import RatenError
from raten.play.simulate import play_answers
from raten.wordlists import prior
from raten.wordlists.files import read_word_file
from raten.wordlists.presets import default_prior, load_words
from raten.wordlists.prior import apply_prior
from reference import ref_weighted_split


@pytest.mark.slow
def test_the_committed_english_fit_is_the_maximum_likelihood_fit(en_words):
    """FITTED["en"] is what ``fit`` finds on the original answers among the allowed words, and
    nudging any of its numbers lowers the likelihood (it is the optimum, not a guess)."""
    result = prior.fit(en_words.allowed, en_words.solutions, "en")
    assert result.logistic == prior.FITTED["en"]
    assert (result.words, result.answers) == (12972, 2315)
    z, inflected = prior.features(en_words.allowed, "en")
    y = np.array([w in set(en_words.solutions) for w in en_words.allowed], dtype=np.float64)

    def log_likelihood(f: prior.Logistic) -> float:
        p = f.weights(z, inflected)
        return float(np.sum(y * np.log(p) + (1 - y) * np.log1p(-p)))

    best = log_likelihood(result.logistic)
    assert best == pytest.approx(result.log_likelihood, abs=0.05)
    f = result.logistic
    for nudged in (
        prior.Logistic(f.midpoint + 0.05, f.slope, f.penalty),
        prior.Logistic(f.midpoint, f.slope * 1.05, f.penalty),
        prior.Logistic(f.midpoint, f.slope, f.penalty * 0.8),
    ):
        assert log_likelihood(nudged) < best


@pytest.mark.slow
def test_the_committed_german_fit_is_the_fit_on_6mal5(shared_list):
    """Over the words 6mal5 or de accept (7408), 6mal5's answers the positives; the fit with names
    and unlisted words is likelier than the one without them, and nudging any number lowers it."""
    allowed = sorted(set(read_word_file(shared_list("de", "allowed.txt"))) | set(load_words("de").allowed))
    answers = read_word_file(shared_list("de", "solutions.txt"))
    result = prior.fit(allowed, answers, "de")
    assert result.logistic == prior.FITTED["de"] and (result.words, result.answers) == (7408, 1070)
    assert prior.fit(allowed, answers, "de", categories_too=False).log_likelihood < result.log_likelihood - 100
    z, inflected = prior.features(allowed, "de")
    proper, unlisted = prior.categories(allowed, "de")
    y = np.array([w in set(answers) for w in allowed], dtype=np.float64)

    def log_likelihood(f: prior.Logistic) -> float:
        p = f.weights(z, inflected, proper, unlisted)
        return float(np.sum(y * np.log(p) + (1 - y) * np.log1p(-p)))

    f = result.logistic
    best = log_likelihood(f)
    assert best == pytest.approx(result.log_likelihood, abs=0.05)
    for nudged in (
        prior.Logistic(f.midpoint, f.slope, f.penalty, f.name * 0.9, f.unlisted),
        prior.Logistic(f.midpoint, f.slope, f.penalty, f.name, f.unlisted * 1.1),
    ):
        assert log_likelihood(nudged) < best


def test_german_names_and_wordfreq_words_are_less_likely():
    """KEVIN and SARAH (hunspell names) and SOWAS (only wordfreq knows it) weigh less than words of
    their frequency that a dictionary lists; weights follow the formula with the categories."""
    words = ["kevin", "sarah", "sowas", "track", "lampe", "hunde"]
    proper, unlisted = prior.categories(words, "de")
    assert proper.tolist() == [1, 1, 0, 0, 0, 0] and unlisted.tolist() == [0, 0, 1, 1, 0, 0]
    z, inflected = prior.features(words, "de")
    f = prior.FITTED["de"]
    w = prior.frequency_weights(words, "de")
    for word, weight, *x in zip(words, w, z, inflected, proper, unlisted):
        zipf, infl, name, only = x
        logit = f.slope * (zipf - f.midpoint) - f.penalty * infl - f.name * name - f.unlisted * only
        assert weight == pytest.approx(1 / (1 + math.exp(-logit)), rel=1e-12), word
    kevin, sarah, sowas, _, lampe, _ = w
    assert z[0] > z[4] and z[2] > z[4]  # commoner in text than LAMPE ...
    assert max(kevin, sarah) < lampe / 5 and sowas < lampe  # ... and less likely answers (names far less)
    assert prior.categories(words, "en")[0].tolist() == [0] * 6


@pytest.mark.parametrize(
    ("word", "language", "inflected"),
    [
        ("ideas", "en", True),
        ("boxes", "en", True),
        ("flies", "en", True),
        ("baked", "en", True),
        ("cried", "en", True),
        ("glass", "en", False),  # -SS is no plural
        ("bonus", "en", False),
        ("speed", "en", False),
        ("crane", "en", False),
        ("hunde", "de", True),
        ("roten", "de", True),
        ("ginge", "de", True),
        ("lampe", "de", False),
        ("tasse", "de", False),
        ("leben", "de", False),  # LEBE is a word, but rarer than LEBEN itself
    ],
)
def test_plural_and_past_tense_forms(word: str, language: str, inflected: bool):
    assert prior.looks_inflected(word, language) is inflected


def test_weights_are_a_smooth_function_of_frequency_with_inflections_less_likely():
    words = ["crane", "slate", "ideas", "glamp", "xylyl", "snafu"]
    w = prior.frequency_weights(words, "en")
    assert (w > 0).all() and (w < 1).all()
    assert w.tolist() == prior.frequency_weights(words, "en").tolist()  # deterministic
    z, inflected = prior.features(words, "en")
    f = prior.FITTED["en"]
    for word, weight, zipf, infl in zip(words, w, z, inflected):
        want = 1 / (1 + math.exp(-(f.slope * (zipf - f.midpoint) - f.penalty * infl)))
        assert weight == pytest.approx(want, rel=1e-12), word
    crane, slate, ideas, glamp, xylyl, _ = w
    assert crane > 0.5 and slate > 0.5 and glamp < 0.1 and xylyl < glamp
    assert ideas < crane  # IDEAS is far commoner than CRANE, but a plural


def test_zipf_adds_up_spellings_that_normalise_alike():
    """German words are looked up as written with umlauts (KÄSE) and transliterated (KAESE): their
    frequencies add up, so KAESE is as common as KÄSE and a little more."""
    import wordfreq

    table = prior.zipf_table("de")
    assert table["kaese"] >= wordfreq.zipf_frequency("k\u00e4se", "de") >= 4.0
    assert prior.zipf(["kaese", "qqqqq"], "de").tolist() == [table["kaese"], 0.0]


def test_apply_prior_uniform_and_frequency(de6_words):
    uniform = prior.apply_prior(de6_words, "uniform")
    assert uniform.solutions == de6_words.solutions and uniform.weights is None and uniform.prior == "uniform"
    assert uniform.prior_key == de6_words.fingerprint
    freq = prior.apply_prior(de6_words, "Frequency ")
    assert freq.prior == "frequency" and freq.solutions == freq.allowed == de6_words.allowed
    assert freq.weights.tolist() == prior.frequency_weights(de6_words.allowed, "de").tolist()
    assert freq.fingerprint == de6_words.any_answer().fingerprint  # the same matrix as --any-answer
    assert freq.prior_key not in (freq.fingerprint, uniform.prior_key)
    assert not freq.weights.flags.writeable
    with pytest.raises(RatenError) as e:
        prior.apply_prior(de6_words, "zipf")
    assert e.value.key == "unknown_prior"


def test_prior_key_changes_with_every_weight():
    words = WordSet.from_lists(["aaaaa", "bbbbb", "ccccc"])
    a = words.with_prior("test", np.array([1.0, 2.0, 3.0]))
    b = words.with_prior("test", np.array([1.0, 2.0, 3.0000001]))
    assert a.prior_key != b.prior_key and a.fingerprint == b.fingerprint
    with pytest.raises(RatenError):
        words.with_prior("test", np.array([1.0, 0.0, 3.0]))
    with pytest.raises(RatenError):
        words.with_prior("test", np.array([1.0, 2.0]))


def test_presets_have_their_default_prior():
    assert default_prior("en-nyt") == "frequency"
    assert default_prior("de") == default_prior("de-ext") == "mixture"
    assert default_prior("en") == default_prior("6mal5") == default_prior("my-file") == "uniform"
    de = load_words("de", prior="uniform")
    assert de.prior == "uniform" and de.weights is None and de.fallback_weights is None
    assert load_words("de", prior="frequency").solutions == de.allowed
    mixed = load_words("de")
    assert mixed.prior == "mixture" and mixed.solutions == de.allowed and mixed.list_solutions == de.solutions
    # back to uniform from the mixture: the list's own solutions again
    assert apply_prior(mixed, "uniform").solutions == de.solutions


def _reference_mixture(own: set[str], allowed: list[str], share: float, freq: dict[str, float]) -> dict[str, float]:
    """The mixture as the docs write it, one word at a time."""
    others = sum(freq[w] for w in allowed if w not in own)
    return {w: (1 - share) / len(own) if w in own else share * freq[w] / others for w in allowed}


def test_the_mixture_weighs_as_its_formula_says():
    words = WordSet.from_lists(["hunde", "lampe"], ["hunde", "lampe", "kevin", "sowas", "xylos"], language="de")
    mixed = apply_prior(words, "mixture")
    share = prior.outside_share(mixed)
    freq = dict(zip(words.allowed, prior.frequency_weights(words.allowed, "de")))
    want = _reference_mixture({"hunde", "lampe"}, list(words.allowed), share, freq)
    got = dict(zip(mixed.solutions, mixed.probabilities))
    assert got == pytest.approx(want, rel=1e-12)
    assert sum(got[w] for w in ("hunde", "lampe")) == pytest.approx(1 - share)


def test_the_mixture_share_is_the_answers_outside_the_list():
    """``fit_mixture``'s closed form against the log-likelihood maximised by a scan over q."""
    own, allowed = ["a1", "a2", "a3"], ["a1", "a2", "a3", "b1", "b2", "b3", "b4"]
    answers = ["a1", "a2", "b1", "a3", "a1", "b4", "zz"]  # zz: not allowed, left out
    q = prior.fit_mixture(own, allowed, answers)
    inside, outside = 4, 2

    def loglik(x: float) -> float:
        return outside * math.log(x) + inside * math.log(1 - x)

    best = max((i / 10000 for i in range(1, 10000)), key=loglik)
    assert q == pytest.approx(best, abs=1e-4) == pytest.approx(outside / (inside + outside), abs=1e-4)
    with pytest.raises(RatenError, match="none of the answers"):
        prior.fit_mixture(own, allowed, ["zz"])


@pytest.mark.slow
def test_the_committed_mixture_shares_are_the_fit(shared_list):
    answers = read_word_file(shared_list("de", "solutions.txt"))
    for name, share in prior.MIXTURE_OUTSIDE.items():
        words = load_words(name, prior="uniform")
        assert prior.fit_mixture(words.solutions, words.allowed, answers) == share, name


def test_a_wordfreq_of_another_version_is_refused(monkeypatch):
    from importlib import metadata

    monkeypatch.setattr(metadata, "version", lambda _name: "9.9.9")
    with pytest.raises(RatenError, match=r"wordfreq==3\.1\.1"):
        prior._wordfreq()


@pytest.mark.slow
def test_en_nyt_with_its_frequency_prior_finds_answers_en_does_not_know():
    """GLAMP and QUESO are not even allowed in en; en-nyt (frequency prior by default) solves them."""
    nyt = load_words("en-nyt")
    assert nyt.prior == "frequency" and len(nyt.solutions) == 14855
    result = play_answers(nyt, ["glamp", "queso", "guano"])
    assert result.solved.all() and result.max <= 6


def test_frequency_prior_ranks_by_weighted_entropy(de6_words):
    """A hint's bits under the frequency prior are the weighted entropy (the slow reference)."""
    words = prior.apply_prior(de6_words, "frequency")
    state = State(words).after("raten", "...?.")
    best = state.hints(top=1)[0]
    weights = state.answer_weights()
    assert best.bits == pytest.approx(ref_weighted_split(best.word, state.candidate_words, weights)[0], abs=1e-12)
    assert best.expected_remaining == pytest.approx(
        ref_weighted_split(best.word, state.candidate_words, weights)[3], rel=1e-12
    )


def test_a_word_set_with_a_prior_pickles():
    """Worker processes of the web app receive word sets pickled."""
    import pickle

    de = load_words("de")
    for words in (de, load_words("de", prior="frequency"), prior.apply_prior(de, "uniform", weigh_fallback=True)):
        copy = pickle.loads(pickle.dumps(words))
        assert copy.prior_key == words.prior_key and copy.fallback_weights == words.fallback_weights
    weigh = prior.apply_prior(de, "uniform", weigh_fallback=True).fallback_weights
    assert pickle.loads(pickle.dumps(weigh))(["hunde"]).tolist() == prior.frequency_weights(["hunde"], "de").tolist()


def test_the_notice_and_pyproject_name_the_pinned_wordfreq():
    from pathlib import Path

    root = Path(__file__).parents[2]
    assert f"wordfreq {prior.WORDFREQ_VERSION}" in (root / "NOTICE").read_text()
    assert f'"wordfreq=={prior.WORDFREQ_VERSION}"' in (root / "pyproject.toml").read_text()
