"""The one exception type for bad user input, so every face can turn it into a clean message."""


class RatenError(ValueError):
    """Bad input or an impossible request: the message is meant for the user, as it is."""
