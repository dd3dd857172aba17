"""Backups: a whole club written to one file and read back (export_club, import_club)."""
