"""Management commands (Django looks for them here); each is a thin shell around a service
of its domain."""
