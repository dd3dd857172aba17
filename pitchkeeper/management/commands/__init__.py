"""The management commands themselves, one module each."""
