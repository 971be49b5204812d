"""Request and response bodies of the JSON API (pydantic), so the OpenAPI schema is exact."""

import builtins
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from raten.engine.boards import BOARD_STRATEGIES
from raten.engine.rank import STRATEGIES
from raten.errors import RatenError
from raten.play.game import KeyState, Mode

# Built from the registry at import so the schema names each strategy; a type checker only
# takes literal values written out, hence the ignore.
Strategy = Literal[tuple(STRATEGIES)]  # type: ignore[valid-type]  # values from the registry
BoardStrategy = Literal[tuple(BOARD_STRATEGIES)]  # type: ignore[valid-type]  # values from the registry
#: Board counts of the game page: Wordle, Dordle, Quordle.
GameBoards = Literal[1, 2, 4]
Palette = Literal["standard", "high"]
Prior = Literal["uniform", "frequency", "mixture"]


def prior_of(name: str) -> Prior:
    """A prior's name as the schema's ``Prior`` (a list's prior is one of them)."""
    for prior in get_args(Prior):
        if prior == name:
            return prior
    raise RatenError(f"unknown prior {name!r}", "unknown_prior")


#: Longest list name accepted; a longer one is answered as an unknown list (see the app's handler).
LIST_NAME_MAX = 40
ListName = Annotated[str, Field(max_length=LIST_NAME_MAX)]


class ErrorOut(BaseModel):
    """Every 4xx answer: a message for people and a code for programs."""

    error: str = Field(description="What went wrong, in the language of the request (Accept-Language).")
    code: str = Field(description="Machine-readable kind: bad_request, unknown_word, hard_green, not_found, ...")


class Row(BaseModel):
    """One guess and the colours it got."""

    model_config = ConfigDict(extra="forbid", strict=True)

    guess: str = Field(max_length=40, description="The word guessed (umlauts are transliterated).")
    pattern: str = Field(
        max_length=40,
        description="Its colours in any notation: .?! (grey, yellow, green), b/y/g, 0/1/2 or emoji.",
        examples=["..?!."],
    )


class HintsIn(BaseModel):
    """A solver state: the list, the rows so far and what to rank."""

    model_config = ConfigDict(extra="forbid", strict=True)

    rows: builtins.list[Row] = Field(
        default_factory=builtins.list, max_length=20, description="The guesses so far, in order."
    )
    # The JSON field `list` shadows the builtin in the class body: annotations here say builtins.list.
    list: ListName = Field("en", description="Word list name (see /api/lists).")
    hard: bool = Field(False, description="Hard mode: only rank guesses that keep greens and use revealed letters.")
    top: int = Field(10, ge=1, le=50, description="How many hints.")
    strategy: Strategy = "entropy"  # type: ignore[valid-type]
    limit: int = Field(200, ge=0, le=20000, description="At most this many candidate words in the answer.")
    prior: Prior | None = Field(
        None,
        description="How likely each word is to be the answer: uniform (the list's solutions, equally likely), "
        "frequency (every allowed word, the commoner the likelier) or mixture (the list's solutions most, every other "
        "allowed word a little, by frequency); default the list's own (see /api/lists).",
    )
    answers_only: bool = Field(False, description="Rank only words that could be the answer.")
    guarantee: int | None = Field(
        6,
        ge=1,
        le=30,
        description="Mark which hints keep every covered word within this many guesses, and name the guess "
        "to play (the first safe one); null: off.",
    )
    guarantee_over: Literal["all", "likely"] | None = Field(
        None, description="Which words the guarantee covers; default the list's own (en, en-nyt: likely; others: all)."
    )


class HintOut(BaseModel):
    word: str
    bits: float = Field(description="Entropy of the feedback distribution over the candidates.")
    candidate: bool = Field(description="Whether the word could be the answer.")
    patterns: int = Field(description="How many distinct colour patterns it can show.")
    largest: int = Field(description="Size of the largest group of candidates one pattern leaves.")
    expected_remaining: float = Field(description="Candidates left on average after it.")


