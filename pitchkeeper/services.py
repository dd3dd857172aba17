"""Load games, replay them through the rules engine, validate and save.

Every change to a game's hands goes through ``_save``: the whole game is replayed with
the change, and only a game the engine accepts is written, in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from pitchkeeper.models import (
    Club,
    Game,
    Hand,
    Invitation,
    Membership,
    Player,
    Role,
    Seat,
    new_token,
)
from pitchkeeper.rules import (
    GameRecord,
    GameResult,
    HandRecord,
    HandResult,
    RuleError,
    Ruleset,
    Seating,
    Team,
    game_to_data,
    parse_game,
    replay,
    resolve_rules,
)
from pitchkeeper.rules.record import MAX_NAME_LENGTH, check_name

# Hand numbers are moved out of the way before renumbering, so that the unique
# (game, number) constraint holds after every row of the update.
RENUMBER_OFFSET = 1_000_000


@dataclass(frozen=True)
class GameState:
    """A game with its seats and hands as stored and everything the engine derives."""

    game: Game
    seats: list[Seat]
    hands: list[Hand]
    record: GameRecord
    result: GameResult

    @property
    def names(self) -> dict[int, str]:
        return {seat.player_id: seat.player.name for seat in self.seats}


def game_state(*, game: Game) -> GameState:
    """A game replayed: a fixed number of queries however long the game is."""
    return _replayed(game, list(game.seats.select_related("player")), list(game.hands.all()))


def games_replayed(*, games: QuerySet[Game]) -> list[GameState]:
    """Games replayed in three queries, however many and however long they are."""
    games = games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")), "hands"
    )
    return [_replayed(game, list(game.seats.all()), list(game.hands.all())) for game in games]


def _replayed(game: Game, seats: list[Seat], hands: list[Hand]) -> GameState:
    names = {seat.player_id: seat.player.name for seat in seats}
    seating = _seating(seats)
    rules = resolve_rules(game.rules)
    record = GameRecord(
        rules,
        seating,
        names[game.first_dealer_id],
        tuple(_hand_record(hand, names, seating) for hand in hands),
    )
    return GameState(game, seats, hands, record, record.replay())


def _seating(seats: Sequence[Seat]) -> Seating:
    teams: dict[str, list[str]] = {}
    for seat in seats:
        if seat.team:
            teams.setdefault(seat.team, []).append(seat.player.name)
    return Seating(
        tuple(seat.player.name for seat in seats),
        tuple(Team(name, tuple(members)) for name, members in teams.items()),
    )


def _side_name(side: int | str, names: Mapping[int, str]) -> str:
    """A stored side: a player id, or a team's name in team games."""
    return names[side] if isinstance(side, int) else side


def _hand_record(hand: Hand, names: Mapping[int, str], seating: Seating) -> HandRecord:
    if hand.misdeal:
        return HandRecord(misdeal=True)
    points: dict[str, Any] = {}
    for key, went_to in hand.points.items():
        if isinstance(went_to, dict):
            points[key] = {
                _side_name(int(side) if not seating.teams else side, names): count
                for side, count in went_to.items()
            }
        else:
            points[key] = None if went_to is None else _side_name(went_to, names)
    auction = None
    if hand.auction is not None:
        auction = tuple((names[player_id], bid) for player_id, bid in hand.auction)
    contract = hand.auction is None and hand.bid is not None
    return HandRecord(
        auction=auction,
        pitcher=names[hand.pitcher_id] if contract and hand.pitcher_id else None,
        bid=hand.bid if contract else None,
        points=points,
        revoked=tuple(_side_name(side, names) for side in hand.revoked),
        all_tricks=hand.all_tricks,
    )


def _stored_side(side: str, ids: Mapping[str, int], seating: Seating) -> int | str:
    return side if seating.teams else ids[side]


def _hand_fields(
    record: HandRecord, result: HandResult, ids: Mapping[str, int], seating: Seating
) -> dict[str, Any]:
    """The columns of a hand row, from its record and what the engine made of it."""
    points: dict[str, Any] = {}
    for key, went_to in result.points.items():
        if isinstance(went_to, dict):
            points[key] = {
                str(_stored_side(side, ids, seating)): count for side, count in went_to.items()
            }
        else:
            points[key] = None if went_to is None else _stored_side(went_to, ids, seating)
    auction = None
    if record.auction is not None:
        auction = [[ids[seating.player(name)], bid] for name, bid in record.auction]
    return {
        "misdeal": record.misdeal,
        "auction": auction,
        "pitcher_id": ids[result.pitcher] if result.pitcher else None,
        "bid": result.bid,
        "points": points,
        "revoked": [_stored_side(side, ids, seating) for side in result.revoked],
        "all_tricks": record.all_tricks,
        "kind": result.kind,
        "dealer_id": ids[result.dealer],
        "made": result.made,
    }


