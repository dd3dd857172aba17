from django.apps import AppConfig


class PitchkeeperConfig(AppConfig):
    name = "pitchkeeper"
    default_auto_field = "django.db.models.BigAutoField"
