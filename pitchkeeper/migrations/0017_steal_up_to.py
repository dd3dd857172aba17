# The partnership presets now refuse the steal of a 4 (seeds 000 and 001: `steal_up_to`
# 3). A game stored before was played under the old rule, and a stored ruleset without
# the setting would take the preset's new value: such a game is given `steal_up_to`
# null, the rule it was played under, so that its hands replay as they were scored.

from django.db import migrations


def keep_the_rule_played(apps, schema_editor):
    Game = apps.get_model("pitchkeeper", "Game")
    for game in Game.objects.filter(
        rules__preset__in=["partnership", "partnership-21"]
    ).only("rules"):
        if "steal_up_to" not in game.rules:
            game.rules["steal_up_to"] = None
            game.save(update_fields=["rules"])


class Migration(migrations.Migration):

    dependencies = [
        ("pitchkeeper", "0016_stats_indexes"),
    ]

    operations = [migrations.RunPython(keep_the_rule_played, migrations.RunPython.noop)]
