from __future__ import annotations

from django.contrib import admin
from django.urls import path

from pitchkeeper import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("health/", views.health, name="health"),
]
