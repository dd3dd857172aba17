"""Re-rating outside the request: when a change leaves a club's ratings due (an older
game edited, deleted or marked as practice), a task of django.tasks re-rates the later
games in short steps, each its own transaction, so that a hand saved at another table
meanwhile waits for one step at most, never for the whole history.

The club's mark (``RatingsDue``) says where the re-rating stands, so the work is
idempotent and resumable: a duplicate task finds nothing or the same mark and carries
on from it; a step cut short (the worker killed) rolls back and is done again. Against
a worker that dies, each task first queues a check some time on (where the backend can
defer a task), which carries on from the mark if it is still there."""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from pitchkeeper.seasons.ratings import Key, ratings_catch_up, ratings_changed, ratings_pending

logger = logging.getLogger(__name__)


@task()
def ratings_rerate(club_id: int) -> int:
    """Bring the club's due ratings up to date, RERATE_STEP_GAMES games a transaction.
    Returns the number of steps taken."""
    if ratings_rerate.get_backend().supports_defer and ratings_pending(club_id=club_id):
        later = timezone.now() + timedelta(seconds=settings.RERATE_RETRY_SECONDS)
        ratings_rerate.using(run_after=later).enqueue(club_id)
    steps = 1
    while not ratings_catch_up(club_id=club_id, games=settings.RERATE_STEP_GAMES):
        steps += 1
        # A step holds the write lock only for its writes, and the next one reads and
        # rates before it takes the lock again; the pause still lets a hand waiting in
        # SQLite's busy wait, which polls for the lock, come first on a busy machine.
        time.sleep(settings.RERATE_PAUSE_MS / 1000)
    logger.info("Club %s re-rated in %s steps", club_id, steps)
    return steps


def rerate_from(*, club_id: int, since: Key) -> None:
    """The games from ``since`` on are to be re-rated: a few at once, in the caller's
    transaction (RERATE_INLINE_GAMES), the rest queued once it commits."""
    if ratings_changed(club_id=club_id, since=since, games=settings.RERATE_INLINE_GAMES):
        # After the commit, so that the task sees the change; robust, so that a queue
        # that cannot be reached loses nothing but time: the mark stays, and the next
        # change (or `manage.py rerate`) queues the club again.
        transaction.on_commit(partial(ratings_rerate.enqueue, club_id), robust=True)