HAND_COLUMNS = (
    "number",
    "misdeal",
    "auction",
    "pitcher_id",
    "bid",
    "points",
    "revoked",
    "all_tricks",
    "kind",
    "dealer_id",
    "made",
)


def _save(
    state: GameState, records: Sequence[HandRecord], rows: Sequence[Hand | None]
) -> GameState:
    """Replay ``records`` (``rows`` are their stored rows, None for a new hand) and write
    what changed; a RuleError from the engine leaves everything as it was."""
    game = state.game
    seating = state.record.seating
    result = replay(state.record.rules, seating, state.record.first_dealer, records)
    ids = {name: player_id for player_id, name in state.names.items()}

    new: list[Hand] = []
    changed: list[Hand] = []
    moved: list[int] = []
    for number, (record, hand_result, row) in enumerate(
        zip(records, result.hands, rows, strict=True), start=1
    ):
        fields = {"number": number, **_hand_fields(record, hand_result, ids, seating)}
        if row is None:
            new.append(Hand(game=game, **fields))
        elif any(getattr(row, name) != value for name, value in fields.items()):
            if row.number != number:
                moved.append(row.pk)
            for name, value in fields.items():
                setattr(row, name, value)
            changed.append(row)
    if moved:
        Hand.objects.filter(pk__in=moved).update(number=F("number") + RENUMBER_OFFSET)
    if changed:
        Hand.objects.bulk_update(changed, [c for c in HAND_COLUMNS if c != "number"] + ["number"])
    if new:
        Hand.objects.bulk_create(new)
    _save_outcome(game, result, ids)
    return game_state(game=game)


def _save_outcome(game: Game, result: GameResult, ids: Mapping[str, int]) -> None:
    winner_id = ids.get(result.winner) if result.winner else None
    outcome = {
        "winner_id": winner_id,
        "winner_team": result.winner if result.winner and winner_id is None else "",
        "won_by": result.won_by or "",
        "finished_at": (game.finished_at or timezone.now()) if result.winner else None,
    }
    for name, value in outcome.items():
        setattr(game, name, value)
    game.save(update_fields=[*outcome, "updated"])


def _locked_state(game: Game) -> GameState:
    # Serialises writers of one game on databases with row locks.
    locked = Game.objects.select_for_update().get(pk=game.pk)
    return game_state(game=locked)


@transaction.atomic
def hand_record(*, game: Game, record: HandRecord) -> GameState:
    """Add a hand at the end of the game."""
    state = _locked_state(game)
    return _save(state, [*state.record.hands, record], [*state.hands, None])


def _index(state: GameState, number: int) -> int:
    if not 1 <= number <= len(state.hands):
        raise RuleError(
            _("there is no hand %(number)d in this game") % {"number": number}, field="number"
        )
    return number - 1


@transaction.atomic
def hand_edit(*, game: Game, number: int, record: HandRecord) -> GameState:
    """Replace hand ``number``; the game is replayed and every later hand rechecked."""
    state = _locked_state(game)
    index = _index(state, number)
    records = list(state.record.hands)
    records[index] = record
    return _save(state, records, state.hands)


@transaction.atomic
def hand_delete(*, game: Game, number: int) -> GameState:
    """Remove hand ``number``; later hands move up one."""
    state = _locked_state(game)
    index = _index(state, number)
    records = list(state.record.hands)
    rows: list[Hand | None] = list(state.hands)
    del records[index]
    removed = rows.pop(index)
    assert removed is not None
    # A refused removal raises from _save and the transaction brings the row back.
    removed.delete()
    return _save(state, records, rows)


