"""Data kept from before clubs existed moves into a first club, nothing lost.

Every existing account becomes an owner of it, so whoever ran the app alone still
sees and manages everything they recorded.
"""

from django.conf import settings
from django.db import migrations


def into_first_club(apps, schema_editor):
    Club = apps.get_model("pitchkeeper", "Club")
    Player = apps.get_model("pitchkeeper", "Player")
    Game = apps.get_model("pitchkeeper", "Game")
    Membership = apps.get_model("pitchkeeper", "Membership")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    if not (Player.objects.exists() or Game.objects.exists()):
        return
    club = Club.objects.create(name="Pitchkeeper")
    Player.objects.filter(club__isnull=True).update(club=club)
    Game.objects.filter(club__isnull=True).update(club=club)
    Membership.objects.bulk_create(
        Membership(club=club, user=user, role="owner") for user in User.objects.all()
    )


def out_of_clubs(apps, schema_editor):
    """Backwards, the club columns are dropped again; the rows stay."""


class Migration(migrations.Migration):
    dependencies = [
        ("pitchkeeper", "0003_clubs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(into_first_club, out_of_clubs)]
