"""Priors: how likely each word is to be the answer, attached to a word set (``apply_prior``).

``uniform`` is the classic setting: the list's solutions, equally likely. ``frequency`` lets
every allowed word be the answer, weighted by a logistic function of how common it is (its
wordfreq frequency on the zipf scale) with plural and past-tense forms made less likely, so a
game whose answer is not among the list's solutions never dead-ends (the NYT WordleBot's
approach). Its numbers per language are fitted by maximum likelihood (``fit``) on a list
a person chose: docs/prior.md says how, ``bench/fit_prior.py`` reproduces them.

``mixture`` keeps what the list knows: its solutions, equally likely, carry most of the weight,
and every other allowed word shares the rest by its frequency weight. The share outside the
list is fitted per list (``fit_mixture``: the share of another game's answers the list lacks).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from raten.engine.alphabet import LATIN
from raten.engine.words import UNIFORM, WordSet, normalise
from raten.errors import RatenError

if TYPE_CHECKING:
    import numpy as np

FREQUENCY = "frequency"
MIXTURE = "mixture"
PRIORS = (UNIFORM, FREQUENCY, MIXTURE)
#: The wordfreq release the fitted numbers and every weight come from (pinned in pyproject.toml).
WORDFREQ_VERSION = "3.1.1"
#: Stems at least this common (zipf), by language, make a word ending in a plural or past-tense
#: suffix an inflected form: IDEAS (idea), BAKED (bake), HUNDE (hund). Chosen by the
#: log-likelihood of the fit (docs/prior.md): German 3.5 fits 6mal5's answers better than 2.5 or 3.
STEM_ZIPF = {"en": 2.5, "de": 3.5}


@dataclass(frozen=True)
class Logistic:
    """``weight = 1 / (1 + exp(-(slope * (zipf - midpoint) - penalty * inflected - name * proper
    - unlisted * only_wordfreq)))``; ``name`` and ``unlisted`` are German's (0 in English)."""

    midpoint: float
    slope: float
    penalty: float
    name: float = 0.0
    unlisted: float = 0.0

    def weights(
        self,
        zipf: np.ndarray,
        inflected: np.ndarray,
        proper: np.ndarray | float = 0.0,
        only_wordfreq: np.ndarray | float = 0.0,
    ) -> np.ndarray:
        """The weight of each word from its zipf frequency, whether it looks inflected, whether it
        is a proper name and whether only wordfreq (no dictionary) knows it."""
        import numpy as np  # here: a list with the uniform prior loads without numpy

        logit = self.slope * (zipf - self.midpoint) - self.penalty * inflected
        logit = logit - self.name * proper - self.unlisted * only_wordfreq
        # the C library's exp, not numpy's: numpy picks an exp by the CPU (AVX-512 rounds some
        # last bits otherwise), and the weights key the shipped books and caches on every machine
        return np.array([1.0 / (1.0 + math.exp(-x)) for x in np.ravel(logit).tolist()]).reshape(np.shape(logit))


#: Fitted by ``fit`` (bench/fit_prior.py, docs/prior.md): English on the original 2315 answers
#: among the 12972 allowed words; German on 6mal5.com's 1070 answers among the 7408 words that
#: 6mal5 (3827) or ``de`` (6281) accept: the words the prior weighs, as in English.
FITTED: dict[str, Logistic] = {
    "en": Logistic(midpoint=2.937, slope=2.467, penalty=7.1179),
    "de": Logistic(midpoint=3.8236, slope=1.6809, penalty=1.7847, name=4.4002, unlisted=2.7046),
}


def _wordfreq():
    """The wordfreq module at the pinned version, or a clear error."""
    from importlib import metadata

    try:
        version = metadata.version("wordfreq")
    except metadata.PackageNotFoundError:
        raise RatenError(f"the frequency prior needs wordfreq: pip install wordfreq=={WORDFREQ_VERSION}") from None
    if version != WORDFREQ_VERSION:
        raise RatenError(f"the frequency prior needs wordfreq=={WORDFREQ_VERSION}, found {version}")
    import wordfreq

    return wordfreq


def _short_words(language: str) -> Iterator[tuple[str, str, float]]:
    """(normalised word, wordfreq's spelling, frequency) of every wordfreq word that is 3 to 5
    letters a-z after normalising (ä→ae ...)."""
    for word, f in _wordfreq().get_frequency_dict(language).items():
        if len(word) > 6:
            continue
        norm = normalise(word)
        if 3 <= len(norm) <= 5 and norm.isascii() and norm.isalpha():
            yield norm, word, f


@cache
def zipf_table(language: str) -> dict[str, float]:
    """Zipf frequency (log10 per billion words, 2 decimals, as wordfreq rounds it) of every word
    of 3 to 5 letters a-z after normalising (ä→ae ...): spellings that normalise alike add up."""
    total: dict[str, float] = {}
    for norm, _word, f in _short_words(language):
        total[norm] = total.get(norm, 0.0) + f
    return {w: round(math.log10(f) + 9, 2) for w, f in total.items() if f > 0}


