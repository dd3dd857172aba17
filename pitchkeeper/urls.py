from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from pitchkeeper.views import core, games, live, players, setup

urlpatterns = [
    path("", core.home, name="home"),
    path("health/", core.health, name="health"),
    path("players/", players.player_list, name="players"),
    path("players/<int:pk>/", players.player_edit, name="player"),
    path("games/new/", setup.game_new, name="game_new"),
    path("games/<int:pk>/", games.game_detail, name="game"),
    path("games/<int:pk>/hands/", games.hand_add, name="hand_add"),
    path("games/<int:pk>/hands/<int:number>/", games.hand_change, name="hand_edit"),
    path("games/<int:pk>/hands/<int:number>/delete/", games.hand_remove, name="hand_delete"),
    path("games/<int:pk>/auction/", games.auction, name="auction"),
    path("games/<int:pk>/undo/", games.undo, name="undo"),
    path("games/<int:pk>/redo/", games.redo, name="redo"),
    path("games/<int:pk>/rematch/", games.rematch, name="rematch"),
    path("live/<str:token>/", live.live, name="live"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
