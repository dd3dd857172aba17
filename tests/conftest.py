"""Shared pytest fixtures for Pitchkeeper (none yet)."""
