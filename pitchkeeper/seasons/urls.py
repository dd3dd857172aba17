"""The seasons' URLs, under /seasons/: the leaderboard, a player's page, the ledger,
the exports and the seasons themselves."""

from __future__ import annotations

from django.urls import path

from pitchkeeper.seasons.views import export, leaderboard, ledger, player, seasons

urlpatterns = [
    path("", leaderboard.leaderboard_page, name="leaderboard"),
    path("manage/", seasons.season_list, name="seasons"),
    path("<int:pk>/", seasons.season_edit, name="season_edit"),
    path("players/<int:pk>/", player.player_page, name="player_stats"),
    path("ledger/", ledger.ledger_page, name="ledger"),
    path(
        "ledger/payments/<int:pk>/take-back/",
        ledger.payment_take_back_page,
        name="payment_take_back",
    ),
    path("export/<str:name>", export.season_export, name="season_export"),
]
