"""The seasons themselves: listing, adding, renaming and ending them (owners only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from pitchkeeper.clubs.access import ROLES_FOR, club_view
from pitchkeeper.clubs.names import name_clean, name_unlike
from pitchkeeper.core.limits import FIRST_DAY, LAST_DAY, PlainDecimalField
from pitchkeeper.core.pages import is_partial
from pitchkeeper.seasons.models import SEASON_NAME_LENGTH, Season
from pitchkeeper.seasons.views.shared import club_of

# The browser's date picker keeps to the days the model accepts.
DAY_ATTRS = {"type": "date", "min": FIRST_DAY.isoformat(), "max": LAST_DAY.isoformat()}


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "start", "end", "chip_value"]
        field_classes = {"chip_value": PlainDecimalField}
        widgets = {
            "start": forms.DateInput(attrs=DAY_ATTRS, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs=DAY_ATTRS, format="%Y-%m-%d"),
        }
        # A season has a title, which Russian words apart from a person's name.
        labels = {"name": pgettext_lazy("season", "Name")}
        help_texts = {
            "end": gettext_lazy("Leave empty for a season that runs on."),
            "chip_value": gettext_lazy(
                "Money per chip on the ledger; empty uses the games' own chip value."
            ),
        }

    def clean_name(self) -> str:
        """The name normalised like every name, and not one of the club's other seasons
        (nor looking like one)."""
        name = name_clean(
            self.cleaned_data["name"], limit=SEASON_NAME_LENGTH, empty=_("Give the season a name.")
        )
        others = Season.objects.filter(club=self.instance.club_id).exclude(pk=self.instance.pk)
        name_unlike(
            name,
            others.values_list("name", flat=True),
            duplicate=_("There is already a season called %(name)s."),
            where=_("a season of this club"),
        )
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            raise ValidationError({"end": _("The last day cannot be before the first.")})
        return data


@require_http_methods(["GET", "POST"])
@club_view(write="own")
def season_list(request: HttpRequest) -> HttpResponse:
    """The club's seasons; the owner adds one with a POST."""
    club = club_of(request)
    form = SeasonForm(request.POST or None, prefix="new", instance=Season(club=club))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            season = form.save()
            messages.success(request, _("%(name)s is ready.") % {"name": season.name})
            return redirect("seasons")
        status = 400
    return _seasons(request, form, status=status)


def _seasons(
    request: HttpRequest, form: SeasonForm, status: int = 200, **more: Any
) -> HttpResponse:
    club = club_of(request)
    seasons = list(Season.objects.filter(club=club))
    edits = more.pop("edits", {})
    context = {
        "form": form,
        "rows": [
            (s, edits.get(s.pk) or SeasonForm(instance=s, prefix=f"s{s.pk}")) for s in seasons
        ],
        "is_owner": request.membership.role in ROLES_FOR["own"],  # type: ignore[attr-defined]
        **more,
    }
    template = "seasons/seasons.html#list" if is_partial(request) else "seasons/seasons.html"
    return render(request, template, context, status=status)


@require_POST
@club_view(write="own")
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change or delete a season (``action`` "save" or "delete"); its games stay."""
    season = Season.objects.filter(club=club_of(request), pk=pk).first()
    if season is None:
        raise Http404
    if request.POST.get("action") == "delete":
        season.delete()
        messages.success(request, _("%(name)s is deleted.") % {"name": season.name})
        return redirect("seasons")
    form = SeasonForm(request.POST, instance=season, prefix=f"s{season.pk}")
    if form.is_valid():
        form.save()
        messages.success(request, _("%(name)s is saved.") % {"name": season.name})
        return redirect("seasons")
    return _seasons(
        request, SeasonForm(prefix="new"), status=400, edits={season.pk: form}, editing=season.pk
    )
