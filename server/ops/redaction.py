"""No token in the logs: uvicorn writes every request's path with its query string (the
access log, and the websocket lines of `uvicorn.error`), and a websocket may carry its
bearer token there (`/v1/games/{game}/live?token=...`). So query strings are cut from what
those loggers write. (uvicorn logs no headers, so an Authorization header never shows.)"""

import logging
import re

# A path and its query string, as uvicorn writes them: up to a space or a quote.
_QUERY = re.compile(r'(/[^\s"?]*)\?[^\s"]*')
_REDACTED = r"\1?[redacted]"
_LOGGERS = ("uvicorn.access", "uvicorn.error")


def redacted(text: str) -> str:
    return _QUERY.sub(_REDACTED, text)


class RedactQueryStrings(logging.Filter):
    """Cuts query strings from a record's message and arguments. The arguments are edited
    in place, not formatted into the message: uvicorn's access formatter takes them apart."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redacted(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                redacted(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


def redact_query_strings() -> None:
    """Install the filter on uvicorn's loggers (once, however often it is called). Logging
    configuration that uvicorn applies later keeps it: it replaces handlers, not filters."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactQueryStrings) for existing in logger.filters):
            logger.addFilter(RedactQueryStrings())
