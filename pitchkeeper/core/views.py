"""What belongs to the site as a whole rather than to a domain: the health check."""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from pitchkeeper.core.models import Heartbeat

logger = logging.getLogger(__name__)


@login_not_required
@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """OK only if the database takes a committed write, so a load balancer sees a
    database that is down, read-only or out of disk. The answer is public: the reason is
    a fixed phrase, and the error itself goes to the log."""
    try:
        with transaction.atomic():
            Heartbeat.objects.update_or_create(pk=1, defaults={"beat": timezone.now()})
    except DatabaseError:
        logger.exception("Health check: the database refused a write")
        return JsonResponse({"status": "error", "reason": "database not writable"}, status=503)
    return JsonResponse({"status": "ok"})
