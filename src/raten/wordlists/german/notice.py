"""The NOTICE that ships beside the German lists: sources, versions, licences, how they were made.

Its text is a template filled with the build's figures, so a rebuild with the same
dictionary and wordfreq gives the same bytes as the committed ``src/raten/data/de/NOTICE``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from raten.wordlists.german.dictionary import DEFAULT_DICT, Lexicon
from raten.wordlists.german.frequent import MAX_GAP, MIN_ZIPF
from raten.wordlists.german.hunspell import DEFAULT_HUNSPELL, HunspellDict
from raten.wordlists.german.morphology import RULE_LABELS
from raten.wordlists.german.nonwords import KINDS
from raten.wordlists.german.result import BuildResult

NOTICE_TEMPLATE = """\
German word lists of raten (presets `de` and `de-ext`)
=====================================================

Files
  allowed.txt    {allowed} words: every five-letter word form of ngerman and of the
                 hunspell dictionary expanded through its affix rules (after transliteration),
                 and {frequent} words German text uses that neither lists (frequent.txt)
  solutions.txt  {solutions} words: the commonest ngerman words that look like base forms
  ngerman.txt    {ngerman} words: the dictionaries' words (allowed.txt less frequent.txt),
                 for `de-ext` (`de-ext` = de plus ngerman.txt, as both solutions and allowed)
  frequent.txt   {frequent} words: the allowed words only wordfreq vouches for (sowas, track)
  proper.txt     {proper} words: the allowed words only the hunspell dictionary's proper
                 names give (kevin, sarah); the frequency prior makes both less likely
  written.txt    {written} lines "boese böse": an allowed word and how German writes it, where
                 that differs (its dictionary spelling, the commonest by wordfreq of several;
                 none where one spelling is the word itself, as masse), for the pages to show

All lists: lowercase a-z, one word per line, sorted, trailing newline (written.txt: sorted
by its first word).

Sources
  Debian package wngerman {debian}, file /usr/share/dict/ngerman
    (upstream igerman98 by Björn Jacke, https://www.j3e.de/ispell/igerman98/;
    {lines} entries, sha256 {dict_sha256}).
    Licence: GPL-2+ (GNU General Public License, version 2 or later).
{hunspell_source}  PyPI package wordfreq {wordfreq} by Robyn Speer, word frequencies for "de" and "en"
    (https://github.com/rspeer/wordfreq). Licence: code Apache-2.0, data CC BY-SA 4.0
    (its README names the corpora the data comes from). The choice and ranking of the
    solutions and the words of frequent.txt come from wordfreq; no frequency figure is
    copied into these files.
{filter_source}
Licence of these files
  The lists are derived from the sources above and are distributed under the
  {licence}
  (the rest of raten is MIT). The choice of solutions and the words of frequent.txt are
  based on wordfreq's data (CC BY-SA 4.0, credited above; Creative Commons lists GPL-3
  as compatible with BY-SA 4.0, so adaptations may be shared under GPL-3).

How they were made (src/raten/wordlists/german/)
  1. ngerman entries that are all lowercase or capitalised and consist of letters only
     (acronyms, mixed case and entries with other characters are dropped), lowercased,
     transliterated ä→ae, ö→oe, ü→ue, ß→ss, five letters long: {wngerman} words.
{hunspell_step}{frequent_step}     Together: allowed.txt ({transliterated} of them had an umlaut or ß). Words that are
     five letters only before transliteration (Größe) are not five-letter words in the
     game's alphabet and are left out everywhere.
  2. ngerman.txt holds the dictionaries' words (not frequent.txt's, mostly names and rare
     loans a game would not pick). `de-ext` takes them all as solutions; it uses the
     transliterated words, not only the words that are plain ASCII (as some other
     "Standard + ngerman" lists do), because the game transliterates (fuenf, kaese, muede
     are words like any other) and dropping umlaut words would leave an arbitrary hole.
  3. Solutions: ngerman words with wordfreq zipf >= {min_zipf} ({candidates} words), ranked by
     frequency (the frequencies of all ngerman spellings of a word added up). Left out,
     by the first rule that applies:
{excluded}
     The {solutions} commonest of the remaining {eligible} are the solutions; the rarest
     has zipf {lowest_zipf}. Only ngerman words are candidates: the rules read a word's
     part of speech from its neighbours in ngerman, and the forms the hunspell dictionary
     adds are mostly names and English words (Kevin, Sarah, event, happy) they cannot tell.
  The rules can be wrong both ways: ngerman lists a word that is both noun and verb
  only once, in lowercase, so some nouns that look like verb forms are missing (Hetze,
  Robbe) and some plurals that head compound nouns are kept.

