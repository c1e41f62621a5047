"""The one error of every game's adjudication contract."""


class RequestError(ValueError):
    """A malformed request: the message says what is wrong, in one line."""
