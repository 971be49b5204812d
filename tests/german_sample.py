"""A small made-up German dictionary and a fake frequency source, for the list builder's tests."""

from __future__ import annotations

# A dictionary with one family of words for each rule, written the way ngerman writes it.
DICTIONARY = """\
# a comment line
Wolke
Wolken
Regenwolke
Regen
Tisch
Tische
Tischen
Tisches
Hund
Hunde
Hunden
Hundes
Jagdhund
Jagdhunde
Foto
Fotos
alt
alte
alten
altem
alter
altes
müde
müden
müdem
müder
müdes
kommen
kommt
komme
kommst
loben
lobt
lobst
lobe
gelobt
Peter
Peters
Größe
Straße
Fuß
Käse
fünf
DDR
McDonald
Jo-Jo
first
"""

# zipf frequencies (German, English) by spelling; anything else is 0.
FREQS: dict[str, tuple[float, float]] = {
    "wolke": (3.8, 0.0),
    "regen": (4.3, 2.0),
    "tisch": (4.2, 0.0),
    "hunde": (4.5, 1.0),
    "fotos": (4.6, 2.0),
    "alten": (5.3, 0.0),
    "alter": (4.7, 2.0),
    "müde": (4.5, 0.0),
    "kommt": (5.9, 0.0),
    "loben": (3.9, 0.0),
    "peter": (5.1, 4.5),
    "käse": (4.1, 0.0),
    "fünf": (5.0, 0.0),
    "first": (3.6, 5.9),
    "größe": (4.9, 0.0),
    "alt": (5.2, 0.0),
    "kommen": (5.8, 0.0),
    "hund": (4.9, 0.0),
}


def fake_zipf(word: str, lang: str) -> float:
    """A frequency source with the same signature as wordfreq.zipf_frequency."""
    de, en = FREQS.get(word, (0.0, 0.0))
    return de if lang == "de" else en