class Group(BaseModel):
    pattern: str = Field(description="Colours in .?! notation.")
    count: int


class SplitOut(BaseModel):
    """How the top hint splits the candidates: its largest groups, the rest summed up."""

    word: str
    groups: list[Group]
    other_groups: int
    other_words: int


class ConstraintsOut(BaseModel):
    """What the rows say, positions 1-based."""

    greens: dict[str, str]
    not_at: dict[str, list[int]]
    min_counts: dict[str, int]
    exact_counts: dict[str, int]
    excluded: list[str]


class NoticeOut(BaseModel):
    """A warning with a key and parameters, so a page can word it in its own language."""

    key: str = Field(description="Kind of warning: fallback, not_in_list, breaks_hard, too_many, or warning.")
    params: dict[str, str | int]
    text: str = Field(description="The warning in English.")


class SafetyOut(BaseModel):
    word: str
    safe: bool | None = Field(
        description="True: safe; false: some covered word could need more guesses; null: not decided within the work."
    )
    at_risk: int = Field(description="How many covered words could need more than the limit (when not safe).")


class GuaranteeOut(BaseModel):
    """The guarantee's view of the position (``raten.play.safe_hints``)."""

    limit: int
    over: str = Field(description="The coverage asked for.")
    guess: str = Field(description="The guess to play: the first safe one in the strategy's order.")
    safe: bool | None = Field(description="Whether it is safe (false: none is, it has the least worst case).")
    safe_over: str = Field(description="The coverage it is safe over (narrower when none is safe over `over`).")
    covered: int = Field(description="How many covered words fit the rows.")
    hints: builtins.list[SafetyOut | None] = Field(description="Each hint's verdict, null where not judged.")


class HintsOut(BaseModel):
    list: str
    prior: Prior = Field(description="The prior the hints were ranked under.")
    count: int = Field(description="How many words could still be the answer.")
    fallback: bool = Field(description="True when no solution fits and the candidates are allowed words.")
    solved: bool
    candidates: builtins.list[str] = Field(description="The candidates, sorted, at most `limit` of them.")
    hints: builtins.list[HintOut]
    split: SplitOut | None
    constraints: ConstraintsOut
    summary: builtins.list[str] = Field(description="The constraints in English sentences.")
    warnings: builtins.list[str]
    notices: builtins.list[NoticeOut] = Field(description="The warnings with their keys and parameters.")
    guarantee: GuaranteeOut | None = Field(None, description="Which hints are safe; null when the guarantee is off.")


class ListOut(BaseModel):
    name: str
    language: str
    description: str
    solutions: int
    allowed: int
    prior: Prior = Field(description="The list's default prior.")
    length: int = Field(description="Letters per word, 4 to 8.")
    letters: str = Field(description="The letters its words are written in: a-z and any it keeps (äöü, ñ).")


class ListsOut(BaseModel):
    lists: list[ListOut]


class OpenersOut(BaseModel):
    list: str
    prior: Prior
    openers: builtins.list[HintOut]


class LetterOut(BaseModel):
    count: int = Field(description="How often the letter is written, in all positions.")
    share: float = Field(description="Its share of all letters written (0..1).")
    words: int = Field(description="Words containing it at least once.")
    by_position: builtins.list[int] = Field(description="Words with it at each position of the list's words.")


class LettersOut(BaseModel):
    list: str
    of: Literal["solutions", "allowed"]
    words: int
    repeated: int = Field(description="Words in which some letter occurs more than once.")
    repeated_share: float
    letters: dict[str, LetterOut] = Field(description="a to z, then any letters the list keeps, in that order.")