def spellings_table(language: str) -> dict[str, set[str]]:
    """wordfreq's spellings of every word ``zipf_table`` counts (groesse: größe), to ask a
    dictionary about the word as it is written."""
    table: dict[str, set[str]] = {}
    for norm, word, _f in _short_words(language):
        table.setdefault(norm, set()).add(word)
    return table


def zipf(words: Sequence[str], language: str) -> np.ndarray:
    """Zipf frequency of each word (0 for a word wordfreq has not seen)."""
    import numpy as np  # here: a list with the uniform prior loads without numpy

    table = zipf_table(language)
    return np.array([table.get(w, 0.0) for w in words], dtype=np.float64)


def _stem_known(stem: str, table: dict[str, float], word_zipf: float, least: float) -> bool:
    """The stem is a word at least ``least`` common, and not much rarer than the word itself."""
    z = table.get(stem, 0.0)
    return len(stem) >= 3 and z >= max(least, word_zipf - 1.0)


def looks_inflected(word: str, language: str) -> bool:
    """A plural or past-tense form of a commoner word.

    English: -S but not -SS (IDEAS, BOXES, FLIES), -ED (BAKED, AIMED, CRIED).
    German: a base form plus an inflection ending: -E, -N, -S, -T, -EN, -ER, -EM, -ES, -ST, -TE
    (HUNDE, ROTEN, GINGE).
    """
    table = zipf_table(language)
    z = table.get(word, 0.0)
    if language == "de":
        endings: tuple[tuple[str, str], ...] = tuple(
            (e, "") for e in ("en", "er", "em", "es", "st", "te", "e", "n", "s", "t")
        )
    else:
        if word.endswith("ss"):
            return False
        endings = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"))
    least = STEM_ZIPF[language]
    return any(word.endswith(end) and _stem_known(word[: -len(end)] + add, table, z, least) for end, add in endings)


@cache
def german_categories() -> tuple[frozenset[str], frozenset[str]]:
    """(proper names, dictionary words) of the German lists: ``proper.txt`` (the hunspell names,
    Kevin, Sarah) and the allowed words less ``frequent.txt`` (those only wordfreq knows), as
    `raten words build` writes them into the package's data/de."""
    from importlib import resources

    folder = resources.files("raten") / "data" / "de"

    def read(name: str) -> frozenset[str]:
        try:
            return frozenset((folder / name).read_text(encoding="utf-8").split())
        except OSError:
            raise RatenError(f"built-in list data/de/{name} is missing; run `raten words build`") from None

    return read("proper.txt"), read("allowed.txt") - read("frequent.txt")


def categories(words: Sequence[str], language: str) -> tuple[np.ndarray, np.ndarray]:
    """(1.0 if a proper name, 1.0 if no dictionary lists it) of each word: German only, 0 in English."""
    import numpy as np  # here: a list with the uniform prior loads without numpy

    if language != "de":
        return np.zeros(len(words)), np.zeros(len(words))
    proper, listed = german_categories()
    return (
        np.array([w in proper for w in words], dtype=np.float64),
        np.array([w not in listed for w in words], dtype=np.float64),
    )


def features(words: Sequence[str], language: str) -> tuple[np.ndarray, np.ndarray]:
    """(zipf frequency, 1.0 if inflected else 0.0) of each word: what the logistic reads."""
    import numpy as np  # here: a list with the uniform prior loads without numpy

    return zipf(words, language), np.array([looks_inflected(w, language) for w in words], dtype=np.float64)


def _language(language: str) -> str:
    if language not in FITTED:
        raise RatenError(f"the frequency prior knows English and German, not {language!r}")
    return language


def frequency_weights(words: Sequence[str], language: str) -> np.ndarray:
    """The frequency prior's weight of each word (positive; the engine normalises them)."""
    import numpy as np  # here: a list with the uniform prior loads without numpy

    z, inflected = features(words, _language(language))
    return np.maximum(FITTED[language].weights(z, inflected, *categories(words, language)), 1e-12)


#: The mixture's share of the weight outside a list's solutions, by list: fitted by
#: ``fit_mixture`` on 6mal5.com's 1070 answers (bench/fit_prior.py, docs/prior.md). A list
#: without its own fit takes ``de``'s, the one list whose solutions were chosen apart from a game's.
MIXTURE_OUTSIDE = {"de": 0.1654, "de-ext": 0.0075}


def outside_share(words: WordSet) -> float:
    """The mixture's weight outside the solutions of ``words`` (``MIXTURE_OUTSIDE``)."""
    return MIXTURE_OUTSIDE.get(words.name, MIXTURE_OUTSIDE["de"])


def mixture_weights(words: WordSet, outside: float) -> np.ndarray:
    """The mixture's weight of every allowed word: the list's solutions share ``1 - outside``
    equally, the other allowed words share ``outside`` by their frequency weights."""
    import numpy as np  # here: a list with the uniform prior loads without numpy

    own = set(words.list_solutions)
    inside = np.array([w in own for w in words.allowed])
    weights = np.zeros(len(words.allowed))
    weights[inside] = (1.0 - outside) / inside.sum()
    if (~inside).any():
        others = frequency_weights([w for w, i in zip(words.allowed, inside) if not i], _language(words.language))
        weights[~inside] = outside * others / others.sum()
    return weights


