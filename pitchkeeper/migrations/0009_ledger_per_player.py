"""Contway team games' ledger rows: each player's chips are the side's amount.

Before the ``settle_each`` setting, a team's settlement was shared among its members on
the ledger even where the rules pay each player (Contway). The shares of a side add up
to the side's amount, so the rows are put right in place, without replaying a game:
each member's chips become the sum of the side's, and the monthly rollups take the
difference. ``manage.py stats_rebuild`` writes the same rows from the hands.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import migrations
from django.db.models import F

# The preset whose rules said "each player" before the setting existed; a stored ruleset
# without ``settle_each`` takes its preset's value.
PER_PLAYER_PRESETS = {"contway-six"}


def _settles_per_player(rules: Any) -> bool:
    if not isinstance(rules, dict):
        return False
    default = "player" if rules.get("preset") in PER_PLAYER_PRESETS else "side"
    return rules.get("settle_each", default) == "player"


def ledger_per_player(apps: Any, schema_editor: Any) -> None:
    """Every team game that settles per player gets each member's chips set to its
    side's amount; the counted rows' differences go into the monthly rollups."""
    Game = apps.get_model("pitchkeeper", "Game")
    GameLine = apps.get_model("pitchkeeper", "GameLine")
    MonthLine = apps.get_model("pitchkeeper", "MonthLine")
    games = [
        pk
        for pk, rules in Game.objects.filter(lines__team=True).distinct().values_list("pk", "rules")
        if _settles_per_player(rules)
    ]
    for start in range(0, len(games), 500):
        lines = list(GameLine.objects.filter(game_id__in=games[start : start + 500]))
        sides: dict[tuple[int, str], int] = defaultdict(int)
        for line in lines:
            sides[line.game_id, line.side] += line.chips
        months: dict[tuple[int, Any], int] = defaultdict(int)
        changed = []
        for line in lines:
            chips = sides[line.game_id, line.side]
            if chips != line.chips:
                if line.counted:
                    months[line.player_id, line.month] += chips - line.chips
                line.chips = chips
                changed.append(line)
        GameLine.objects.bulk_update(changed, ["chips"], batch_size=500)
        for (player, month), difference in months.items():
            MonthLine.objects.filter(player_id=player, month=month).update(
                chips=F("chips") + difference
            )


class Migration(migrations.Migration):
    dependencies = [("pitchkeeper", "0008_input_bounds")]

    operations = [migrations.RunPython(ledger_per_player, migrations.RunPython.noop)]