class GameIn(BaseModel):
    """Start (or, for the daily word, resume) a game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    list: ListName = "en"
    mode: Mode = "daily"
    hard: bool = Field(False, description="Hard mode; a daily game already begun keeps its setting (one board only).")
    boards: GameBoards = Field(1, description="1 Wordle (6 guesses), 2 Dordle (7), 4 Quordle (9).")


class GuessIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    guess: str = Field(max_length=40)
    row: int | None = Field(
        None,
        ge=0,
        le=20,
        description="The rows the game has before this guess, as the client knows it: a guess sent again "
        "(a retry after a lost answer) is then answered with the game instead of played twice, and a guess "
        "on a game that changed meanwhile is refused (409 conflict).",
    )


class RowOut(BaseModel):
    guess: str
    pattern: str = Field(description="Colours in .?! notation.")


class BoardsRowOut(BaseModel):
    """A guess of a game on many boards."""

    guess: str
    pattern: str = Field(description="The colours on each board in .?! notation, joined by commas (- once solved).")
    patterns: builtins.list[str | None] = Field(description="The colours on each board, null on a board solved before.")


class StatsOut(BaseModel):
    """One mode and variant of a player's record (see ``raten.play.records``)."""

    list: str = Field(description="The list the games were played on (the daily list of its language, for daily).")
    boards: int
    mode: Mode
    max_tries: int
    played: int = Field(description="Finished games, and practice games given up for a new one.")
    wins: int
    win_percent: int
    current_streak: int = Field(description="Daily: consecutive days won; practice: consecutive wins.")
    max_streak: int
    distribution: builtins.list[int] = Field(description="Wins by number of tries, 1 to max_tries.")
    marked: int | None = Field(description="The bar of today's daily game (or the last practice game), when won.")
    number: int = Field(description="Today's daily game number.")
    next_daily_seconds: int = Field(description="Seconds until the next daily game.")
    share: str | None = Field(description="The share text of today's daily game (or the last practice game), if over.")


class GameOut(BaseModel):
    """A game as the player may see it: the answer only once it is over."""

    id: str
    list: str
    language: str
    mode: Mode
    number: int | None
    hard: bool
    boards: int = Field(description="How many boards: 1 Wordle, 2 Dordle, 4 Quordle.")
    max_tries: int
    rows: builtins.list[RowOut | BoardsRowOut]
    status: Literal["playing", "won", "lost", "abandoned"]
    keyboard: dict[str, KeyState] = Field(description="One board: each letter's strongest colour.")
    keyboards: builtins.list[dict[str, KeyState]] = Field(description="Per board: each letter's strongest colour.")
    solved_at: builtins.list[int | None] = Field(description="Per board: the guess that solved it.")
    answer: str | None = Field(description="Only when the game is over (many boards: joined by commas).")
    answers: builtins.list[str] | None = Field(description="Per board, only when the game is over.")
    answers_written: builtins.list[str] | None = Field(
        description="Per board, each answer as its language writes it (böse for boese), only when the game is over."
    )
    share: str | None = Field(description="The emoji grid to share, only when the game is over.")
    stats: StatsOut | None = Field(description="The player's statistics, only when the game is over.")


class GameReviewIn(BaseModel):
    """A finished game to judge: the guesses, and the answer, their colours or a share text."""

    model_config = ConfigDict(extra="forbid")

    list: ListName = Field("en", description="Word list name (see /api/lists).")
    guesses: builtins.list[Annotated[str, Field(max_length=40)]] = Field(
        min_length=1, max_length=12, description="The words guessed, in order."
    )
    answer: str | None = Field(None, max_length=40, description="The answer, when known.")
    patterns: builtins.list[Annotated[str, Field(max_length=40)]] | None = Field(
        None, max_length=12, description="The colours of each guess, in any notation."
    )
    share: str | None = Field(None, max_length=2000, description="A pasted share text (NYT, 6mal5, raten).")
    hard: bool = Field(False, description="Hard mode: values over the guesses hard mode allows.")
    guarantee: int | None = Field(
        6,
        ge=1,
        le=30,
        description="Judge whether each guess kept every covered word within this many guesses, and name "
        "the best safe guess where it did not; null: off.",
    )
    guarantee_over: Literal["all", "likely"] | None = Field(
        None, description="Which words the guarantee covers; default the list's own (en, en-nyt: likely; others: all)."
    )
    prior: Prior | None = Field(
        None,
        description="How likely each word is to be the answer, for every value, share and bit: uniform "
        "(the list's solutions, equally likely), frequency (every allowed word, the commoner the likelier) or "
        "mixture (the list's solutions most, every other allowed word a little); default the list's own (see "
        "/api/lists).",
    )


