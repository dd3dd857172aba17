"""Every page of a club, as its owner and as a stranger with its links see it: what an
imported club must answer without a server error."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.test import Client

from pitchkeeper.clubs.models import Club
from tests.conftest import sign_in


def club_pages(club: Club) -> list[tuple[str, str]]:
    """(who, URL) for every page of ``club``: "owner" or "anyone" (the live links and the
    invitations, which are opened signed out)."""
    urls = ["/", "/clubs/", f"/clubs/{club.pk}/", "/players/", "/games/deleted/", "/games/new/"]
    anyone = []
    for game in club.games.all():
        base = f"/games/{game.pk}/"
        urls += [base, f"{base}hands/all/", f"{base}history/", f"{base}hands/1/"]
        anyone.append(f"/live/{game.share_token}/")
    players = club.players.values_list("pk", flat=True)
    tokens = club.invitations.values_list("token", flat=True)
    seasons = ["", "all", *(str(pk) for pk in club.seasons.values_list("pk", flat=True))]
    urls += ["/seasons/manage/", *(f"/seasons/{pk}/" for pk in seasons[2:])]
    for season in seasons:
        query = f"?season={season}" if season else ""
        urls += [f"/seasons/{query}", f"/seasons/ledger/{query}"]
        urls += [f"/seasons/export/{name}{query}" for name in ("leaderboard.csv", "games.json")]
        urls += [f"/seasons/players/{pk}/{query}" for pk in players]
    anyone += [f"/invitations/{token}/" for token in tokens]
    return [("owner", url) for url in urls] + [("anyone", url) for url in anyone]


def assert_pages_answer(club: Club, owner: Any) -> None:
    """Every page of ``club`` answers without a 5xx (the test client raises what a view
    raised, so a failing view fails here with its traceback)."""
    clients = {"owner": sign_in(Client(), owner, club), "anyone": Client()}
    for who, url in club_pages(club):
        status = clients[who].get(url).status_code
        assert status < 500, f"{url} ({who}): {status}"


def import_file(folder: Path, data: Any, owner: str) -> str:
    """The club id ``import_club`` prints for ``data`` written to a file (a CommandError
    when it refuses it)."""
    path = folder / "club.json"
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    call_command("import_club", str(path), "--owner", owner, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()
