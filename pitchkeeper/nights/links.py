"""What nights answer the games' screens (games.signals): a game played at a night's
table leads back to its night once it is over."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext as _

from pitchkeeper.games.models import Game
from pitchkeeper.games.signals import game_over_links
from pitchkeeper.nights.models import NightTable


@receiver(game_over_links, dispatch_uid="nights_game_over_links")
def back_to_the_night(*, game: Game, **_signal: Any) -> list[tuple[str, str]]:
    played_at = NightTable.objects.filter(game=game).values_list("night_round__night", flat=True)
    return [(_("Back to the night"), reverse("night", args=[night])) for night in played_at]
