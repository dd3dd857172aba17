"""Every model of the app, gathered for Django's app registry.

The models live with their domain (clubs, games, seasons, nights; core's health row); Django
looks for an app's models in ``pitchkeeper.models``, so they are imported here. The app
label stays ``pitchkeeper``: the tables and migrations are the same as before the
domains had folders of their own.
"""

from __future__ import annotations

from pitchkeeper.clubs.models import Club, Invitation, Membership, Player, Role, new_token
from pitchkeeper.core.models import Heartbeat, WorkerBeat
from pitchkeeper.games.models import Game, GameQuerySet, Hand, HandChange, Seat
from pitchkeeper.nights.models import Attendance, Night, NightRound, NightTable
from pitchkeeper.seasons.models import (
    GameCount,
    GameLine,
    LedgerPlan,
    MonthChipValue,
    MonthCount,
    MonthLine,
    MonthPair,
    MonthRun,
    Payment,
    RatingPoint,
    RatingsDue,
    Season,
    StatsZone,
    TotalCount,
)

__all__ = [
    "Attendance",
    "Club",
    "Game",
    "GameCount",
    "GameLine",
    "LedgerPlan",
    "GameQuerySet",
    "Hand",
    "HandChange",
    "Heartbeat",
    "Invitation",
    "Membership",
    "MonthChipValue",
    "MonthCount",
    "MonthLine",
    "MonthPair",
    "MonthRun",
    "Night",
    "NightRound",
    "NightTable",
    "Payment",
    "Player",
    "RatingPoint",
    "RatingsDue",
    "Role",
    "Season",
    "Seat",
    "StatsZone",
    "TotalCount",
    "WorkerBeat",
    "new_token",
]
