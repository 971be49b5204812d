"""The digest every claim of a tree search carries: results lines, tree headers, openers tables.

A claim says: on these word lists under this prior, in this mode, with this guess limit, this
opener needs exactly (``exact``) or at least (``at-least``) this total. Its digest is the first
16 hex digits of a SHA-256 over those fields, written one ``name=value`` a line after the line
``raten-claim-1``::

    raten-claim-1
    lists=<WordSet.prior_key: the lists' fingerprint, plus the prior's name and weights>
    mode=normal | hard
    max_guesses=6 | -
    opener=salet
    status=exact | at-least | ... (what the claim says, see below)
    total=7920 | impossible
    worst=5 | -

It is not a signature: anyone can recompute it (``checker/check_optimum.py`` does, with its
own code). It catches a claim edited by hand or damaged by accident, and a claim moved to
other lists, another prior, mode or limit, because the edited fields no longer give the
digest beside them. The status names what is claimed and how: a tree header's is ``exact``
followed by its ``proven=`` value (``exact proven=all-openers``); a results line's is ``exact``,
``at-least by search`` or ``at-least by level-bound`` (the bound that produced it, which a
resumed run recomputes); an openers table row's is its status cell.
"""

from __future__ import annotations

import hashlib

#: The first line of the digested text: a new rule gets a new number.
DIGEST_VERSION = "raten-claim-1"
#: Hex digits kept (64 bits): enough that no accident and no unrelated claim matches.
DIGEST_LENGTH = 16


def claim_digest(
    lists: str,
    mode: str,
    max_guesses: int | None,
    opener: str,
    status: str,
    total: int | None,
    worst: int | None = None,
) -> str:
    """The digest of one claim (the module's docstring has the fields); ``total`` None means
    impossible within the guess limit, ``worst`` None that the claim names no worst case."""
    fields = {
        "lists": lists,
        "mode": mode,
        "max_guesses": str(max_guesses) if max_guesses else "-",
        "opener": opener.lower(),
        "status": status,
        "total": "impossible" if total is None else str(int(total)),
        "worst": str(int(worst)) if worst else "-",
    }
    text = "\n".join([DIGEST_VERSION, *(f"{k}={v}" for k, v in fields.items())]) + "\n"
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_LENGTH]


def record_status(rec: dict) -> str:
    """The status a results line's digest covers: ``exact``, or ``at-least by`` the bound
    that produced it (``level-bound``, or ``search`` for the exact search stopped at its cut-off)."""
    return "exact" if rec.get("exact") else f"at-least by {rec.get('by') or 'search'}"


def record_digest(rec: dict, lists: str, mode: str, max_guesses: int | None) -> str:
    """The digest of one results line (an ``opener`` or ``bound`` record) under its file's header."""
    return claim_digest(lists, mode, max_guesses, rec["opener"], record_status(rec), rec.get("total"), rec.get("worst"))
