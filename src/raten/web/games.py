"""The stored games of a server on one board or many: start or resume, guess, statistics.

The rules are ``raten.play``'s (one daily game per language, variant and day; hard mode only on
one board and only before the first guess; the statistics of ``raten.play.records``): this
module stores what they decide, so the game routes only translate in and out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from raten.engine.words import check_word
from raten.errors import RatenError
from raten.play.game import Game, GameError, Mode, daily_number, game_variant, offered_boards
from raten.play.records import Record, record_of
from raten.web.service import Lists
from raten.web.store import ConflictError, DuplicateError, GameRecord, Store, stored_rows


class NotFoundError(Exception):
    """An unknown game, or one of another player (the two look the same on purpose)."""


class GameConflictError(Exception):
    """The request does not fit the stored game (changed meanwhile); a move the game itself
    refuses is a ``GameError`` from ``raten.play.game``."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Played:
    """A stored game with the library's game it holds, and the player's statistics once it is over."""

    record: GameRecord
    game: Game
    standing: Standing | None = None

    @property
    def abandoned(self) -> bool:
        """A practice game given up for a new one: over, but not finished."""
        return self.record.status == "abandoned"


@dataclass(frozen=True)
class Standing:
    """One mode and variant of a player's record, with today's number, the seconds to the next
    daily game and the game the record marks (today's daily game, or the last practice game)."""

    list: str
    boards: int
    mode: Mode
    max_tries: int
    record: Record
    number: int
    next_daily_seconds: int
    shown: Played | None


def _normalised(word: str) -> str | None:
    """The guess as the game keeps it (``ä`` as ``ae``, lower case), or None if it is no word."""
    try:
        return check_word(word, "guess")
    except RatenError:
        return None


def seconds_to_midnight() -> int:
    """Seconds until the next daily game (the day changes at midnight UTC)."""
    now = datetime.now(UTC)
    midnight = datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)
    return max(0, int((midnight - now).total_seconds()))


class Games:
    """The games behind the game page: each call reads or writes the store once and answers a ``Played``."""

    def __init__(self, lists: Lists, store: Store, secret: str, today: Callable[[], date]) -> None:
        self.lists = lists
        self.store = store
        self.secret = secret
        self.today = today

    def game_of(self, record: GameRecord) -> Game:
        """A stored game as the library's game."""
        return Game(
            self.lists.get(record.list).words,
            record.answers,
            hard=record.hard,
            mode="daily" if record.mode == "daily" else "practice",
            number=record.number,
            guesses=record.guesses,
        )

    def _played(self, record: GameRecord) -> Played:
        game = self.game_of(record)
        finished = game.over and record.status != "abandoned"
        standing = self.standing(record.player, record.list, record.boards, game.mode) if finished else None
        return Played(record, game, standing)

    def start(self, player: Callable[[], str], list_name: str, mode: Mode, boards: int, hard: bool) -> Played:
        """A new practice game (the one still in play is given up: it counts as played once it
        has a guess), or the daily game, made once per player, language, board count and day and
        then resumed (hard mode set as asked while it has no guess). ``player`` gives the player,
        asked only once the request is found to be one the game takes."""
        entry = self.lists.get(list_name)
        game_variant(boards, hard)
        who = player()
        if mode == "practice":
            answers = Game.practice(entry.words, boards, hard=hard).answer
            return self._played(self.store.create_game(who, entry.name, "practice", None, hard, answers, boards))
        entry = self.lists.daily_entry(entry.language)
        day = self.today()
        number = daily_number(day)
        record = self.store.daily_game(who, entry.name, number, boards)
        if record is None:
            game = Game.daily(entry.words, day, boards, hard=hard, secret=self.secret)
            try:
                record = self.store.create_game(who, entry.name, "daily", number, hard, game.answer, boards)
            except DuplicateError:  # the same player started it at the same moment
                record = self.store.daily_game(who, entry.name, number, boards)
                assert record is not None
        wanted = self.game_of(record).with_hard(hard)
        if wanted.hard != record.hard:
            record = self.store.set_hard(record, wanted.hard)
        return self._played(record)

    def owned(self, player: str | None, game_id: str) -> GameRecord:
        """The player's stored game with this id; ``NotFoundError`` for any other."""
        record = self.store.game(player, game_id) if player else None
        if record is None:
            raise NotFoundError(f"unknown game {game_id[:40]!r}")
        return record

    def get(self, player: str | None, game_id: str) -> Played:
        """A game of the player's."""
        return self._played(self.owned(player, game_id))

    def guess(self, player: str | None, game_id: str, word: str, row: int | None = None) -> Played:
        """The game after ``word``; a refused word (``GameError``) costs no try. ``row``: the rows
        the client saw before this guess; the same guess sent again once it was played (a retry
        after a lost answer) is answered with the game as it is, so no move is played twice."""
        record = self.owned(player, game_id)
        if row is not None and row != len(record.history):
            if row < len(record.history) and record.history[row][0] == _normalised(word):
                return self._played(record)
            raise GameConflictError("the game changed meanwhile; reload it", "conflict")
        if record.status == "abandoned":
            raise GameError("this game is over", "game_over")
        after = self.game_of(record).guess(word)
        try:
            record = self.store.save_rows(record, stored_rows(after.rows()), after.status)
        except ConflictError as e:
            raise GameConflictError(str(e), "conflict") from None
        return self._played(record)

    def game(self, player: str | None, game_id: str) -> Game:
        """A game of the player's as the library's game (to review: ``Game.exact_review``)."""
        return self.game_of(self.owned(player, game_id))

    def standing(self, player: str | None, list_name: str, boards: int, mode: Mode) -> Standing:
        """A mode and variant of the player's record on a list; daily statistics are those of the
        daily list of the list's language (``de-ext`` counts on ``de``)."""
        entry = self.lists.get(list_name)
        offered_boards(boards)
        if mode == "daily":
            entry = self.lists.daily_entry(entry.language)
        today = daily_number(self.today())
        games = self.store.finished(player, entry.name, boards, mode) if player else []
        shown = None
        if player:
            if mode == "daily":
                shown = self.store.daily_game(player, entry.name, today, boards)
            else:
                shown = self.store.last_finished(player, entry.name, boards, mode)
        return Standing(
            list=entry.name,
            boards=boards,
            mode=mode,
            max_tries=game_variant(boards).limit,
            record=record_of(games, boards, mode, today),
            number=today,
            next_daily_seconds=seconds_to_midnight(),
            shown=Played(shown, self.game_of(shown)) if shown is not None and shown.status in ("won", "lost") else None,
        )
