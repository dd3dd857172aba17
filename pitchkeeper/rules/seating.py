"""Who sits where: the players in seat order, the teams, and who deals and bids next."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import RuleError
from .ruleset import Ruleset


@dataclass(frozen=True)
class Team:
    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Seating:
    """The players in clockwise seat order and, in partnership games, their teams.

    A side is what scores: a player, or a team in a partnership game. Names are matched
    without regard to case, as players at a table do.
    """

    players: tuple[str, ...]
    teams: tuple[Team, ...] = ()
    # Each side a name stands for, by the name with its case folded: the scoring looks a
    # name up several times a hand, which a loop of casefolds made costly on the phone.
    _sides_by_name: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [*self.players, *(team.name for team in self.teams)]
        if any(not name.strip() for name in names):
            raise RuleError("name_missing", {}, field="players")
        folded = [name.casefold() for name in self.players]
        duplicate = next((n for n in self.players if folded.count(n.casefold()) > 1), None)
        if duplicate:
            raise RuleError("seated_twice", {"name": duplicate}, field="players")
        team_names = [team.name.casefold() for team in self.teams]
        if len(set(team_names)) != len(team_names):
            raise RuleError("team_names_same", {}, field="teams")
        if set(team_names) & set(folded):
            raise RuleError("team_is_player", {}, field="teams")
        by_folded = {name.casefold(): name for name in self.players}
        canonical = tuple(
            Team(t.name, tuple(by_folded.get(m.casefold(), m) for m in t.members))
            for t in self.teams
        )
        object.__setattr__(self, "teams", canonical)
        team_of = {member: team.name for team in canonical for member in team.members}
        sides = {name.casefold(): team_of.get(name, name) for name in self.players}
        sides.update((team.name.casefold(), team.name) for team in canonical)
        object.__setattr__(self, "_sides_by_name", sides)

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides in the seat order of their first member."""
        if not self.teams:
            return self.players
        return tuple(sorted((t.name for t in self.teams), key=lambda n: self._first_seat(n)))

    def _first_seat(self, team_name: str) -> int:
        team = next(t for t in self.teams if t.name == team_name)
        return min(self.players.index(member) for member in team.members)

    def player(self, name: object) -> str:
        """The seated player called ``name``."""
        if isinstance(name, str):
            for player in self.players:
                if player.casefold() == name.strip().casefold():
                    return player
        raise RuleError("not_a_player", {"name": name})

    def side_of(self, name: object) -> str:
        """The side of a player, or the team itself when ``name`` is a team's name."""
        side = self._sides_by_name.get(name.strip().casefold()) if isinstance(name, str) else None
        if side is not None:
            return side
        if not self.teams:
            raise RuleError("not_a_player", {"name": name})
        teams = tuple(t.name for t in self.teams)
        raise RuleError("not_a_side", {"name": name, "teams": teams})

    def check(self, rules: Ruleset) -> None:
        """Refuse a table the rules cannot be played at."""
        count = len(self.players)
        if not rules.min_players <= count <= rules.max_players:
            params = {"preset": rules.preset, "least": rules.min_players, "count": count}
            raise RuleError("player_count", {**params, "most": rules.max_players}, field="players")
        if rules.partnership and not self.teams:
            raise RuleError("needs_teams", {"preset": rules.preset}, field="teams")
        if not rules.partnership and self.teams:
            raise RuleError("no_teams", {"preset": rules.preset}, field="teams")
        if self.teams:
            self._check_teams()

    def _check_teams(self) -> None:
        members = [m for team in self.teams for m in team.members]
        for member in members:
            self.player(member)  # names an unknown member
        if sorted(members) != sorted(self.players) or len(self.teams) < 2:
            raise RuleError("team_members", {}, field="teams")
        sizes = {len(team.members) for team in self.teams}
        if len(sizes) != 1 or sizes == {1}:
            raise RuleError("team_sizes", {}, field="teams")
        # Partners alternate around the table: with k teams, seat i and seat i + k are partners.
        step = len(self.teams)
        for seat, player in enumerate(self.players):
            partner = self.players[(seat + step) % len(self.players)]
            if self.side_of(player) != self.side_of(partner):
                team = self.side_of(player)
                params = {"team": team, "step": step}
                raise RuleError("team_opposite", params, field="teams")
