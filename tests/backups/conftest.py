"""The backed-up clubs of test_backup, for the other backup tests too."""

from tests.backups.test_backup import full_club, whole_club  # noqa: F401 (fixtures)
