"""Clubs: a club, its members and their roles, invitations, accounts and who may reach
what; and the club's roster of players."""
