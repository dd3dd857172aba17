"""Club nights: several tables at once, round after round, one standing and one payout."""
