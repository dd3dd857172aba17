"""A game as a whole: starting one, a rematch, deleting and restoring it, the live link,
and its record in the game-record format (import and export)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Club, Player, new_token
from pitchkeeper.clubs.players import roster
from pitchkeeper.games.hands import game_save
from pitchkeeper.games.models import Game, Seat
from pitchkeeper.games.replay import GameState, game_state, standing_of
from pitchkeeper.games.signals import game_counting_changed
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import (
    GameRecord,
    RuleError,
    Ruleset,
    Seating,
    Team,
    game_to_data,
    parse_game,
    resolve_rules,
)


def _counting_save(game: Game, field: str) -> Game:
    """Save ``field`` of a game, which starts or stops it counting, and say so."""
    game.save(update_fields=[field, "updated"])
    game_counting_changed.send(Game, game=game)
    return game


@transaction.atomic
def game_delete(*, game: Game) -> Game:
    """Hide the game from every list and page; it can be restored from the deleted
    games screen. Nothing of it is dropped."""
    game.deleted_at = timezone.now()
    return _counting_save(game, "deleted_at")


@transaction.atomic
def game_restore(*, game: Game) -> Game:
    """Bring a deleted game back as it was."""
    game.deleted_at = None
    return _counting_save(game, "deleted_at")


@transaction.atomic
def game_create(
    *,
    players: Sequence[Player],
    first_dealer: Player,
    rules: Ruleset,
    teams: Mapping[str, Sequence[Player]] | None = None,
    chip_value: Decimal | None = None,
) -> GameState:
    """A new game of the players' club with ``players`` in clockwise seat order."""
    club_ids = {player.club_id for player in players}
    if len(club_ids) != 1:
        raise RuleError(_("all players of a game must be of one club"), field="players")
    seating = Seating(
        tuple(p.name for p in players),
        tuple(
            Team(name, tuple(p.name for p in members)) for name, members in (teams or {}).items()
        ),
    )
    seating.check(rules)
    if first_dealer not in players:
        raise RuleError(
            _("%(name)s is not at this table") % {"name": first_dealer.name},
            field="first_dealer",
        )
    # Nothing played yet: every side at nothing, the first dealer to deal.
    empty = GameRecord(rules, seating, first_dealer.name, ()).replay()
    game = Game.objects.create(
        club_id=club_ids.pop(),
        rules=rules.to_dict(),
        first_dealer=first_dealer,
        chip_value=chip_value,
        standing=standing_of(empty, seating, {p.name: p.pk for p in players}),
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            player=player,
            position=position,
            team=next((t.name for t in seating.teams if player.name in t.members), ""),
        )
        for position, player in enumerate(players)
    )
    return game_state(game=game)


def _game_import(data: Any, club: Club) -> Game:
    record = parse_game(data)
    players = roster(record.seating.players, club=club)
    state = game_create(
        players=[players[name] for name in record.seating.players],
        first_dealer=players[record.first_dealer],
        rules=record.rules,
        teams={t.name: [players[m] for m in t.members] for t in record.seating.teams},
    )
    return game_save(state=state, records=record.hands, rows=[None] * len(record.hands)).game


@transaction.atomic
def games_import(*, club: Club, games: Sequence[Any]) -> list[Game]:
    """Save game records into ``club``, all or nothing: the first bad one raises a
    RuleError that says which game and hand, and nothing is saved."""
    saved = []
    for number, data in enumerate(games, start=1):
        try:
            saved.append(_game_import(data, club))
        except RuleError as error:
            raise RuleError(
                _("game %(number)d: %(error)s")
                % {"number": number, "error": refusal_text(error, numbered=True)}
            ) from None
    return saved


def game_export(*, game: Game) -> dict[str, Any]:
    return game_record_data(game_state(game=game))


def game_record_data(state: GameState) -> dict[str, Any]:
    """The game as a game record, with its result, and with the club night, round and
    table it was played at when it was (the reverse side of the night table's game)."""
    data = game_to_data(state.record, state.result, state.game.pk)
    table = getattr(state.game, "night_table", None)
    if table is not None:
        data["night"] = {
            "started_at": table.night_round.night.started_at.isoformat(),
            "round": table.night_round.number,
            "table": table.number,
        }
    return data


def game_rematch(*, game: Game) -> GameState:
    """A new game for the same table and rules, the first deal one seat on."""
    seats = list(game.seats.select_related("player"))
    players = [seat.player for seat in seats]
    teams: dict[str, list[Player]] = {}
    for seat in seats:
        if seat.team:
            teams.setdefault(seat.team, []).append(seat.player)
    dealer_seat = next(i for i, p in enumerate(players) if p.pk == game.first_dealer_id)
    return game_create(
        players=players,
        first_dealer=players[(dealer_seat + 1) % len(players)],
        rules=resolve_rules(game.rules),
        teams=teams,
        chip_value=game.chip_value,
    )


def share_link_renew(*, game: Game) -> Game:
    """A new unguessable live scoreboard address; the old one stops working."""
    game.share_token = new_token()
    game.save(update_fields=["share_token", "updated"])
    return game


@transaction.atomic
def game_counts_set(*, game: Game, counts: bool) -> Game:
    """Mark a game as counting, or as a practice game left out of seasons, ratings and
    the ledger."""
    game.counts = counts
    return _counting_save(game, "counts")
