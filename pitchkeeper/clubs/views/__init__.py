"""The views of the clubs domain: clubs, accounts and the roster."""
