"""WSGI entry point for Pitchkeeper."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pitchkeeper.settings")

application = get_wsgi_application()
