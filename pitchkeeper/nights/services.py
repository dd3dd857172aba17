"""Running a club night: starting it, proposing each round's tables, swapping two
players before a round starts, starting a round's games, players coming and going, and
closing the night with its payout recorded on the club's ledger.

Every change locks the night's row first, so two scorers tapping at once change it one
after the other: the second finds the round already started, and one set of games is
made, not two. The plans themselves are the rules' (``rules.nights``), fed with player
ids as strings, so that a player renamed during the night keeps their place.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Club, Player, new_token
from pitchkeeper.games.forms.seats import team_name
from pitchkeeper.games.services import game_create
from pitchkeeper.nights.models import Attendance, Night, NightRound, NightTable
from pitchkeeper.rules import PRESETS, RuleError, Ruleset, resolve_rules
from pitchkeeper.rules.nights import (
    Format,
    NightGame,
    Round,
    Table,
    night_payout,
    night_plan,
    progressive_round,
    seating_check,
    table_sizes,
)
from pitchkeeper.seasons.ledger import payment_record
from pitchkeeper.seasons.models import GameLine
from pitchkeeper.seasons.spans import span_for

# More rounds than an evening, a weekend or a week's holiday holds.
MOST_ROUNDS = 99
# A night that runs until the players stop is planned this many rounds ahead (a full
# rotation of partners for eight), so that its first rounds leave good ones for later.
OPEN_NIGHT_HORIZON = 7


def night_rules(night: Night) -> Ruleset:
    return resolve_rules(night.rules)


def night_format(night: Night) -> Format:
    return Format.of(night_rules(night))


def _locked(night: Night) -> Night:
    """The night's row, locked until the transaction ends."""
    return Night.objects.select_for_update().get(pk=night.pk)


def _changed(night: Night) -> None:
    night.revision += 1
    night.save(update_fields=["revision"])


def _open(night: Night) -> None:
    if night.closed_at is not None:
        raise ValidationError(_("This night is closed."), code="closed")


def present(night: Night, number: int) -> list[Player]:
    """Who plays round ``number``, by their place on the roster (the plan's order is
    drawn from the seed, not from this)."""
    here = night.attendance.filter(first_round__lte=number).filter(
        Q(last_round__isnull=True) | Q(last_round__gte=number)
    )
    return [a.player for a in here.select_related("player").order_by("player__pk")]


def _ids(players: Sequence[Player]) -> list[str]:
    return [str(p.pk) for p in players]


def as_round(night_round: NightRound) -> Round:
    """A stored round in the rules' terms (player ids as strings)."""
    tables = tuple(
        Table(tuple(tuple(str(pk) for pk in team) for team in table.teams))
        for table in night_round.tables.all()
    )
    return Round(tables, tuple(str(pk) for pk in night_round.sitting_out))


def _store(night: Night, number: int, planned: Round, links: dict[int, str]) -> NightRound:
    """Round ``number`` as planned, its tables with the links ``links`` gives by table
    number, or new ones."""
    night_round = NightRound.objects.create(
        night=night, number=number, sitting_out=[int(pk) for pk in planned.sitting_out]
    )
    NightTable.objects.bulk_create(
        NightTable(
            night_round=night_round,
            number=i,
            teams=[[int(pk) for pk in team] for team in table.teams],
            token=links.get(i) or new_token(),
        )
        for i, table in enumerate(planned.tables, 1)
    )
    return night_round


def _finishing_orders(night_round: NightRound) -> list[list[str]]:
    """Each table's players, its winner first and its last last (by the places their
    games' statistics give), for winners to move up."""
    orders = []
    for table in night_round.tables.all():
        places = dict(
            GameLine.objects.filter(game_id=table.game_id).values_list("player_id", "place")
        )
        orders.append([str(pk) for pk in sorted(table.seated, key=lambda pk: places.get(pk, 99))])
    return orders


def _as_data(planned: Round) -> dict[str, Any]:
    return {
        "tables": [[list(team) for team in table.teams] for table in planned.tables],
        "sitting_out": list(planned.sitting_out),
    }


def _from_data(data: dict[str, Any]) -> Round:
    tables = tuple(Table(tuple(tuple(team) for team in table)) for table in data["tables"])
    return Round(tables, tuple(data["sitting_out"]))


def _kept_plan(night: Night, number: int, here: list[str], played: list[Round]) -> Round | None:
    """Round ``number`` of the night's stored plan, while the players are those it was
    made for and the rounds played since are the ones it planned."""
    index = number - night.plan_from
    if not 0 <= index < len(night.plan):
        return None
    planned = [_from_data(data) for data in night.plan[: index + 1]]
    if sorted([*planned[index].seated, *planned[index].sitting_out]) != sorted(here):
        return None
    if played[night.plan_from - 1 :] != planned[:index]:
        return None
    return planned[index]