class MoveSafetyOut(BaseModel):
    """Whether a reviewed guess was safe (``raten.play.review_safety``)."""

    status: Literal["safe", "unsafe", "undecided", "unchecked", "uncovered"] = Field(
        description="unsafe: at_risk covered words could need a guess past the limit; undecided: not decided "
        "within the work; unchecked: beyond what a review checks (the first two moves without the opening "
        "book); uncovered: no covered word fits the rows."
    )
    at_risk: int = Field(description="Covered words the guess could send past the limit.")
    best: str | None = Field(description="The guarantee's guess here: the first safe one in the strategy's order.")
    best_safe: bool | None = Field(
        description="True: best is safe; false: no guess is (best has the least worst case)."
    )
    over: str = Field(description="The coverage of the verdicts (narrower than asked where no guess is safe).")


class MoveReviewOut(BaseModel):
    """One guess judged (see docs/review.md)."""

    number: int
    guess: str
    pattern: str = Field(description="Colours in .?! notation.")
    before: int = Field(description="Candidates before the guess.")
    after: int = Field(description="Candidates after it.")
    bits: float
    expected_bits: float
    could_be_answer: bool
    q: float | None = Field(description="Expected guesses still needed after choosing this guess, itself included.")
    q_exact: bool = Field(description="False: q is a lower bound (the search budget ran out).")
    best: str | None
    best_q: float | None
    best_exact: bool
    regret: float | None = Field(description="q - best_q: expected guesses lost.")
    regret_kind: str = Field(description="exact, at least, at most or unknown.")
    rank: int | None
    rank_of: int
    rank_by: str = Field(description="exact, or entropy (the proxy when the exact rank costs too much).")
    skill: int | None = Field(description="0-99, 99 exactly when the regret is 0.")
    luck: int | None = Field(description="0-99, 50 for a typical outcome.")
    limit: bool
    notes: builtins.list[str]
    best_after: int | None = Field(description="Candidates the best guess would have left against the answer.")
    safety: MoveSafetyOut | None = Field(
        None, description="The guarantee's verdict of the guess; null when the guarantee is off or past its limit."
    )


class GameReviewOut(BaseModel):
    """The whole game judged, guess by guess."""

    words: str
    hard: bool
    answer: str | None
    solved: bool
    guesses: int
    moves: builtins.list[MoveReviewOut]
    total_regret: float | None = Field(
        description="The guesses' regrets summed: exact, or a bound when a guess's regret is one (total_kind)."
    )
    skill: int | None = Field(description="0-99 from total_regret: exact, or a bound the other way (skill_kind).")
    luck: int | None
    expected: float | None = Field(description="Expected guesses of optimal play from the start.")
    expected_exact: bool
    solver: builtins.list[RowOut]
    solver_source: str
    prior: str = Field(description="The prior the values are weighted by.")
    notes: builtins.list[str]
    total_kind: str = Field(
        "exact", description="exact, at least (shown as ≥), at most (≤) or unknown (total_regret null)."
    )
    total_exact: bool = Field(True, description="False: total_regret is a bound (total_kind says which way).")
    skill_kind: str = Field(
        "exact", description="exact, at most (the total is at least: skill ≤), at least (≥) or unknown."
    )
    skill_exact: bool = Field(True, description="False: skill is a bound (skill_kind says which way).")
    guarantee: int | None = Field(None, description="The guarantee's limit; null: off.")
    guarantee_over: str | None = Field(None, description="What the guarantee covers.")


