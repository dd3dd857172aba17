from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.i18n import set_language

from pitchkeeper.views import accounts, clubs, core, games, live, players, setup

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
    path("games/<int:pk>/share/", games.share_revoke, name="share_revoke"),
    path("live/<str:token>/", live.live, name="live"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/<int:pk>/", clubs.club_detail, name="club"),
    path("clubs/<int:pk>/switch/", clubs.club_switch, name="club_switch"),
    path("invitations/<str:token>/", clubs.invitation_accept, name="invitation"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The language can be chosen before signing in.
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("admin/", admin.site.urls),
]
