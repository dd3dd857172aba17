"""What the log keeps of a request that was turned away, and of a database that could
not be reached."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError


class OneLineForbidden(logging.Filter):
    """A 403 is written on one line. Django logs a PermissionDenied with its traceback,
    which tells an operator nothing the line does not (who was refused is the access
    check's business), and a scan of a few thousand URLs would bury every real error."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


# The errors of a database that cannot be reached: refused, restarting, the connection
# cut (a lock that timed out is an OperationalError too: it is worth a retry as well).
DATABASE_DOWN = (OperationalError, InterfaceError)


def database_error_line(error: BaseException) -> str:
    """The database's error on one line: its message says what happened (refused, not
    started, terminated), and a traceback through the ORM would say nothing more, once
    per request or per retry for as long as the database is away."""
    return " ".join(str(error).split()) or type(error).__name__
