"""The words of the game screen's offline queue (static/js/offline.js): fetched by the
script after the page has loaded, and kept by the service worker with the game page, so
that the page's first load carries none of them (docs/offline.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from pitchkeeper.games.access import member_game
from pitchkeeper.games.words import offline_phrases
from pitchkeeper.rules import resolve_rules


@require_GET
def queue_box(request: HttpRequest, pk: int) -> HttpResponse:
    """The queue's box for game ``pk``, in the user's language: for those who score."""
    game, _role = member_game(request, pk, "score")
    phrases = offline_phrases(resolve_rules(game.rules))
    return render(request, "games/_queue.html", {"game": game, "phrases": phrases})
