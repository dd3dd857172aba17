"""Games: the games, their seats and hands, the change history, the game screen, the new
game screen, the home screen and the live scoreboard. Everything a game derives comes
from the rules engine (pitchkeeper.rules)."""
