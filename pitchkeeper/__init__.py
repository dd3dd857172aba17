"""Pitchkeeper: a scorekeeper for Auction Pitch card tables. See docs/architecture.md."""
