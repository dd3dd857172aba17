"""The games' URLs: the home screen, a game and its hands, the live scoreboard."""

from __future__ import annotations

from django.urls import path

from pitchkeeper.games.views import edits, games, home, live, offline, setup, table

urlpatterns = [
    path("", home.home, name="home"),
    path("games/new/", setup.game_new, name="game_new"),
    path("games/deleted/", games.games_deleted, name="games_deleted"),
    path("games/<int:pk>/", table.game_detail, name="game"),
    path("games/<int:pk>/hands/", table.hand_add, name="hand_add"),
    path("games/<int:pk>/hands/all/", table.game_hands, name="game_hands"),
    path("games/<int:pk>/auction/", table.auction, name="auction"),
    path("games/<int:pk>/queue/", offline.queue_box, name="queue_box"),
    path("games/<int:pk>/hands/<int:number>/", edits.hand_change, name="hand_edit"),
    path("games/<int:pk>/hands/<int:number>/auction/", table.auction, name="hand_auction"),
    path("games/<int:pk>/hands/<int:number>/delete/", edits.hand_remove, name="hand_delete"),
    path("games/<int:pk>/undo/", edits.undo, name="undo"),
    path("games/<int:pk>/redo/", edits.redo, name="redo"),
    path("games/<int:pk>/history/", edits.game_history, name="game_history"),
    path(
        "games/<int:pk>/history/<int:change>/restore/",
        edits.restore_change,
        name="change_restore",
    ),
    path("games/<int:pk>/rematch/", games.rematch, name="rematch"),
    path("games/<int:pk>/share/", games.share_revoke, name="share_revoke"),
    path("games/<int:pk>/counts/", games.game_counts, name="game_counts"),
    path("games/<int:pk>/delete/", games.game_remove, name="game_delete"),
    path("games/<int:pk>/restore/", games.game_unremove, name="game_restore"),
    path("live/<token:token>/", live.live, name="live"),
]
