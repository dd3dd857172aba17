"""The nights' URLs, under /nights/: the list, a new night, a night and its actions, a
table's own link, and the room board (for the club, and read-only by link)."""

from __future__ import annotations

from django.urls import path

from pitchkeeper.nights import views

urlpatterns = [
    path("", views.night_list, name="nights"),
    path("new/", views.night_new, name="night_new"),
    path("<int:pk>/", views.night_detail, name="night"),
    path("<int:pk>/next/", views.night_next, name="night_next"),
    path("<int:pk>/start/", views.night_round_start, name="night_round_start"),
    path("<int:pk>/swap/", views.night_swap, name="night_swap"),
    path("<int:pk>/arrive/", views.night_arrive, name="night_arrive"),
    path("<int:pk>/leave/", views.night_leave, name="night_leave"),
    path("<int:pk>/close/", views.night_end, name="night_close"),
    path("<int:pk>/board/", views.night_board, name="night_board"),
    path("table/<token:token>/", views.night_table, name="night_table"),
    path("table/<token:token>/start/", views.night_table_start, name="night_table_start"),
    path("board/<token:token>/", views.night_board_shared, name="night_board_shared"),
]
