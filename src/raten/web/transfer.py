"""A player's finished games taken to another browser or device: as a file the server signed, or
as a short code the server keeps for a day; where they arrive they are merged by game id (a game
already there is not added twice, and a day's daily game is not played twice).

Only games that are over travel (their answers are no secret then). The file is signed with a key
the server keeps in its database (HMAC-SHA256), so a file changed by hand, or made by another
server, is refused: a player cannot write wins into their statistics."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from raten.errors import RatenError
from raten.web.store import ConflictError, GameRecord, Store

#: What a file says it is, and its version.
FORMAT = "raten-games"
VERSION = 1
#: The most games one file or code brings (a player of a daily game and ten practice games a day
#: has about 4,000 a year).
MAX_GAMES = 20_000
#: A code's letters: Crockford's base 32 (no I, L, O, U: read aloud and typed without mistakes).
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
#: How long a code names the games.
CODE_HOURS = 24
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
_FIELDS = ("id", "list", "mode", "number", "hard", "boards", "answer", "rows", "status", "created", "updated")


def game_dict(record: GameRecord) -> dict[str, Any]:
    """A stored game as the file holds it."""
    return {
        "id": record.id,
        "list": record.list,
        "mode": record.mode,
        "number": record.number,
        "hard": record.hard,
        "boards": record.boards,
        "answer": record.answer,
        "rows": [[w, list(c) if isinstance(c, tuple) else c] for w, c in record.history],
        "status": record.status,
        "created": record.created,
        "updated": record.updated,
    }


def _record(game: dict[str, Any]) -> GameRecord:
    rows = tuple((str(w), tuple(c) if isinstance(c, list) else int(c)) for w, c in game["rows"])
    return GameRecord(
        game["id"], "", game["list"], game["mode"], game["number"], bool(game["hard"]), game["answer"], rows,
        game["status"], int(game["boards"]), game["created"], game["updated"],
    )  # fmt: skip


def _signature(key: str, games: list[dict[str, Any]]) -> str:
    body = json.dumps(games, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    return hmac.new(key.encode(), body, hashlib.sha256).hexdigest()


def export(store: Store, player: str) -> dict[str, Any]:
    """The player's finished games as a signed file (a JSON object)."""
    games = [game_dict(g) for g in store.finished_games(player)]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "games": games,
        "signature": _signature(store.signing_key(), games),
    }


def bad_file(reason: str, why: str, **params: object) -> RatenError:
    """A file that cannot be imported: ``reason`` keys its message (``err_bad_transfer_file_<reason>``)."""
    return RatenError(f"this file cannot be imported: {why}", "bad_transfer_file", reason=reason, **params)


def games_of_file(store: Store, data: dict[str, Any]) -> list[GameRecord]:
    """The games of a file made by ``export`` on this server; ``RatenError`` for anything else."""
    if data.get("format") != FORMAT:
        raise bad_file("format", "it is not a file of raten's games")
    if data.get("version") != VERSION:
        version = str(data.get("version"))[:20]
        raise bad_file(
            "version", f"it has version {version}, this raten reads {VERSION}", version=version, known=VERSION
        )
    games = data.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise bad_file("games", f"it holds no list of at most {MAX_GAMES} games", n=MAX_GAMES)
    signature = data.get("signature")
    if not isinstance(signature, str) or not hmac.compare_digest(signature, _signature(store.signing_key(), games)):
        raise bad_file("signature", "it was not made by this server, or it was changed")
    try:
        return [_record(g) for g in games if g.get("status") in ("won", "lost", "abandoned")]
    except (KeyError, TypeError, ValueError, AttributeError):  # signed by us, so only a file of another version
        raise bad_file("form", "its games are not in the form this raten reads") from None


def normalised_code(code: str) -> str:
    """A code as typed (any case, dashes, spaces, I/L for 1, O for 0) as kept."""
    return "".join(c for c in code.upper() if c.isalnum()).translate(_READ_AS)


def shown_code(code: str) -> str:
    """A code as shown to people: two groups of four (``K7P2-9QXM``)."""
    return f"{code[:4]}-{code[4:]}"


def new_code(store: Store, player: str) -> str:
    """A fresh code naming the player's games for ``CODE_HOURS`` (the expired ones are dropped)."""
    now = datetime.now(UTC)
    store.forget_transfers((now - timedelta(hours=CODE_HOURS)).isoformat(timespec="seconds"))
    for _ in range(10):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            store.new_transfer(player, code)
        except ConflictError:
            continue
        return shown_code(code)
    raise RuntimeError("no free code in ten tries")  # 32**8 codes: never in practice


def games_of_code(store: Store, code: str) -> list[GameRecord]:
    """The finished games of the player a code names; ``RatenError`` for an unknown or expired code."""
    since = (datetime.now(UTC) - timedelta(hours=CODE_HOURS)).isoformat(timespec="seconds")
    kept = normalised_code(code)
    player = store.transfer(kept, since) if len(kept) == CODE_LENGTH else None
    if player is None:
        raise RatenError(
            f"the code {code.strip()[:20]!r} is unknown or older than {CODE_HOURS} hours",
            "unknown_transfer_code",
            code=code.strip()[:20],
            hours=CODE_HOURS,
        )
    return store.finished_games(player)
