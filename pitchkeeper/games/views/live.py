"""The live scoreboard: read only, for the other players' phones or a TV by the table.

Pages poll every few seconds, so an unchanged game is answered 304 Not Modified from
one small query (the ETag), without loading or replaying its hands.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.crypto import salted_hmac
from django.utils.translation import get_language

from pitchkeeper.core.pages import is_partial, polled
from pitchkeeper.games.board import board
from pitchkeeper.games.hand_words import history
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state

# Enough to see what just happened without pushing the scores off a phone's screen.
RECENT_HANDS = 4


def live_etag(request: HttpRequest, token: str) -> str | None:
    """Everything the answer depends on: the game's last change, the language, and page
    or fragment. None for an unknown token, which the view answers 404.

    The tag is an HMAC of those with the SECRET_KEY: a spectator's browser keeps it, and
    it must not tell them the game's database id or when it was last changed."""
    updated = Game.objects.alive().filter(share_token=token).values_list("updated").first()
    if updated is None:
        return None
    part = "board" if is_partial(request) else "page"
    version = f"{token}\n{updated[0].isoformat()}\n{get_language()}\n{part}"
    return salted_hmac("pitchkeeper.live.etag", version, algorithm="sha256").hexdigest()[:32]


@login_not_required
@polled(live_etag)
def live(request: HttpRequest, token: str) -> HttpResponse:
    # A deleted game's link answers 404 like a revoked one (until the game is restored).
    game = get_object_or_404(Game.objects.alive(), share_token=token)
    state = game_state(game=game)
    context = {
        "board": board(state),
        "hands": history(state, first=len(state.result.hands) - RECENT_HANDS + 1),
    }
    return render(
        request, "games/live.html#board" if is_partial(request) else "games/live.html", context
    )
