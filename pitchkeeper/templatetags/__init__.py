"""Template tags: ``{% load pitchkeeper %}`` (Django looks for them here)."""
