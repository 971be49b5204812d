"""The web face of raten: the solver page, the game and the openers, over a JSON API."""

from raten.web.app import create_app

__all__ = ["create_app"]
