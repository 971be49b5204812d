"""The one exception type for bad user input, so every face can turn it into a clean message.

A ``RatenError`` says what went wrong twice: ``str(error)`` is the English message for
people (what the command line prints), and ``key`` with ``params`` name the kind of
error and its values, so a face can word it in another language without reading the
English text. Errors no face translates keep the generic key ``invalid``.
"""

from __future__ import annotations

#: Echoed user input is cut to this many characters, so a huge input never makes a huge message.
ECHO_LIMIT = 40


def shorten(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` as a string of at most ``limit`` characters (cut ones end with an ellipsis)."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class RatenError(ValueError):
    """Bad input or an impossible request: the message is meant for the user, as it is;
    ``key`` and ``params`` let a face word it in any language."""

    def __init__(self, message: str, key: str = "invalid", **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params

    def __reduce__(self):
        # Keep key and params across processes (Dask workers, multiprocessing).
        return _rebuild, (type(self), str(self), self.key, self.params)


def _rebuild(cls: type[RatenError], message: str, key: str, params: dict) -> RatenError:
    error = cls.__new__(cls)
    RatenError.__init__(error, message, key, **params)
    return error


class Notice(str):
    """A warning: the English sentence for people (it is a ``str``), plus a ``key`` and
    ``params`` so that a face can word it in another language, as with ``RatenError``."""

    key: str
    params: dict[str, object]

    def __new__(cls, message: str, key: str = "warning", **params: object) -> Notice:
        notice = super().__new__(cls, message)
        notice.key = key
        notice.params = params
        return notice

    def __reduce__(self):
        # Keep key and params across processes (the web app's worker processes).
        return _notice, (str(self), self.key, self.params)


def _notice(message: str, key: str, params: dict) -> Notice:
    return Notice(message, key, **params)