Rebuild
  apt-get install {packages} && pip install 'raten[build-words]'
  raten words build{dict_option} --solutions {solutions} --min-zipf {min_zipf}{frequent_option}
"""

FILTER_SOURCE = """\
  6mal5.com's allowed words as raten's preset 6mal5 ships them (src/raten/data/6mal5/, from
    GitHub rabuu/wordle-bot, Copyright (c) 2022 rabuu). Licence: MIT. Only which words it
    accepts is used: a frequent word it accepts is kept (step 1); none is added.
"""

FILTER_STEP = """\
     Only those that hunspell accepts (`hunspell -G`, as written or capitalised, in one
     of wordfreq's spellings) or 6mal5.com accepts are kept (--filter-non-words); {dropped}
     others were dropped as no German word, by the first kind that fits:
{kinds}
"""

HUNSPELL_SOURCE = """\
  Debian package {package} {version}, files {stem}.dic and .aff
    (igerman98 extended by Franz Michael Baumann, "frami", as LibreOffice ships it;
    .dic sha256 {dic_sha256},
    .aff sha256 {aff_sha256}).
    Licence: GPL-2 or GPL-3 (Debian's copyright file: "GPL-2 or GPL-3"; the .aff file:
    "License: GPLv2, GPLv3").
    Expanded with unmunch (Debian package hunspell-tools {tools}) and checked with hunspell
    (Debian package hunspell {checker}); no code of either is part of these files.
"""

HUNSPELL_STEP = """\
     The hunspell dictionary {stem}: every stem with every
     affix its flags allow (`unmunch`), kept when `hunspell -G` accepts it as a word
     (unmunch also lists parts that exist only inside compounds, such as Abhol, Mikro),
     then the same filter: {forms} words, {added} of them not in ngerman
     ({examples}). Debian's hunspell-de-de is igerman98 20161207, the source of
     wngerman: its five-letter forms are wngerman's but for two that frami has too
     (fadst, oedst), so the build reads the frami dictionary (the two packages conflict).
"""

FREQUENT_STEP = """\
     Then wordfreq's German words of five letters (transliterated, spellings that
     transliterate alike added up) with zipf >= {zipf} that are not more than
     {gap} zipf commoner in English (loans German uses, such as track and ultra, stay;
     English words quoted in German text, such as about, go): {count} words neither
     dictionary lists (frequent.txt: {examples}).
"""


@dataclass(frozen=True)
class Sources:
    """Where the lists came from: the dictionaries' checksums and the packages' versions."""

    dict_sha256: str
    debian: str | None
    wordfreq: str | None
    dict_path: Path = DEFAULT_DICT
    hunspell: HunspellDict | None = None
    frequent: bool = True
    non_words: bool = False  #: --filter-non-words: the frequent words that are no German word dropped


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, hex: names the exact dictionary the lists came from."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def debian_version(package: str = "wngerman", status: Path = Path("/var/lib/dpkg/status")) -> str | None:
    """The installed Debian package's version, from dpkg's status file (None if unknown)."""
    try:
        text = status.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for block in text.split("\n\n"):
        if re.search(rf"^Package: {re.escape(package)}$", block, re.M):
            found = re.search(r"^Version: (\S+)$", block, re.M)
            return found.group(1) if found else None
    return None


def wordfreq_version() -> str | None:
    """The installed wordfreq's version (None if unknown)."""
    from importlib import metadata

    try:
        return metadata.version("wordfreq")
    except metadata.PackageNotFoundError:
        return None