def fit_mixture(solutions: Sequence[str], allowed: Sequence[str], answers: Sequence[str]) -> float:
    """The mixture's share outside ``solutions`` that makes ``answers`` (another game's, those
    ``allowed`` holds) likeliest: the log-likelihood ``m log q + (n - m) log(1 - q)`` plus terms
    without ``q`` (every answer's share within its part) is largest at ``q = m / n``, the share
    of the ``n`` answers that are not among the solutions (``m``); 4 decimals."""
    own, pool = set(solutions), set(allowed)
    seen = [a for a in answers if a in pool]
    if not seen:
        raise RatenError("none of the answers is an allowed word: nothing to fit the mixture on")
    return round(sum(a not in own for a in seen) / len(seen), 4)


@dataclass(frozen=True)
class FrequencyWeights:
    """``frequency_weights`` of one language as a value (a word set that carries it pickles, for
    the web app's worker processes)."""

    language: str

    def __call__(self, words: Sequence[str]) -> np.ndarray:
        return frequency_weights(words, self.language)


def frequency_fits(words: WordSet) -> bool:
    """Whether the frequency prior weighs ``words``: it is fitted on five-letter lists in a-z of
    the languages in ``FITTED``; another length's or alphabet's words have no weights yet."""
    return words.language in FITTED and words.length == 5 and words.alphabet == LATIN


def apply_prior(words: WordSet, prior: str, *, weigh_fallback: bool = False) -> WordSet:
    """``words`` with ``prior``: ``uniform`` (the list's solutions, equally likely), ``frequency``
    (every allowed word a possible answer, weighted by ``frequency_weights``) or ``mixture``
    (every allowed word, the list's solutions weighing most: ``mixture_weights``).

    When no solution fits, the solver goes on with the allowed words that fit: equally likely,
    as the browser's engine (raten.web.device) ranks them too, or with ``weigh_fallback`` by
    their frequency weights. Under the weighted priors every allowed word is a candidate already."""
    name = prior.strip().lower()
    language = words.language
    fitted = frequency_fits(words)
    fallback = FrequencyWeights(language) if weigh_fallback and fitted else None
    if name == UNIFORM:
        return words.with_prior(UNIFORM, None, solutions=words.list_solutions, fallback_weights=fallback)
    if name in (FREQUENCY, MIXTURE) and not fitted and language in FITTED:
        raise RatenError(
            f"the {name} prior is fitted on five-letter lists in a-z, not on {words.name}: use --prior uniform",
            "prior_unfitted",
            list=words.name,
        )
    if name == FREQUENCY:
        weights = frequency_weights(words.allowed, _language(language))
        return words.with_prior(FREQUENCY, weights, solutions=words.allowed, fallback_weights=fallback)
    if name == MIXTURE:
        weights = mixture_weights(words, outside_share(words))
        return words.with_prior(MIXTURE, weights, solutions=words.allowed, fallback_weights=fallback)
    raise RatenError(
        f"unknown prior {prior!r}: choose one of {', '.join(PRIORS)}",
        "unknown_prior",
        prior=prior,
        choices=", ".join(PRIORS),
    )


# --- fitting the logistic ---------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """A fitted logistic, the log-likelihood it reaches and how many words it was fitted on."""

    logistic: Logistic
    log_likelihood: float
    words: int
    answers: int


def fit(
    allowed: Sequence[str], answers: Sequence[str], language: str, iterations: int = 50, *, categories_too: bool = True
) -> Fit:
    """Maximum-likelihood logistic regression of "is an answer" on (zipf, inflected, proper name,
    only wordfreq's) over the ``allowed`` words (Newton's method; the log-likelihood is concave, so
    it converges to the one optimum). Returns the midpoint/slope/penalties form; a feature no word
    has (English names) gets 0, and so do both categories without ``categories_too`` (the fit
    before they existed, for comparison)."""
    import numpy as np

    chosen = set(answers)
    z, inflected = features(allowed, language)
    y = np.array([w in chosen for w in allowed], dtype=np.float64)
    kinds = categories(allowed, language) if categories_too else (np.zeros_like(z), np.zeros_like(z))
    x = np.column_stack([np.ones_like(z), z, inflected, *kinds])
    beta = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (y - p)
        hessian = (x * (p * (1 - p))[:, None]).T @ x
        step = np.linalg.solve(hessian + 1e-9 * np.eye(len(beta)), gradient)  # a feature no word has stays 0
        beta += step
        if np.abs(step).max() < 1e-12:
            break
    logit = x @ beta
    log_likelihood = float(np.sum(y * logit - np.logaddexp(0.0, logit)))
    intercept, slope, coef, name, unlisted = beta
    logistic = Logistic(
        midpoint=round(-intercept / slope, 4),
        slope=round(slope, 4),
        penalty=round(-coef, 4),
        name=round(-name, 4) + 0.0,  # + 0.0: no -0.0 for a feature no word has
        unlisted=round(-unlisted, 4) + 0.0,
    )
    return Fit(logistic, log_likelihood, len(allowed), int(y.sum()))
