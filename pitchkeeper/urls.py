from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path, register_converter
from django.views.i18n import set_language

from pitchkeeper.views import accounts, clubs, core, games, live, players, seasons, setup


class TokenConverter:
    """An unguessable link's token (secrets.token_urlsafe): anything else is not found
    before it reaches the database (PostgreSQL refuses text with a NUL byte in it)."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("", core.home, name="home"),
    path("health/", core.health, name="health"),
    path("players/", players.player_list, name="players"),
    path("players/<int:pk>/", players.player_edit, name="player"),
    path("games/new/", setup.game_new, name="game_new"),
    path("games/deleted/", games.games_deleted, name="games_deleted"),
    path("games/<int:pk>/", games.game_detail, name="game"),
    path("games/<int:pk>/hands/", games.hand_add, name="hand_add"),
    path("games/<int:pk>/hands/<int:number>/", games.hand_change, name="hand_edit"),
    path("games/<int:pk>/hands/<int:number>/delete/", games.hand_remove, name="hand_delete"),
    path("games/<int:pk>/auction/", games.auction, name="auction"),
    path("games/<int:pk>/undo/", games.undo, name="undo"),
    path("games/<int:pk>/redo/", games.redo, name="redo"),
    path("games/<int:pk>/rematch/", games.rematch, name="rematch"),
    path("games/<int:pk>/share/", games.share_revoke, name="share_revoke"),
    path("games/<int:pk>/history/", games.game_history, name="game_history"),
    path(
        "games/<int:pk>/history/<int:change>/restore/",
        games.restore_change,
        name="change_restore",
    ),
    path("games/<int:pk>/delete/", games.game_remove, name="game_delete"),
    path("games/<int:pk>/restore/", games.game_unremove, name="game_restore"),
    path("live/<token:token>/", live.live, name="live"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/<int:pk>/", clubs.club_detail, name="club"),
    path("clubs/<int:pk>/switch/", clubs.club_switch, name="club_switch"),
    path("invitations/<token:token>/", clubs.invitation_accept, name="invitation"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The language can be chosen before signing in.
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("admin/", admin.site.urls),
]
urlpatterns += [
    path("seasons/", seasons.leaderboard_page, name="leaderboard"),
    path("seasons/manage/", seasons.season_list, name="seasons"),
    path("seasons/<int:pk>/", seasons.season_edit, name="season_edit"),
    path("seasons/players/<int:pk>/", seasons.player_page, name="player_stats"),
    path("seasons/ledger/", seasons.ledger_page, name="ledger"),
    path("seasons/export/<str:name>", seasons.season_export, name="season_export"),
    path("games/<int:pk>/counts/", seasons.game_counts, name="game_counts"),
]
