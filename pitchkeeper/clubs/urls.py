"""The clubs' URLs: clubs, invitations, signing up and the roster."""

from __future__ import annotations

from django.urls import path

from pitchkeeper.clubs.views import accounts, clubs, players

urlpatterns = [
    path("players/", players.player_list, name="players"),
    path("players/<int:pk>/", players.player_edit, name="player"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/<int:pk>/", clubs.club_detail, name="club"),
    path("clubs/<int:pk>/switch/", clubs.club_switch, name="club_switch"),
    path("invitations/<token:token>/", clubs.invitation_accept, name="invitation"),
    path("accounts/signup/", accounts.signup, name="signup"),
]
