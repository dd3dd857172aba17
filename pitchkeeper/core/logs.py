"""What the log keeps of a request that was turned away."""

from __future__ import annotations

import logging


class OneLineForbidden(logging.Filter):
    """A 403 is written on one line. Django logs a PermissionDenied with its traceback,
    which tells an operator nothing the line does not (who was refused is the access
    check's business), and a scan of a few thousand URLs would bury every real error."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
