"""Building the German lists (`de`, `de-ext`) and writing them, with their NOTICE, to a directory.

Allowed guesses are every five-letter word form of wngerman and of the hunspell dictionary
expanded through its affix rules, after transliteration (ä→ae, ö→oe, ü→ue, ß→ss), and the
words German text uses that neither lists (``frequent``: sowas, track, ultra); the solutions
are the most frequent wngerman words by wordfreq (zipf scale) that no morphology rule leaves
out. The same dictionaries and wordfreq give the same bytes.

The solutions are drawn from wngerman alone: the rules read a word's part of speech from its
neighbours in wngerman, and the forms hunspell adds are mostly names and English words
(Kevin, Sarah, event, happy) that neither the rules nor the hand lists know.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path

from raten.errors import RatenError
from raten.wordlists.files import read_word_file
from raten.wordlists.german.dictionary import DEFAULT_DICT, Lexicon, parse_dictionary, read_dictionary
from raten.wordlists.german.frequent import frequent_words
from raten.wordlists.german.hunspell import DEFAULT_HUNSPELL, HunspellDict, expand, name_forms
from raten.wordlists.german.morphology import RULES, Morphology, Zipf
from raten.wordlists.german.nonwords import NonWordFilter, non_word_filter
from raten.wordlists.german.notice import Sources, debian_version, file_sha256, notice_text, wordfreq_version
from raten.wordlists.german.result import BuildResult
from raten.wordlists.presets import load_preset
from raten.wordlists.prior import spellings_table, zipf_table

DEFAULT_SOLUTIONS = 1050
DEFAULT_MIN_ZIPF = 3.0


def wordfreq_zipf() -> Zipf:
    """wordfreq's ``zipf_frequency``, or a clear error when wordfreq is not installed."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        raise RatenError("building the German lists needs wordfreq: pip install 'raten[build-words]'") from None
    return zipf_frequency


def written_forms(spellings: Mapping[str, Iterable[str]], zipf: Zipf) -> dict[str, str]:
    """Each word as German writes it where that differs (boese: böse): of its SPELLINGS the
    commonest by ZIPF, then the first alphabetically; none where one spelling is the word itself
    (masse: Masse and Maße), so an ambiguous word is shown as it was typed."""
    out = {}
    for word, forms in spellings.items():
        written = set(forms)
        if written and word not in written:
            out[word] = min(written, key=lambda form: (-zipf(form, "de"), form))
    return out


def build_lists(
    lex: Lexicon,
    zipf: Zipf,
    solutions: int = DEFAULT_SOLUTIONS,
    min_zipf: float = DEFAULT_MIN_ZIPF,
    forms: Lexicon | None = None,
    frequent: Iterable[str] = (),
    names: Iterable[str] = (),
    non_words: NonWordFilter | None = None,
) -> BuildResult:
    """Allowed = every five-letter word of LEX and FORMS (the expanded hunspell dictionary) and
    FREQUENT (wordfreq's, ``frequent_words``) that neither lists, less those NON_WORDS drops
    (when given); NAMES (the hunspell names' forms) that only FORMS has are recorded as proper
    names for the prior; solutions = the SOLUTIONS commonest words of LEX at or above MIN_ZIPF
    that no rule leaves out (fewer if there are not that many)."""
    if solutions < 1:
        raise RatenError("--solutions must be at least 1")
    morph = Morphology(lex, zipf)
    five = lex.five()
    extra = forms.five() if forms is not None else []
    listed = set(five) | set(extra)
    unlisted = sorted(set(frequent) - listed)
    dropped = None
    if non_words is not None:
        unlisted, dropped = non_words.split(unlisted)
    allowed = sorted(listed | set(unlisted))
    spellings = {w: set(lex.spellings.get(w, ())) | set(forms.spellings.get(w, ()) if forms else ()) for w in listed}
    spoken = spellings_table("de") if unlisted else {}
    written = written_forms({**{w: spoken.get(w, ()) for w in unlisted}, **spellings}, zipf)
    ranked = sorted(five, key=lambda w: (-morph.freq(w), w))
    candidates = [w for w in ranked if morph.freq(w) >= min_zipf]
    excluded: dict[str, list[str]] = {rule: [] for rule in RULES}
    eligible = []
    for word in candidates:
        verdict = morph.exclusion(word)
        if verdict:
            excluded[verdict[0]].append(word)
        else:
            eligible.append(word)
    chosen = eligible[:solutions]
    return BuildResult(
        allowed=allowed,
        solutions=sorted(chosen),
        ngerman=sorted(listed),  # de-ext: every dictionary word an answer, not wordfreq's names (jared)
        min_zipf=min_zipf,
        candidates=len(candidates),
        excluded=excluded,
        eligible=len(eligible),
        lowest_zipf=morph.freq(chosen[-1]) if chosen else 0.0,
        transliterated=sum(any(s != w for s in spellings[w]) for w in listed),
        wngerman=five,
        hunspell=extra,
        frequent=unlisted,
        proper=sorted(set(names) & set(extra) - set(five)),
        non_words=dropped,
        written=written,
    )


