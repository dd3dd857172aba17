"""Seasons: the seasons, the statistics derived from finished games, ratings, the chip
ledger and the exports of a span."""
