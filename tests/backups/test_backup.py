"""Backup and restore of a whole club (format pitchkeeper.club/2, reading /1): export,
import as a new club or into a fresh database, export again gives the same data apart
from the games' ids, and the ledger, leaderboard and every game's totals are the same;
bad data is refused with a message and saves nothing."""

from __future__ import annotations

import copy
import io
import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone, translation

from pitchkeeper.backups.services import CLUB_FORMAT, club_export, club_import
from pitchkeeper.clubs.models import Club, Invitation, Membership, Player, Role
from pitchkeeper.clubs.players import player_add, player_retire
from pitchkeeper.games.models import Game, Hand, HandChange, Seat
from pitchkeeper.games.services import games_import
from pitchkeeper.rules import FORMAT, RuleError
from pitchkeeper.seasons.models import Payment, Season

pytestmark = pytest.mark.django_db

SMUDGE = {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"}


def team_record() -> dict:
    return {
        "format": FORMAT,
        "rules": "partnership",
        "players": ["Ann", "Cy", "Bob", "Dee"],
        "teams": {"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]},
        "first_dealer": "Ann",
        "hands": [
            {
                "pitcher": "Cy",
                "bid": 2,
                "points": {"high": "Them", "low": "Us", "jack": None, "game": "Them"},
            },
            {"misdeal": True},
        ],
    }


@pytest.fixture
def full_club(club, game_data):
    """A club with one game of each kind: in progress, finished, team, deleted, with a
    chip value, and a retired player who played none of them."""
    finished = {
        "format": FORMAT,
        "rules": "setback",
        "players": ["Ann", "Bob", "Cy"],
        "first_dealer": "Ann",
        "hands": [{"pitcher": "Bob", "bid": 4, "points": SMUDGE}],
    }
    games = games_import(
        club=club, games=[game_data(), finished, team_record(), game_data(hands=[])]
    )
    playing, over, team, deleted = games
    assert over.finished_at is not None and team.finished_at is None
    start = timezone.now() - timedelta(days=30)
    for hours, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(created=start + timedelta(hours=hours))
    Game.objects.filter(pk=over.pk).update_counted(
        finished_at=start + timedelta(hours=1, minutes=40)
    )
    Game.objects.filter(pk=deleted.pk).update_counted(deleted_at=start + timedelta(days=2))
    Game.objects.filter(pk=playing.pk).update_counted(chip_value=Decimal("0.25"))
    player_retire(player=player_add(club=club, name="Zoë"), retired=True)
    return club


def without_ids(data: dict) -> dict:
    """The data without the games' ids, and without the live links' tokens, which a
    copy in the same database cannot share."""
    data = copy.deepcopy(data)
    for game in data["games"]:
        del game["record"]["id"]
        del game["share_token"]
    return data


def test_export_then_import_then_export_gives_the_same_club(full_club, user):
    first = club_export(club=full_club)
    restored = club_import(data=json.loads(json.dumps(first)), owner=user).club
    second = club_export(club=restored)

    assert restored.pk != full_club.pk
    assert without_ids(second) == without_ids(first)
    assert Membership.objects.get(club=restored).user == user
    assert Membership.objects.get(club=restored).role == Role.OWNER


def test_the_export_holds_every_game_with_its_times(full_club):
    data = club_export(club=full_club)

    assert data["format"] == CLUB_FORMAT
    assert data["name"] == "Thursday table"
    assert {"name": "Zoë", "retired": True, "user": None} in [
        {k: p[k] for k in ("name", "retired", "user")} for p in data["players"]
    ]
    assert {p["name"] for p in data["players"]} == {"Ann", "Bob", "Cy", "Dee", "Zoë"}
    playing, over, team, deleted = data["games"]
    assert playing["chip_value"] == "0.25" and playing["finished_at"] is None
    assert over["finished_at"] is not None and over["record"]["result"]["winner"] == "Bob"
    assert team["record"]["teams"] == {"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]}
    assert deleted["deleted_at"] is not None and playing["deleted_at"] is None
    assert [g["record"]["format"] for g in data["games"]] == [FORMAT] * 4
    # Every game record can be imported on its own with import_games.
    assert games_import(club=full_club, games=[g["record"] for g in data["games"]])


def test_restored_games_keep_their_times_hands_and_state(full_club, user):
    restored = club_import(data=club_export(club=full_club), owner=user).club

    old = list(Game.objects.filter(club=full_club).order_by("created"))
    new = list(Game.objects.filter(club=restored).order_by("created"))
    assert [(g.created, g.finished_at, g.deleted_at, g.chip_value) for g in new] == [
        (g.created, g.finished_at, g.deleted_at, g.chip_value) for g in old
    ]
    assert [g.hands.count() for g in new] == [g.hands.count() for g in old]
    assert new[1].winner.name == "Bob" and new[1].winner.club == restored
    assert Player.objects.get(club=restored, name="Zoë").retired


def counts() -> dict[str, int]:
    """The rows of every model a backup writes or rebuilds: a refused import leaves each
    as it was."""
    from pitchkeeper.backups.services import CARRIED, DERIVED

    return {model.__name__: model.objects.count() for model in (*CARRIED, *DERIVED)}


def broken(full_club, change) -> dict:
    data = club_export(club=full_club)
    change(data)
    return data


BAD = {
    "games not a list": (lambda d: d.update(games={}), '"games" must be a list'),
    "players not a list": (lambda d: d.update(players="Ann"), '"players" must be a list'),
    "wrong format": (lambda d: d.update(format="pitchkeeper.game/1"), '"format" must be'),
    "unknown field": (lambda d: d.update(colour="green"), "unknown field colour"),
    "no name": (lambda d: d.update(name=None), '"name"'),
    "player twice": (
        lambda d: d["players"].append({"name": "ann"}),
        "player 6: There is already a player of that name.",
    ),
    "player with no name": (lambda d: d["players"].append({"retired": True}), "player 6"),
    "retired not a boolean": (
        lambda d: d["players"][0].update(retired="yes"),
        '"retired" must be true or false',
    ),
    "bad created": (lambda d: d["games"][1].update(created="yesterday"), 'game 2: "created"'),
    "no created": (lambda d: d["games"][0].update(created=None), 'game 1: "created" must be'),
    "finished but not over": (
        lambda d: d["games"][0].update(finished_at=d["games"][0]["created"]),
        'game 1: "finished_at" is given but the game is not over',
    ),
    "over but no finish": (
        lambda d: d["games"][1].update(finished_at=None),
        "game 2: the game is over",
    ),
    "bad chip value": (lambda d: d["games"][0].update(chip_value="lots"), '"chip_value"'),
    "bad hand in the last game": (
        lambda d: d["games"][3]["record"]["hands"].append({"pitcher": "Nobody", "bid": 2}),
        "game 4: hand 1",
    ),
    "record not a game": (lambda d: d["games"][2].update(record=[]), "game 3: a game must be"),
}


def import_refusal(club, user, change) -> str:
    """The message a backup of ``club`` altered by ``change`` is refused with; the
    refused import saves nothing."""
    data = broken(club, change)
    before = counts()
    with pytest.raises(RuleError) as refused:
        club_import(data=data, owner=user)
    assert counts() == before
    return str(refused.value)


@pytest.mark.parametrize("case", BAD.keys())
def test_bad_data_is_refused_with_a_message_and_saves_nothing(full_club, user, case):
    change, message = BAD[case]
    assert message in import_refusal(full_club, user, change)


@pytest.mark.parametrize(
    ("language", "messages"),
    [
        (
            "ru",
            [
                "player 6: имя игрока не может быть пустым",
                "партия 4: сдача 1: 'Nobody' не играет за этим столом",
                "player 1: «retired» — это true или false",
                "партия 1: «finished_at» указано, но партия не окончена",
            ],
        ),
        (
            "nb",
            [
                "player 6: navnet til spilleren kan ikke være tomt",
                "parti 4: runde 1: 'Nobody' spiller ikke ved dette bordet",
                "player 1: «retired» må være true eller false",
                "parti 1: «finished_at» er oppgitt, men partiet er ikke over",
            ],
        ),
    ],
)
def test_a_refused_backup_is_told_in_the_language(full_club, user, language, messages):
    """The refusal and whose name it is, in words; the section as the file names it."""
    cases = ["player with no name", "bad hand in the last game"]
    cases += ["retired not a boolean", "finished but not over"]

    with translation.override(language):
        refusals = [import_refusal(full_club, user, BAD[case][0]) for case in cases]

    assert refusals == messages


def test_data_that_is_not_an_object_is_refused(user):
    with pytest.raises(RuleError, match="a club must be a JSON object"):
        club_import(data=[], owner=user)
    assert not Club.objects.exclude(memberships__user=user).exists()


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_bad_club_name_is_refused(full_club, user, name):
    data = broken(full_club, lambda d: d.update(name=name))
    before = counts()

    with pytest.raises(ValidationError):
        club_import(data=data, owner=user)
    with pytest.raises(ValidationError):
        club_import(data=data, owner=None)
    assert counts() == before


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_commands_back_up_and_restore_a_club(full_club, tmp_path):
    other = get_user_model().objects.create_user("restorer")
    backup = tmp_path / "club.json"

    run("export_club", "--club", str(full_club.pk), "--output", str(backup))
    printed, _err = run("export_club", "--club", str(full_club.pk))
    new_id, _err = run("import_club", str(backup), "--owner", "restorer")

    assert json.loads(printed) == json.loads(backup.read_text(encoding="utf-8"))
    restored = Club.objects.get(pk=int(new_id))
    # The members of the file keep their roles; --owner adds an owner.
    assert restored.memberships.get(user=other).role == Role.OWNER
    assert restored.memberships.get(user__username="owner").role == Role.OWNER
    again = without_ids(json.loads(run("export_club", "--club", new_id)[0]))
    first = without_ids(json.loads(printed))
    members = again.pop("members")
    assert members[0] == first.pop("members")[0] and members[1]["user"] == "restorer"
    assert again == first


def test_import_without_an_owner_says_the_club_has_no_member(full_club, tmp_path):
    backup = tmp_path / "club.json"
    run("export_club", "--club", str(full_club.pk), "-o", str(backup))

    Membership.objects.filter(club=full_club).delete()
    run("export_club", "--club", str(full_club.pk), "-o", str(backup))

    new_id, err = run("import_club", str(backup))

    assert not Club.objects.get(pk=int(new_id)).memberships.exists()
    assert "has no owner yet" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested more than 32 levels deep"),
        ('{"format": "pitchkeeper.club/1", "name": "A", "games": [1]}', "game 1"),
        ('{"format": "pitchkeeper.club/1", "name": ""}', "Give the club a name."),
    ],
)
def test_import_command_reports_bad_files(tmp_path, user, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    before = counts()

    with pytest.raises(CommandError, match=message):
        run("import_club", str(path), "--owner", user.username)
    assert counts() == before


def test_commands_name_a_missing_club_or_user(club, tmp_path):
    with pytest.raises(CommandError, match="no club 999"):
        run("export_club", "--club", "999")
    with pytest.raises(CommandError, match="no user nobody"):
        run("import_club", str(tmp_path / "x.json"), "--owner", "nobody")
    with pytest.raises(CommandError, match="cannot read"):
        run("import_club", str(tmp_path / "missing.json"))


# ---- The whole club, into a fresh database ----


@pytest.fixture
def whole_club(full_club, user, make_game):
    """``full_club`` with everything else a club owns: members of each role, an open
    and a revoked invitation, a season with a chip value, payments on it and on all
    time, a finished Contway team game, a player linked to an account, and changed
    hands (the history)."""
    from pitchkeeper.clubs.services import invitation_create, invitation_revoke
    from pitchkeeper.games.hands import hand_delete, hand_record
    from pitchkeeper.games.replay import game_state
    from pitchkeeper.rules import HandRecord
    from pitchkeeper.seasons.ledger import payment_record
    from pitchkeeper.seasons.spans import Span
    from tests.seasons.test_stats import contway_game

    User = get_user_model()
    sam, vic = User.objects.create_user("sam"), User.objects.create_user("vic")
    Membership.objects.create(club=full_club, user=sam, role=Role.SCOREKEEPER)
    Membership.objects.create(club=full_club, user=vic, role=Role.VIEWER)
    invitation_create(club=full_club, role=Role.VIEWER, by=user)
    invitation_revoke(
        club=full_club, pk=invitation_create(club=full_club, role=Role.OWNER, by=sam).pk
    )
    contway = contway_game(make_game)
    playing = full_club.games.order_by("created").first()
    hand_record(game=playing, record=HandRecord(misdeal=True), user=sam)
    hand_delete(game=playing, number=game_state(game=playing).result.hands.__len__(), user=vic)
    season = Season.objects.create(
        club=full_club, name="Winter", start=date(2000, 1, 1), chip_value=Decimal("0.50")
    )
    players = {p.name: p for p in full_club.players.all()}
    Player.objects.filter(pk=players["Ann"].pk).update(user=sam)
    payment_record(
        club=full_club,
        span=Span(season),
        payer=players["Cy"],
        payee=players["Bob"],
        chips=1,
        by=user,
    )
    payment_record(
        club=full_club,
        span=Span(None),
        payer=players["Ann"],
        payee=players["Dee"],
        chips=2,
        by=None,
    )
    assert (
        Game.objects.get(pk=contway.pk).finished_at is not None and HandChange.objects.count() >= 3
    )
    return full_club


def figures(club) -> dict:
    """What a club's pages show: the ledger's balances, the leaderboard and every
    game's totals."""
    from pitchkeeper.games.replay import games_replayed
    from pitchkeeper.seasons.ledger import ledger
    from pitchkeeper.seasons.spans import Span
    from pitchkeeper.seasons.standings import leaderboard

    spans = [Span(None), *(Span(s) for s in club.seasons.order_by("start"))]
    return {
        "ledger": [
            sorted((b.name, b.won, b.paid, b.received) for b in ledger(club=club, span=s).balances)
            for s in spans
        ],
        "leaderboard": sorted(
            (s.name, s.games, s.wins, s.chips, round(s.mu, 6))
            for s in leaderboard(club=club, span=Span(None)).standings
        ),
        "games": [
            (state.game.created, state.result.scores, state.result.settlement)
            for state in games_replayed(games=club.games.order_by("created", "pk"))
        ],
    }


# Outside a transaction: PostgreSQL refuses to flush (TRUNCATE) tables with constraint
# checks still pending in the test's own transaction.
@pytest.mark.django_db(transaction=True)
def test_a_restore_into_a_fresh_database_is_the_whole_club(whole_club, tmp_path):
    from django.core.management import call_command as manage

    before = figures(whole_club)
    assert before["ledger"][0]
    backup = tmp_path / "club.json"
    run("export_club", "--club", str(whole_club.pk), "-o", str(backup))
    first = json.loads(backup.read_text(encoding="utf-8"))
    usernames = [u.username for u in get_user_model().objects.order_by("pk")]
    manage("flush", interactive=False, verbosity=0)
    assert not Club.objects.exists()
    for name in usernames:
        get_user_model().objects.create_user(name)

    new_id, err = run("import_club", str(backup))

    restored = Club.objects.get(pk=int(new_id))
    assert err == ""
    assert figures(restored) == before
    again = club_export(club=restored)
    for data in (first, again):
        for game in data["games"]:
            del game["record"]["id"]
    assert again == first
    members = {(m.user.username, m.role) for m in restored.memberships.all()}
    assert members == {("owner", "owner"), ("sam", "scorekeeper"), ("vic", "viewer")}
    assert (
        restored.invitations.count() == 2 and restored.invitations.filter(revoked=True).count() == 1
    )
    assert Payment.objects.filter(club=restored, season__isnull=False).count() == 1
    assert Player.objects.get(club=restored, name="Ann").user.username == "sam"
    assert {c.user.username for c in HandChange.objects.exclude(user=None)} == {"sam", "vic"}


def test_members_without_an_account_are_invited_and_links_renewed(whole_club, user):
    data = club_export(club=whole_club)
    get_user_model().objects.filter(username="vic").delete()

    restored = club_import(data=data, owner=None)

    assert restored.invited == [("vic", "viewer", restored.invited[0][2])]
    invitation = Invitation.objects.get(token=restored.invited[0][2])
    assert (invitation.club, invitation.role) == (restored.club, "viewer")
    # Vic's invitation is reported once; the hand vic deleted stays, unlinked.
    assert restored.unknown_accounts == {"vic"}
    # The original club is still here: its live links' and invitations' tokens are taken.
    assert restored.new_tokens == len(data["games"]) + len(data["invitations"])
    # A change made by vic is kept, without the account.
    assert HandChange.objects.filter(game__club=restored.club, user=None).exists()


def test_every_model_is_carried_or_rebuilt():
    """A model added to the app fails here until the backup carries it or says how it
    is rebuilt; a field of a seat or a hand, until the game record carries it or it is
    replayed."""
    from django.apps import apps

    from pitchkeeper.backups.services import CARRIED, DERIVED, IN_RECORD, REPLAYED, SITE_WIDE

    models = set(apps.get_app_config("pitchkeeper").get_models())
    assert models == set(CARRIED) | set(DERIVED) | set(SITE_WIDE)
    assert len(CARRIED) + len(DERIVED) + len(SITE_WIDE) == len(models)
    for model in (Seat, Hand):
        names = {f.name for f in model._meta.concrete_fields if not f.primary_key}
        assert names == IN_RECORD[model] | REPLAYED.get(model, set()), model


def test_a_version_1_file_still_restores(full_club, user):
    data = club_export(club=full_club)
    old = {
        "format": "pitchkeeper.club/1",
        "name": data["name"],
        "players": [{"name": p["name"], "retired": p["retired"]} for p in data["players"]],
        "games": [
            {
                "record": g["record"],
                "created": g["created"],
                "finished": g["finished_at"],
                **({"deleted": g["deleted_at"]} if g["deleted_at"] else {}),
                **({"chip_value": g["chip_value"]} if g["chip_value"] else {}),
            }
            for g in data["games"]
        ],
    }

    restored = club_import(data=old, owner=user).club

    again = without_ids(club_export(club=restored))
    expected = without_ids(data)
    for game in (*again["games"], *expected["games"]):
        del game["changes"]
    for player in (*again["players"], *expected["players"]):
        del player["created"]
    assert again["games"] == expected["games"] and again["players"] == expected["players"]
    old["games"][0]["finished_at"] = None
    before = counts()
    with pytest.raises(RuleError, match="game 1: unknown field finished_at"):
        club_import(data=old, owner=user)
    assert counts() == before


BAD_2 = {
    "member with no account name": (
        lambda d: d["members"].append({"user": None, "role": "viewer"}),
        'member 4: "user" must be',
    ),
    "member with a bad role": (
        lambda d: d["members"][0].update(role="king"),
        "member 1: \"role\": Value 'king' is not a valid choice.",
    ),
    "payment by a stranger": (
        lambda d: d["payments"][0].update(payer="Zed"),
        "payment 1: 'Zed' is not a player of the club",
    ),
    "payment in no such season": (
        lambda d: d["payments"][0].update(season=9),
        "payment 1: there is no season 9",
    ),
    "payment of nothing": (lambda d: d["payments"][0].update(chips=0), "payment 1:"),
    "season ending before it starts": (
        lambda d: d["seasons"][0].update(end="1999-01-01"),
        "season 1:",
    ),
    "season in year 10000": (lambda d: d["seasons"][0].update(start="10000-01-01"), "season 1:"),
    "chips of 2^31": (lambda d: d["payments"][0].update(chips=2**31), "payment 1:"),
    # Refused while reading, before any entry is looked at.
    "chips of 2^63": (lambda d: d["payments"][0].update(chips=2**63), "more than 18 digits"),
    "change with a bad action": (
        lambda d: d["games"][0]["changes"][0].update(action="burn"),
        "game 1: change 1:",
    ),
    "invisible unknown field": (
        lambda d: d["invitations"][0].update({"role\u200b": "owner"}),
        "invitation 1: unknown field role\u200b",
    ),
}


@pytest.mark.parametrize("case", BAD_2.keys())
def test_bad_version_2_data_is_refused_and_saves_nothing(whole_club, user, case, tmp_path):
    change, message = BAD_2[case]
    data = club_export(club=whole_club)
    change(data)
    before = (counts(), Membership.objects.count(), Invitation.objects.count())
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    with pytest.raises(CommandError) as refused:
        run("import_club", str(path), "--owner", user.username)

    assert message in str(refused.value) and "\n" not in str(refused.value)
    assert (counts(), Membership.objects.count(), Invitation.objects.count()) == before


def test_a_partnership_game_backed_up_before_the_steal_limit_restores(club, user, make_game):
    """A backup written before `steal_up_to` existed holds whole rulesets without it; its
    games were played with the steal of a 4 and restore so, as migration 0017 keeps the
    stored ones. The same hand under today's partnership rules is refused."""
    teams = {"Jets": ["Ann", "Cy"], "Sharks": ["Bob", "Dee"]}
    make_game("partnership", teams=teams)
    data = club_export(club=club)
    [game] = data["games"]
    del game["record"]["rules"]["steal_up_to"]
    game["record"]["hands"] = [
        {
            "auction": [["Bob", 4], ["Cy", None], ["Dee", None], ["Ann", 4]],
            "points": {"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann"},
        }
    ]

    restored = club_import(data=copy.deepcopy(data), owner=user).club

    [stored] = restored.games.all()
    assert stored.hands.get().pitcher.name == "Ann"
    game["record"]["rules"]["steal_up_to"] = 3
    before = counts()
    with pytest.raises(RuleError, match="Ann cannot take Bob's 4: a bid of 4 cannot be taken"):
        club_import(data=data, owner=user)
    assert counts() == before
