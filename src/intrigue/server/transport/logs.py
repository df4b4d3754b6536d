"""Keep secrets out of the server's log, whatever the log level.

Seat tokens never travel in URLs (the first WebSocket message carries them), so access and
handshake lines hold none. But at ``--log-level debug`` the WebSocket library logs the frames
themselves, a hello (with its token) among them; and a third-party client may still put a
token in a URL. `SecretFilter`, on every handler of the serving process, masks the value of
anything that looks like a token, credential or invite before a line is written.
"""

from __future__ import annotations

import logging
import re

MASK = "***"
# A key naming a secret, then (in JSON, a query string or a repr) its value: masked.
SECRET = re.compile(
    r"""(?P<key>(?:token|credential|invite)s?)(?P<sep>["']?\s*[:=]\s*["']?)"""
    r"""(?P<value>[A-Za-z0-9_\-.~%]{8,})""",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` with the value of every token-like field masked."""
    return SECRET.sub(lambda m: f"{m['key']}{m['sep']}{MASK}", text)


class SecretFilter(logging.Filter):
    """Rewrites each record's message with its secrets masked (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is logging's to report, not ours
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def mask_secrets_in_logs() -> None:
    """Put a `SecretFilter` on every handler of the process's loggers (idempotent)."""
    loggers = [logging.getLogger(), *_known_loggers()]
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(f, SecretFilter) for f in handler.filters):
                handler.addFilter(SecretFilter())


def _known_loggers() -> list[logging.Logger]:
    manager = logging.Logger.manager
    return [lg for lg in manager.loggerDict.values() if isinstance(lg, logging.Logger)]
