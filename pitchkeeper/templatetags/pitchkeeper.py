"""Template tags for Pitchkeeper: ``{% load pitchkeeper %}``."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

import segno
from django import template
from django.template.context import Context
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from pitchkeeper.games.board import Board
from pitchkeeper.games.board import result_text as board_result_text
from pitchkeeper.games.chips import chips_said
from pitchkeeper.games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def share_url(context: Context, game: Game) -> str:
    """The absolute address of a game's live scoreboard, for a link or a QR code."""
    return context["request"].build_absolute_uri(reverse("live", args=[game.share_token]))


@register.simple_tag
def result_text(board: Board, url: str) -> str:
    """``{% result_text board url as text %}``: a finished game's result to share."""
    return board_result_text(board, url)


@register.simple_tag(name="share_qr")
def share_qr_svg(url: str, label: str | None = None) -> SafeString:
    """``url`` as a QR code in inline SVG, scaled by CSS through its viewBox, named
    ``label`` for screen readers (by default, the live scoreboard's link).

    Dark on an explicit light background so it still scans in dark mode; a quiet zone
    of 4 modules as the standard asks, since phone cameras misread tighter ones."""
    return _qr_svg(url, label or _("QR code of the live scoreboard link"))


# Encoding a code took longer than the rest of the game screen; a game's link stays
# the same from hand to hand, so each link is encoded once per language.
@functools.lru_cache(maxsize=256)
def _qr_svg(url: str, label: str) -> SafeString:
    svg = segno.make(url).svg_inline(
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        lineclass=None,
        title=label,
    )
    # Safe: segno writes only numbers and fixed markup and escapes the title itself;
    # format_html escapes the label in the attribute.
    labelled = format_html('<svg role="img" aria-label="{}" ', label)
    return mark_safe(svg.replace("<svg ", labelled, 1))


@register.simple_tag(name="chips")
def chips_tag(chips: int, phrase: str = "chips", sign: bool = False, **words: Any) -> str:
    """``{% chips -1 %}`` is "-1 chip"; ``{% chips 3 "pays" payer=a payee=b %}`` a whole
    phrase (games.chips, the one way chips are worded)."""
    return chips_said(chips, phrase, sign=sign, **{key: str(value) for key, value in words.items()})


@register.filter
def ago(moment: datetime) -> str:
    """How long ago ``moment`` was, in the user's language; under a minute "just now", as
    humanize's naturaltime has it, where timesince alone would say "0 minutes"."""
    if timezone.now() - moment < timedelta(minutes=1):
        return _("just now")
    return _("%(ago)s ago") % {"ago": timesince(moment)}
