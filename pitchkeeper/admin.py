"""The Django admin: a read-mostly view of players and games for the operator."""

from __future__ import annotations

from django.contrib import admin

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game, Hand, Seat

# Hands change only through the services, which replay the game; the admin shows them.
DERIVED = ("finished_at", "winner", "winner_team", "won_by")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "retired", "created")
    list_filter = ("retired",)
    search_fields = ("name",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("position", "player", "team")

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    can_delete = False
    fields = ("number", "kind", "dealer", "pitcher", "bid", "made", "points", "revoked")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("pk", "created", "finished_at", "winner", "winner_team", "won_by")
    list_filter = ("won_by",)
    # Whether a game counts changes on its own screens (practice, delete, restore),
    # whose services tell the statistics; deleting it here goes through Game.delete.
    readonly_fields = ("rules", "first_dealer", "created", *DERIVED, "counts", "deleted_at")
    inlines = (SeatInline, HandInline)

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "kind", "dealer", "pitcher", "bid", "made")
    list_select_related = ("game", "dealer", "pitcher")
    readonly_fields = [f.name for f in Hand._meta.fields]

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False
