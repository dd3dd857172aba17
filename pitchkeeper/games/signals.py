"""What a game tells the rest of the app, so that nothing outside games reaches into
how games and hands are saved. Each signal is sent by the games code that makes the
change, inside its transaction (a receiver that raises rolls the change back with it),
and by nothing else: no Django model signal stands in for them.

``game_saved``: a game's hands changed (games.hands.game_save). Keyword arguments
``game`` (the Game), ``record`` (its GameRecord), ``result`` (the engine's GameResult),
``ids`` (each seat's name in the record to its player id) and ``was_over`` (whether the
game was over before this change).

``game_counting_changed``: a game started or stopped counting, its hands unchanged:
deleted, restored, marked as practice or back from practice (games.services). Keyword
argument ``game``, as saved.

``game_erasing``: a game is about to be deleted for good, with its seats and hands
(``Game.delete`` and ``GameQuerySet.delete``). Keyword argument ``game``.

``games_updated``: what counts of some games was set by ``GameQuerySet.update_counted``
(a repair; ``update`` refuses those fields). Keyword argument ``pks``, the games' ids.

``game_over_links``: asked by the game screen when a game is over, so that what the game
was played for (a club night's round) can offer the way back to it, where games know
nothing of it. Keyword argument ``game``; each receiver answers a list of ``(words,
url)``.
"""

from __future__ import annotations

from django.dispatch import Signal

game_saved = Signal()
game_counting_changed = Signal()
game_erasing = Signal()
games_updated = Signal()
game_over_links = Signal()
