"""What a game tells the rest of the app, so that nothing outside games reaches into
how hands are saved.

``game_saved`` is sent inside the saving transaction each time a game's hands change,
with keyword arguments ``game`` (the Game), ``record`` (its GameRecord), ``result``
(the engine's GameResult) and ``ids`` (each seat's name in the record to its player
id). A receiver that raises rolls the change back with it.
"""

from __future__ import annotations

from django.dispatch import Signal

game_saved = Signal()
