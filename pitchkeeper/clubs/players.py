"""A club's roster: adding, renaming and retiring players, with the name checks."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.names import name_clean, name_key, name_unlike
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.record import MAX_NAME_LENGTH, check_name


def roster(names: Sequence[str], *, club: Club) -> dict[str, Player]:
    """The club's players of these names, matched without regard to case, added when new.

    Compared in Python: SQLite's LOWER() folds ASCII letters only, and neither database
    normalises Unicode.
    """
    known = {name_key(player.name): player for player in club.players.all()}
    players = {}
    for name in names:
        player = known.get(name_key(name))
        if player is None:
            player = Player.objects.create(
                club=club, name=check_name(name, RuleError("player_name", {}))
            )
            known[name_key(name)] = player
        players[name] = player
    return players


def player_name_check(name: str, *, club: Club, player: Player | None = None) -> str:
    """``name`` normalised, as ``check_name`` does, or a ValidationError saying what is
    wrong with it: empty, too long, invisible characters, the name of another player in
    any case or any Unicode form of the same letters ("Ａｎｎ" is "Ann"), or a name that
    looks like another player's (Cyrillic "Аnn" beside Latin "Ann").

    Compared in Python: SQLite's LOWER() folds ASCII letters only.
    """
    name = name_clean(name, limit=MAX_NAME_LENGTH, empty=_("Give the player a name."))
    others = club.players.exclude(pk=player.pk) if player else club.players.all()
    name_unlike(
        name,
        others.values_list("name", flat=True),
        duplicate=_("There is already a player called %(name)s."),
        where=_("already on the roster"),
    )
    return name


def _save_name(player: Player, name: str) -> Player:
    player.name = player_name_check(name, club=player.club, player=player if player.pk else None)
    try:
        # A savepoint, so that losing a race to the unique constraint leaves any
        # surrounding transaction usable.
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise ValidationError(
            _("There is already a player called %(name)s."),
            code="duplicate",
            params={"name": player.name},
        ) from None
    return player


def player_add(*, club: Club, name: str) -> Player:
    """A new player on the club's roster."""
    return _save_name(Player(club=club), name)


def player_rename(*, player: Player, name: str) -> Player:
    """A new name for ``player``; their games show it too."""
    return _save_name(player, name)


def player_retire(*, player: Player, retired: bool) -> Player:
    """Take ``player`` off (or put them back on) the list to pick a table from; their
    games are kept."""
    player.retired = retired
    player.save(update_fields=["retired"])
    return player
