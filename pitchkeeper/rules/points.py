"""A played hand's points: who took each category, whether the bid was made, and
what each side scores, the revokes and the pitcher's side counted as the seeds say."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .bids import Contract
from .errors import RuleError
from .results import Taken
from .ruleset import Category, Ruleset
from .seating import Seating


def points_taken(
    rules: Ruleset, seating: Seating, points: Mapping[str, Any]
) -> tuple[dict[str, Taken], dict[str, dict[str, int]]]:
    """Who took each category, and each side's points per category."""
    if not isinstance(points, Mapping):
        raise RuleError("points_not_map", {}, field="points")
    unknown = set(points) - {c.key for c in rules.categories}
    if unknown:
        known = tuple(c.key for c in rules.categories)
        params = {"unknown": tuple(sorted(map(str, unknown))), "known": known}
        raise RuleError("point_unknown", params, field="points")
    went_to: dict[str, Taken] = {}
    by_category: dict[str, dict[str, int]] = {}
    for category in rules.categories:
        if category.key not in points:
            code = "point_missing" if category.required else "point_missing_optional"
            raise RuleError(code, {"point": category.label}, field=f"points.{category.key}")
        went_to[category.key], by_category[category.key] = _one_category(
            category, seating, points[category.key]
        )
    return went_to, by_category


def _one_category(category: Category, seating: Seating, entry: Any) -> tuple[Taken, dict[str, int]]:
    where = f"points.{category.key}"
    if category.kind == "one":
        if entry is None:
            if category.required:
                raise RuleError("point_required", {"point": category.label}, field=where)
            return None, {}
        try:
            side = seating.side_of(entry)
        except RuleError as error:
            raise _refused(category, error) from None
        return side, {side: category.value}
    if not isinstance(entry, Mapping):
        raise RuleError("point_counted", {"point": category.label}, field=where)
    counts: dict[str, int] = {}
    for name, count in entry.items():
        try:
            side = seating.side_of(name)
        except RuleError as error:
            raise _refused(category, error) from None
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            params = {"point": category.label, "name": name, "count": count}
            raise RuleError("point_count_bad", params, field=where)
        counts[side] = counts.get(side, 0) + count
    if category.max_count is not None and sum(counts.values()) > category.max_count:
        params = {"point": category.label, "taken": sum(counts.values())}
        raise RuleError("point_too_many", {**params, "most": category.max_count}, field=where)
    counts = {side: n for side, n in counts.items() if n}
    return counts, {side: n * category.value for side, n in counts.items()}


def _refused(category: Category, error: RuleError) -> RuleError:
    """``error`` about who took ``category``, named as that point's."""
    params = {"point": category.label, "error": error}
    return RuleError("point_refused", params, field=f"points.{category.key}")


def took_everything(rules: Ruleset, points: Mapping[str, int]) -> bool:
    return all(points[c.key] == c.most_points and c.most_points > 0 for c in rules.categories)


def hand_teams(
    rules: Ruleset, sides: tuple[str, ...], pitching: str, partner: str | None
) -> tuple[tuple[str, ...], ...]:
    """Who scores together this hand, the pitcher first in its team: each side alone,
    or, with a called partner, the pitcher and partner against everybody else."""
    if not rules.called_partner:
        return tuple((side,) for side in sides)
    ours = (pitching,) if partner is None else (pitching, partner)
    return ours, tuple(side for side in sides if side not in ours)


@dataclass(frozen=True)
class Outcome:
    """A played hand scored, before any floor: whether the bid was made, each side's
    change, and what counting the points in order needs."""

    made: bool | None
    ours: tuple[str, ...]
    delta: dict[str, int]
    set_back: tuple[str, ...]
    # The pitcher's team, counted first when it scores on a bid (seed 000).
    first: tuple[str, ...]
    # Per category, what it counts for each scoring side outside ``first``.
    credited: dict[str, dict[str, int]]


def hand_outcome(
    rules: Ruleset,
    teams: tuple[tuple[str, ...], ...],
    ours: tuple[str, ...],
    by_category: dict[str, dict[str, int]],
    bid: Contract | None,
    revoked: tuple[str, ...],
    all_tricks: bool,
) -> Outcome:
    points = {team: dict.fromkeys(by_category, 0) for team in teams}
    team_of = {side: team for team in teams for side in team}
    for key, taken_by in by_category.items():
        for side, taken in taken_by.items():
            points[team_of[side]][key] += taken
    revoking = {team for team in teams if any(side in revoked for side in team)}
    made: bool | None = None
    if bid is not None:
        if bid.need is None:
            made = took_everything(rules, points[ours]) and (all_tricks or not bid.all_tricks)
        else:
            made = sum(points[ours].values()) >= bid.need
        # Seed 000, renonce: a pitcher that revoked is set back, whatever it took, so
        # it neither made its bid nor can win by a smudge or go out on this hand.
        made = made and ours not in revoking
    # Seed 000, renonce: a revoking side scores nothing and is set back by the bid;
    # when somebody else revoked, the pitcher scores what it took even short of the bid.
    pitcher_set = made is False and revoking <= {ours}
    others_score = rules.non_pitchers_score or (rules.non_pitchers_score_when_set and pitcher_set)
    # What the other teams count: every category, or only those anyone scores.
    theirs = tuple(c for c in rules.categories if others_score or c.key in rules.anyone_scores)
    delta: dict[str, int] = {}
    credited: dict[str, dict[str, int]] = {c.key: {} for c in rules.categories}
    set_back: list[str] = []
    first: tuple[str, ...] = ()
    for team in teams:
        counted: tuple[Category, ...] = ()
        if team in revoking or (team == ours and pitcher_set):
            change = -(bid.stake if bid else 0)
            if bid is not None:
                set_back.extend(team)
        elif team == ours:
            change = _pitcher_score(rules, bid, made, sum(points[ours].values()))
            if bid is not None:
                first = ours
            else:
                counted = rules.categories
        else:
            counted = theirs
            change = sum(points[team][c.key] for c in counted)
        for category in counted:
            if points[team][category.key]:
                for side in team:
                    credited[category.key][side] = points[team][category.key]
        for side in team:
            delta[side] = change
    return Outcome(made, ours, delta, tuple(set_back), first, credited)


def _pitcher_score(rules: Ruleset, bid: Contract | None, made: bool | None, taken: int) -> int:
    """What the pitcher's team scores when it is not set back."""
    if bid is None or not made:
        # Without bidding, or excused by another side's revoke though short of the bid.
        return taken
    if bid.fixed_score is not None:
        return bid.fixed_score
    score = taken
    if bid.need is not None:
        if rules.made_scores == "bid":
            score = min(score, bid.need)
        if taken == bid.need:
            score += rules.exact_bid_bonus
    return score * bid.multiplier