class BoardRow(BaseModel):
    """One guess and the colours it got on each board (null or "-" on a board solved before)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    guess: str = Field(max_length=40)
    patterns: builtins.list[Annotated[str, Field(max_length=40)] | None] = Field(max_length=16)


class BoardsHintsIn(BaseModel):
    """A solver state on many boards: every guess is played on every board not yet solved."""

    model_config = ConfigDict(extra="forbid", strict=True)

    list: ListName = Field("en", description="Word list name (see /api/lists).")
    boards: int = Field(4, ge=1, le=16, description="How many boards (Dordle 2, Quordle 4, Octordle 8).")
    rows: builtins.list[BoardRow] = Field(default_factory=builtins.list, max_length=25)
    top: int = Field(10, ge=1, le=50)
    strategy: BoardStrategy = "entropy"  # type: ignore[valid-type]
    limit: int = Field(100, ge=0, le=5000, description="At most this many candidates per board.")
    prior: Prior | None = Field(
        None,
        description="How likely each word is to be a board's answer: uniform, frequency or mixture, as in /api/hints; "
        "default the list's own (see /api/lists).",
    )


class BoardsHintOut(BaseModel):
    word: str
    bits: float = Field(description="Entropy of the joint feedback: the sum over the boards in play.")
    expected_remaining: float = Field(description="Candidates left on average, summed over the boards.")
    answer_on: builtins.list[int] = Field(description="Boards (1-based) where the word could be the answer.")
    chance: float = Field(description="Expected number of boards it solves.")


class BoardOut(BaseModel):
    board: int
    solved: bool
    solved_at: int | None
    count: int = Field(description="How many words could still be this board's answer.")
    candidates: builtins.list[str]


class BoardsHintsOut(BaseModel):
    list: str
    prior: Prior = Field(description="The prior every board was ranked under.")
    boards: int
    variant: str
    max_tries: int = Field(description="Guesses the variant allows.")
    turns: int
    done: bool
    board: builtins.list[BoardOut]
    hints: builtins.list[BoardsHintOut]


class HealthOut(BaseModel):
    status: Literal["ok"]
    database: str = Field(description="The store's engine: sqlite or postgresql.")
    shared: bool | None = Field(description="Whether Redis is in use now (None: not configured).")


#: Where a stored game's exact review is.
ReviewState = Literal["kept", "pending", "none", "unavailable"]


class HistoryGameOut(BaseModel):
    """One of the player's stored games, as the history shows it (the answers once it is over)."""

    id: str
    list: str
    language: str
    mode: Mode
    number: int | None
    hard: bool
    boards: int
    max_tries: int
    status: Literal["playing", "won", "lost", "abandoned"]
    created: str = Field(description="When it was begun (ISO 8601, UTC).")
    rows: builtins.list[RowOut | BoardsRowOut]
    answers: builtins.list[str] | None = Field(description="Per board, only when the game is over.")
    answers_written: builtins.list[str] | None = Field(description="As the language writes them, once over.")
    review: ReviewState = Field(
        description="The exact review: kept (GET /api/games/{id}/review answers at once), pending (being made "
        "on this server), none (ask for it), unavailable (a game still in play, given up, or on many boards)."
    )


class HistoryOut(BaseModel):
    games: builtins.list[HistoryGameOut] = Field(description="Newest first.")
    more: bool = Field(description="Whether older games are left out (the newest HISTORY_MAX are shown).")


class ExportCodeOut(BaseModel):
    code: str = Field(description="Type it on the other browser (POST /api/import), within expires_in seconds.")
    expires_in: int


class ImportIn(BaseModel):
    """Games to bring here: a code made on the other browser, or the file it exported."""

    model_config = ConfigDict(extra="forbid")

    code: str | None = Field(None, max_length=20, description="A code from POST /api/export/code.")
    file: dict | None = Field(None, description="The object GET /api/export gave, as it was.")


class ImportOut(BaseModel):
    added: int = Field(description="Games added to yours.")
    present: int = Field(description="Games you had already (the same game id).")
    conflicting: int = Field(description="Daily games of a day whose daily game you had played here already.")


class ReviewPendingOut(BaseModel):
    status: Literal["pending"]