def _propose(night: Night, number: int, links: dict[int, str] | None = None) -> NightRound:
    """Round ``number``'s tables: the next of the stored plan, else planned again from
    the rounds played (or, winners moving up, from the last round's places); stored,
    with the table links ``links`` keeps by table number."""
    here = _ids(present(night, number))
    form = night_format(night)
    started = night.night_rounds.filter(started_at__isnull=False).prefetch_related("tables")
    played = [as_round(r) for r in started]
    if night.progressive and played:
        finished = _finishing_orders(list(started)[-1])
        planned = progressive_round(finished, here, form, seed=night.seed + number)
    else:
        kept = _kept_plan(night, number, here, played)
        if kept is None:
            ahead = night.rounds - number + 1 if night.rounds else OPEN_NIGHT_HORIZON
            plan = night_plan(here, played, form, rounds=max(1, ahead), seed=night.seed)
            night.plan, night.plan_from = [_as_data(r) for r in plan], number
            night.save(update_fields=["plan", "plan_from"])
            kept = plan[0]
        planned = kept
    return _store(night, number, planned, links or {})


@transaction.atomic
def night_start(
    *,
    club: Club,
    players: Sequence[Player],
    preset: str,
    rounds: int | None,
    progressive: bool,
    order: str,
    by: Any,
    seed: int | None = None,
) -> Night:
    """A new night of ``players`` of ``club``, playing ``preset`` at every table, with
    its first round proposed."""
    if preset not in PRESETS:
        raise ValidationError(_("Choose one of the presets."), code="preset")
    if order not in Night.Order.values:
        raise ValidationError(_("Choose how the night is won."), code="order")
    if rounds is not None and not 1 <= rounds <= MOST_ROUNDS:
        raise ValidationError(
            _("A night has 1 to %(most)d rounds, or none to play until you stop.")
            % {"most": MOST_ROUNDS},
            code="rounds",
        )
    if any(player.club_id != club.pk for player in players):
        raise ValueError("the players must be of the club")
    if len({p.pk for p in players}) != len(players):
        raise ValidationError(_("Each player comes to a night once."), code="twice")
    form = Format.of(PRESETS[preset])
    if progressive and form.partnership:
        raise ValidationError(
            _("Winners move up at cutthroat tables only, not with partners."), code="progressive"
        )
    if not table_sizes(len(players), form):
        raise RuleError("night_too_few", {"count": len(players), "least": form.fewest})
    night = Night.objects.create(
        club=club,
        rules=PRESETS[preset].to_dict(),
        rounds=rounds,
        progressive=progressive,
        order=order,
        seed=secrets.randbelow(2**63) if seed is None else seed,
        created_by=by,
    )
    Attendance.objects.bulk_create(Attendance(night=night, player=p) for p in players)
    _propose(night, 1)
    return night


def last_round(night: Night) -> NightRound | None:
    """The night's latest round, started or only proposed."""
    return night.night_rounds.order_by("-number").first()


def _last_started(night: Night) -> NightRound | None:
    return night.night_rounds.filter(started_at__isnull=False).order_by("-number").first()


def next_round_number(night: Night) -> int:
    """The first round not started: who comes now plays from it."""
    last = last_round(night)
    return last.number + (last.started_at is not None) if last else 1


def _unfinished(night_round: NightRound) -> list[NightTable]:
    """The tables of a started round whose game is still being played (a game deleted
    has ended)."""
    return [
        table
        for table in night_round.tables.select_related("game")
        if table.game is not None
        and table.game.deleted_at is None
        and table.game.finished_at is None
    ]


def _previous_over(night: Night, number: int) -> None:
    before = night.night_rounds.filter(number=number - 1).first()
    if before is None:
        return
    waiting = _unfinished(before)
    if waiting:
        raise ValidationError(
            _("Round %(round)d is not over: the game at table %(table)d has not finished.")
            % {"round": before.number, "table": waiting[0].number},
            code="round_not_over",
        )


@transaction.atomic
def round_next(*, night: Night) -> NightRound:
    """The next round's proposal, once the last round is over (the proposal already made,
    if the last round has not started)."""
    night = _locked(night)
    _open(night)
    last = last_round(night)
    if last is not None and last.started_at is None:
        return last
    number = last.number + 1 if last else 1
    if night.rounds is not None and number > night.rounds:
        raise ValidationError(
            _("All %(rounds)d rounds are played: close the night.") % {"rounds": night.rounds},
            code="rounds_done",
        )
    _previous_over(night, number)
    _changed(night)
    return _propose(night, number)


@transaction.atomic
def round_swap(*, night_round: NightRound, first: Player, second: Player) -> NightRound:
    """The proposed round with two of its players' places swapped (at the tables or
    sitting out)."""
    night = _locked(night_round.night)
    _open(night)
    night_round = NightRound.objects.get(pk=night_round.pk)
    if night_round.started_at is not None:
        raise ValidationError(
            _("This round has started: its tables can no longer change."), code="started"
        )
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different players to swap."), code="same")
    swap = {first.pk: second.pk, second.pk: first.pk}
    seated = {pk for table in night_round.tables.all() for pk in table.seated}
    missing = [p for p in (first, second) if p.pk not in seated | set(night_round.sitting_out)]
    if missing:
        raise RuleError("night_not_here", {"name": missing[0].name}, field="tables")
    tables = list(night_round.tables.all())
    for table in tables:
        table.teams = [[swap.get(pk, pk) for pk in team] for team in table.teams]
    night_round.sitting_out = [swap.get(pk, pk) for pk in night_round.sitting_out]
    NightTable.objects.bulk_update(tables, ["teams"])
    night_round.save(update_fields=["sitting_out"])
    _changed(night)
    return night_round


