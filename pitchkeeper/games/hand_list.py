"""The hands as the game screen and the hands screen list them: each board.HandRow as
an HTML list item, written in Python.

A template loop over the rows, each with a dozen tags and translations, took longer than
the rest of the game screen's table; written here the rows cost a small part of that.
The words are the same messages the template had, so their translations stand."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from pitchkeeper.games.board import HandRow


def hand_items(rows: Iterable[HandRow], *, game_id: int, can_score: bool) -> SafeString:
    """The ``<li>`` of each row, in the order given."""
    return mark_safe("".join(_item(row, game_id, can_score) for row in rows))  # noqa: S308


def _item(row: HandRow, game_id: int, can_score: bool) -> str:
    parts = [
        format_html(
            '<li class="card"><div class="row between"><strong>#{}</strong> '
            '<span class="muted">{}</span>',
            row.number,
            _("%(dealer)s dealt") % {"dealer": row.dealer},
        )
    ]
    if can_score:
        parts.append(
            format_html(
                ' <a href="{}">{}<span class="visually-hidden"> {}</span></a>',
                reverse("hand_edit", args=[game_id, row.number]),
                _("Edit"),
                _("hand %(number)s") % {"number": row.number},
            )
        )
    parts.append("</div>")
    if row.kind == "misdeal":
        parts.append(format_html("<p>{}</p>", _("Misdeal: the deal passes on.")))
    elif row.kind == "redeal":
        parts.append(format_html("<p>{}</p>", _("All passed: the same dealer deals again.")))
    else:
        parts.append(_played(row))
    if row.changes:
        parts.append(
            format_html(
                "<p>{}</p>",
                mark_safe(  # noqa: S308 - joined from format_html's escaped parts
                    ", ".join(
                        format_html(
                            "<span{}>{} {}{}</span>",
                            mark_safe(' class="neg"') if change < 0 else "",
                            side,
                            "+" if change > 0 else "",
                            change,
                        )
                        for side, change in row.changes
                    )
                ),
            )
        )
    parts.append("</li>")
    return "".join(parts)


def _played(row: HandRow) -> str:
    """A played hand: the contract and how it went, who took each point, who was
    forced to bid and who revoked."""
    if row.bid:
        said = escape(_("%(pitcher)s bid %(bid)s") % {"pitcher": row.pitcher, "bid": row.bid})
        if row.smudge:
            said += format_html(" ({})", _("smudge"))
        if row.partner_note:
            said += format_html(" ({})", row.partner_note)
        if row.stolen_from:
            stolen = _("stolen from %(name)s") % {"name": row.stolen_from}
            said += format_html(' <span class="tag steal">{}</span>', stolen)
        said += " " + _outcome(row)
    else:
        said = escape(_("%(pitcher)s pitched") % {"pitcher": row.pitcher})
    parts = [
        format_html("<p>{}</p>", mark_safe(said)),  # noqa: S308 - escaped above
        format_html(
            '<p class="muted">{}</p>',
            format_html_join(" · ", "{}: {}", ((p.label, p.went_to) for p in row.points)),
        ),
    ]
    if row.forced:
        parts.append(format_html("<p>{} {}</p>", _("Forced to bid:"), ", ".join(row.forced)))
    if row.revoked:
        parts.append(format_html("<p>{} {}</p>", _("Revoked:"), ", ".join(row.revoked)))
    return "".join(parts)


def _outcome(row: HandRow) -> SafeString:
    if row.outcome == "made":
        return format_html('<span class="tag made">✓ {}</span>', _("made"))
    if row.outcome == "set":
        return format_html('<span class="tag set">✗ {}</span>', _("set back"))
    return format_html('<span class="tag">{}</span>', _("short, excused by the revoke"))
