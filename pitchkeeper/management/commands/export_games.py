"""``manage.py export_games``: games as a JSON list in the game-record format."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitchkeeper.games.models import Game
from pitchkeeper.games.services import game_export


class Command(BaseCommand):
    help = "Print games as a JSON list in the pitchkeeper.game/1 record format."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, metavar="ID", help="Only this club's games.")
        parser.add_argument(
            "--game", type=int, action="append", dest="ids", metavar="ID", help="A game's id."
        )

    def handle(self, *args: Any, ids: list[int] | None, club: int | None, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if club is not None:
            games = games.filter(club_id=club)
        if ids:
            games = games.filter(pk__in=ids)
            missing = set(ids) - {game.pk for game in games}
            if missing:
                raise CommandError(f"no game {', '.join(map(str, sorted(missing)))}")
        exported = [game_export(game=game) for game in games]
        self.stdout.write(json.dumps(exported, indent=2, ensure_ascii=False))