def default_out_dir() -> Path:
    """The package's own data/de directory (where `_load_de` reads the lists)."""
    return Path(str(resources.files("raten"))) / "data" / "de"


def write_list(path: Path, words: Iterable[str]) -> None:
    """One word per line, sorted, trailing newline: the same lists give the same bytes."""
    path.write_text("".join(w + "\n" for w in sorted(set(words))), encoding="utf-8")


#: The lists `raten words build` writes, each NAME.txt: frequent and proper are the German
#: prior's categories (words only wordfreq knows, proper names), read by raten.wordlists.prior.
LIST_FILES = ("solutions", "allowed", "ngerman", "frequent", "proper")


#: Each word as German writes it where that differs ("boese böse"), for the pages to show.
WRITTEN_FILE = "written.txt"


def write_lists(result: BuildResult, out: Path, notice: str) -> dict[str, Path]:
    """Write the five lists, the written forms and NOTICE into OUT (created if missing)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = {name: out / f"{name}.txt" for name in LIST_FILES}
        write_list(paths["solutions"], result.solutions)
        write_list(paths["allowed"], set(result.allowed) | set(result.solutions))
        write_list(paths["ngerman"], result.ngerman)
        write_list(paths["frequent"], result.frequent)
        write_list(paths["proper"], result.proper)
        paths["written"] = out / WRITTEN_FILE
        paths["written"].write_text("".join(f"{w} {result.written[w]}\n" for w in sorted(result.written)), "utf-8")
        paths["NOTICE"] = out / "NOTICE"
        paths["NOTICE"].write_text(notice, encoding="utf-8")
    except OSError as e:
        raise RatenError(f"cannot write the word lists to {str(out)!r}: {e.strerror}") from None
    return paths


def build(
    dict_path: Path = DEFAULT_DICT,
    out: Path | None = None,
    n_solutions: int = DEFAULT_SOLUTIONS,
    min_zipf: float = DEFAULT_MIN_ZIPF,
    dry_run: bool = False,
    hunspell: HunspellDict | None = DEFAULT_HUNSPELL,
    compare: Iterable[Path] = (),
    frequent: bool = True,
    non_words: bool = True,
) -> tuple[BuildResult, dict]:
    """Build the lists from DICT_PATH, the HUNSPELL dictionary (None: wngerman alone) and
    wordfreq (with FREQUENT, its frequent words too; with NON_WORDS, less those that are no
    German word, ``raten.wordlists.german.nonwords``) and (unless DRY_RUN) write them into OUT.

    Returns the result and a report for people and scripts (``written`` names the files,
    ``coverage`` how many words of each COMPARE list the lists hold, ``non_words`` what the
    filter dropped and kept).
    """
    lex = read_dictionary(dict_path)
    compared = {str(p): read_word_file(p, 5) for p in compare}  # bad files fail before the slow part
    forms = parse_dictionary(expand(hunspell)) if hunspell is not None else None
    names = name_forms(hunspell) if hunspell is not None else []
    zipf = wordfreq_zipf()
    added = frequent_words(zipf_table("de"), zipf_table("en")) if frequent else []
    # the other German game's accepted words come from the package's own 6mal5 preset
    sifted = non_word_filter(added, hunspell, load_preset("6mal5").allowed) if non_words and frequent else None
    result = build_lists(
        lex, zipf, solutions=n_solutions, min_zipf=min_zipf, forms=forms, frequent=added, names=names, non_words=sifted
    )
    report = result.summary()
    report["non_words"] = _non_words_report(result, sifted) if sifted is not None else None
    report["dictionary"] = {"path": str(dict_path), "entries": lex.lines, "dropped": lex.dropped}
    report["hunspell"] = {"path": str(hunspell.stem), "forms": len(result.hunspell)} if hunspell else None
    report["wordfreq_words"] = {"candidates": len(added), "added": len(result.frequent)}
    report["coverage"] = {name: result.coverage(words) for name, words in compared.items()}
    if not dry_run:
        sources = Sources(
            dict_sha256=file_sha256(dict_path),
            debian=debian_version() if dict_path == DEFAULT_DICT else None,
            wordfreq=wordfreq_version(),
            dict_path=dict_path,
            hunspell=hunspell,
            frequent=frequent,
            non_words=sifted is not None,
        )
        notice = notice_text(result, lex, sources)
        out_dir = out if out is not None else default_out_dir()
        report["written"] = {name: str(p) for name, p in write_lists(result, out_dir, notice).items()}
    return result, report


def _non_words_report(result: BuildResult, sifted: NonWordFilter) -> dict:
    """What the non-word filter did: the words it dropped, by kind, and why the others stayed."""
    dropped = result.non_words or {}
    stayed = set(result.frequent)
    return {
        "dropped": sum(len(words) for words in dropped.values()),
        "by_kind": {kind: len(words) for kind, words in dropped.items()},
        "words": dropped,
        "kept": len(stayed),
        "kept_by_6mal5": len(stayed & sifted.keep),
        "kept_by_hunspell": sorted(stayed & sifted.accepted - sifted.keep),
    }