@transaction.atomic
def round_start(*, night_round: NightRound) -> NightRound:
    """Each table's game made, in one go: a round is started once, however many tap
    its Start at the same moment."""
    night = _locked(night_round.night)
    night_round = NightRound.objects.get(pk=night_round.pk)
    if night_round.started_at is not None:
        return night_round
    _open(night)
    _previous_over(night, night_round.number)
    here = present(night, night_round.number)
    seating_check(as_round(night_round), _ids(here), night_format(night))
    players = {p.pk: p for p in here}
    rules = night_rules(night)
    for table in night_round.tables.all():
        ordered = [players[pk] for pk in table.seated]
        teams = None
        if rules.partnership:
            teams = {
                team_name([players[pk].name for pk in team], str(i)): [players[pk] for pk in team]
                for i, team in enumerate(table.teams, 1)
            }
        state = game_create(players=ordered, first_dealer=ordered[0], rules=rules, teams=teams)
        table.game = state.game
        table.save(update_fields=["game"])
    night_round.started_at = timezone.now()
    night_round.save(update_fields=["started_at"])
    _changed(night)
    return night_round


def _replan(night: Night) -> None:
    """A proposal not yet started planned again for who is here now."""
    _changed(night)
    last = last_round(night)
    if last is not None and last.started_at is None:
        number = last.number
        # A table's link or QR code, once handed out, still opens that table.
        links = dict(last.tables.values_list("number", "token"))
        last.delete()
        _propose(night, number, links)


@transaction.atomic
def player_arrive(*, night: Night, player: Player) -> Attendance:
    """``player`` plays from the next round not started (a player who left comes back)."""
    night = _locked(night)
    _open(night)
    if player.club_id != night.club_id:
        raise ValueError("the player must be of the night's club")
    first = next_round_number(night)
    attendance, made = Attendance.objects.get_or_create(
        night=night, player=player, defaults={"first_round": first}
    )
    if not made:
        if attendance.last_round is None:
            raise ValidationError(
                _("%(name)s is already here.") % {"name": player.name}, code="here"
            )
        attendance.first_round, attendance.last_round = first, None
        attendance.save(update_fields=["first_round", "last_round"])
    _replan(night)
    return attendance


@transaction.atomic
def player_leave(*, night: Night, player: Player) -> Attendance:
    """``player`` plays no round after those started."""
    night = _locked(night)
    _open(night)
    attendance = Attendance.objects.filter(night=night, player=player, last_round=None).first()
    if attendance is None:
        raise ValidationError(_("%(name)s is not here.") % {"name": player.name}, code="away")
    started = _last_started(night)
    attendance.last_round = max(started.number if started else 0, attendance.first_round - 1)
    attendance.save(update_fields=["last_round"])
    _replan(night)
    return attendance


def night_games(night: Night) -> list[NightGame]:
    """The night's finished games as the standing and the payout read them: each
    player's score, win and chips, from the games' statistics."""
    lines = GameLine.objects.filter(
        game__night_table__night_round__night=night, game__deleted_at__isnull=True
    ).values_list("game_id", "player__name", "score", "won", "chips")
    games: dict[int, tuple[dict[str, int], set[str], dict[str, int]]] = {}
    for game_id, name, score, won, chips in lines:
        scores, winners, each = games.setdefault(game_id, ({}, set(), {}))
        scores[name] = score
        each[name] = chips
        if won:
            winners.add(name)
    return [NightGame(s, frozenset(w), c) for s, w, c in games.values()]


def unfinished_tables(night: Night) -> list[NightTable]:
    last = _last_started(night)
    return _unfinished(last) if last else []


@transaction.atomic
def night_close(*, night: Night, by: Any, unfinished_ok: bool = False) -> Night:
    """The night closed: its payout (every game's chips summed per person, as the fewest
    payments) recorded on the club's ledger, on the season of the night's first day.
    With a game still being played, refused unless ``unfinished_ok`` (its chips, if it
    finishes later, are the ledger's alone)."""
    night = _locked(night)
    if night.closed_at is not None:
        return night
    if unfinished_tables(night) and not unfinished_ok:
        raise ValidationError(
            _("A game is still being played: close the night anyway?"), code="unfinished"
        )
    last = last_round(night)
    if last is not None and last.started_at is None:
        last.delete()
    players = {p.name: p for p in Player.objects.filter(club=night.club)}
    span = span_for(club=night.club, key=None, today=timezone.localdate(night.started_at))
    for payer, payee, chips in night_payout(night_games(night)).payments:
        payment = payment_record(
            club=night.club,
            span=span,
            payer=players[payer],
            payee=players[payee],
            chips=chips,
            by=by,
        )
        night.payments.add(payment)
    night.closed_at = timezone.now()
    night.revision += 1
    night.save(update_fields=["closed_at", "revision"])
    return night
