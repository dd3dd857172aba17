"""The forms of the games domain: entering a hand and setting up a game."""