def _hunspell_texts(result: BuildResult, d: HunspellDict | None) -> tuple[str, str, str]:
    """The source paragraph, the build step and the packages for the NOTICE (empty without hunspell)."""
    if d is None:
        return "", "", "wngerman"
    source = HUNSPELL_SOURCE.format(
        package=d.package or "(not a Debian package)",
        version=(debian_version(d.package) if d.package else None) or "(version unknown)",
        stem=d.stem,
        dic_sha256=file_sha256(d.dic),
        aff_sha256=file_sha256(d.aff),
        tools=debian_version("hunspell-tools") or "(version unknown)",
        checker=debian_version("hunspell") or "(version unknown)",
    )
    added = result.added()
    examples = [w for w in ("chili", "coach", "email", "joint", "label") if w in added] or added[:5]
    step = HUNSPELL_STEP.format(stem=d.stem, forms=len(result.hunspell), added=len(added), examples=", ".join(examples))
    packages = " ".join(["wngerman", d.package or "", "hunspell-tools", "hunspell"]).replace("  ", " ")
    return source, step, packages


def _frequent_step(result: BuildResult) -> str:
    """The build step that adds wordfreq's frequent words (empty without them)."""
    if not result.frequent:
        return ""
    examples = [w for w in ("sowas", "haufe", "cirka", "track", "ultra") if w in result.frequent]
    step = FREQUENT_STEP.format(
        zipf=MIN_ZIPF, gap=MAX_GAP, count=len(result.frequent), examples=", ".join(examples or result.frequent[:5])
    )
    if result.non_words is not None:
        kinds = "\n".join(f"       {len(words):5d}  {KINDS[kind]}" for kind, words in result.non_words.items())
        step += FILTER_STEP.format(dropped=sum(len(w) for w in result.non_words.values()), kinds=kinds)
    return step


def notice_text(result: BuildResult, lex: Lexicon, sources: Sources) -> str:
    """The NOTICE that names sources, versions, licences and the command that rebuilds."""
    excluded = "\n".join(f"       {len(words):5d}  {RULE_LABELS[rule]}" for rule, words in result.excluded.items())
    hunspell_source, hunspell_step, packages = _hunspell_texts(result, sources.hunspell)
    options = "" if sources.dict_path == DEFAULT_DICT else f" --dict {sources.dict_path}"
    if sources.hunspell is None:
        options += " --no-hunspell"
    elif sources.hunspell.stem != DEFAULT_HUNSPELL.stem:
        options += f" --hunspell {sources.hunspell.stem}"
    return NOTICE_TEMPLATE.format(
        allowed=len(result.allowed),
        solutions=len(result.solutions),
        ngerman=len(result.ngerman),
        debian=sources.debian or "(version unknown)",
        lines=lex.lines,
        dict_sha256=sources.dict_sha256,
        hunspell_source=hunspell_source,
        wordfreq=sources.wordfreq or "(version unknown)",
        licence="GPL-2+, like ngerman"
        if sources.hunspell is None
        else "GPL-3 (the terms all sources allow: GPL-2+, GPL-2 or GPL-3, CC BY-SA 4.0)"
        if result.frequent
        else "GPL-2 or GPL-3, at your option (the terms all sources allow)",
        wngerman=len(result.wngerman),
        hunspell_step=hunspell_step,
        transliterated=result.transliterated,
        written=len(result.written),
        frequent=len(result.frequent),
        frequent_step=_frequent_step(result),
        proper=len(result.proper),
        min_zipf=result.min_zipf,
        candidates=result.candidates,
        excluded=excluded,
        eligible=result.eligible,
        lowest_zipf=f"{result.lowest_zipf:.2f}",
        packages=packages,
        dict_option=options,
        frequent_option=(" --filter-non-words" if sources.non_words else "")
        + ("" if sources.frequent else " --no-frequent"),
        filter_source=FILTER_SOURCE if sources.non_words else "",
    )