def roster(names: Sequence[str], *, club: Club) -> dict[str, Player]:
    """The club's players of these names, matched without regard to case, added when new.

    Compared in Python: SQLite's LOWER() folds ASCII letters only.
    """
    known = {player.name.casefold(): player for player in club.players.all()}
    players = {}
    for name in names:
        player = known.get(name.casefold())
        if player is None:
            player = Player.objects.create(club=club, name=check_name(name, "a player's name"))
            known[name.casefold()] = player
        players[name] = player
    return players


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
    game = Game.objects.create(
        club_id=club_ids.pop(),
        rules=rules.to_dict(),
        first_dealer=first_dealer,
        chip_value=chip_value,
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
    return _save(state, record.hands, [None] * len(record.hands)).game


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
                _("game %(number)d: %(error)s") % {"number": number, "error": error}
            ) from None
    return saved


def game_export(*, game: Game) -> dict[str, Any]:
    state = game_state(game=game)
    return game_to_data(state.record, state.result, game.pk)


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


def player_name_check(name: str, *, club: Club, player: Player | None = None) -> str:
    """``name`` stripped, as ``check_name`` does, or a ValidationError saying what is
    wrong with it: empty, too long, or the name of another player in any case.

    Compared in Python: SQLite's LOWER() folds ASCII letters only.
    """
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the player a name."), code="required")
    if len(name) > MAX_NAME_LENGTH:
        raise ValidationError(
            _("A name can be at most %(limit)d characters long; this one has %(length)d."),
            code="max_length",
            params={"limit": MAX_NAME_LENGTH, "length": len(name)},
        )
    others = club.players.exclude(pk=player.pk) if player else club.players.all()
    folded = name.casefold()
    for other in others.values_list("name", flat=True):
        if other.casefold() == folded:
            raise ValidationError(
                _("There is already a player called %(name)s."),
                code="duplicate",
                params={"name": other},
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


def share_link_renew(*, game: Game) -> Game:
    """A new unguessable live scoreboard address; the old one stops working."""
    game.share_token = new_token()
    game.save(update_fields=["share_token", "updated"])
    return game


CLUB_NAME_LENGTH = 60


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club with ``owner`` as its first member."""
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the club a name."), code="required")
    if len(name) > CLUB_NAME_LENGTH:
        raise ValidationError(
            _("A club name can be at most %(limit)d characters long."),
            code="max_length",
            params={"limit": CLUB_NAME_LENGTH},
        )
    club = Club.objects.create(name=name)
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def _role(role: str) -> str:
    if role not in Role.values:
        raise ValidationError(_("Choose owner, scorekeeper or viewer."), code="invalid")
    return role


def invitation_create(*, club: Club, role: str, by: AbstractBaseUser) -> Invitation:
    """A link that lets whoever follows it join ``club`` as ``role``."""
    return Invitation.objects.create(club=club, role=_role(role), created_by=by)


def invitation_revoke(*, club: Club, pk: int) -> None:
    if not club.invitations.filter(pk=pk).update(revoked=True):
        raise ValidationError(_("There is no such invitation."), code="missing")


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """``user`` joins the invitation's club; a member already keeps their role."""
    membership, _created = Membership.objects.get_or_create(
        club=invitation.club, user=user, defaults={"role": invitation.role}
    )
    return membership


@transaction.atomic
def member_change(*, club: Club, pk: int, role: str | None) -> None:
    """Give member ``pk`` a new role, or remove them (``role`` None). A club always
    keeps an owner."""
    membership = club.memberships.select_for_update().filter(pk=pk).first()
    if membership is None:
        raise ValidationError(_("There is no such member."), code="missing")
    if role is not None:
        membership.role = _role(role)
    owners = club.memberships.filter(role=Role.OWNER).exclude(pk=pk).exists()
    if not owners and (role is None or membership.role != Role.OWNER):
        raise ValidationError(_("A club needs an owner: make someone else owner first."))
    if role is None:
        club.players.filter(user=membership.user).update(user=None)
        membership.delete()
    else:
        membership.save(update_fields=["role"])


def player_link(*, club: Club, player_pk: int, member_pk: int | None) -> Player:
    """Link a roster player to a member's account (or unlink it)."""
    player = club.players.filter(pk=player_pk).first()
    if player is None:
        raise ValidationError(_("There is no such player."), code="missing")
    user = None
    if member_pk is not None:
        membership = club.memberships.filter(pk=member_pk).select_related("user").first()
        if membership is None:
            raise ValidationError(_("There is no such member."), code="missing")
        user = membership.user
        if club.players.filter(user=user).exclude(pk=player.pk).exists():
            raise ValidationError(
                _("%(user)s already plays as another player of this club.") % {"user": user}
            )
    player.user = user
    player.save(update_fields=["user"])
    return player
