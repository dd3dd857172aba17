"""The one error the engine raises: an entry the rules do not allow, as a code with its
parameters, and the English words of every code (REFUSALS), which the screens translate."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def gettext_noop(text: str) -> str:
    """Marks the engine's words for translation where they are written (makemessages
    collects the calls); the screens translate them when they show them, and the engine
    itself keeps them in English."""
    return text


# Each refusal's English words, by code. A parameter is a name, a number, a bid, a point's
# label ("point"), a preset ("preset"), a tuple of them (shown as a list: a tuple, as an
# entry read from JSON never is one, so a list entered is shown as entered), or a refusal
# itself (the part a refusal names, or the words of the legal bids).
REFUSALS: dict[str, str] = {
    # The auction and the bids (auction.py, bids.py).
    "auction_complete": gettext_noop("the auction is complete"),
    "auction_length": gettext_noop(
        "the auction must have each of the %(count)d players once, from %(first)s (left of "
        "the dealer) round to %(dealer)s, the dealer"
    ),
    "auction_entry": gettext_noop("each auction entry is a player and a bid (null for a pass)"),
    "auction_over_pass": gettext_noop(
        "the auction was over, everybody but %(high_bidder)s having passed, before "
        "%(player)s's pass"
    ),
    "auction_over_bid": gettext_noop(
        "the auction was over, everybody but %(high_bidder)s having passed, before "
        "%(player)s's %(bid)s"
    ),
    "auction_order": gettext_noop(
        "%(expected)s bids before %(player)s: the auction goes clockwise from %(first)s, "
        "left of the dealer, to %(dealer)s, the dealer"
    ),
    "dealer_must_bid": gettext_noop(
        "everybody else passed, so %(dealer)s, the dealer, must bid at least %(least)d"
    ),
    "forced_must_bid": gettext_noop(
        "%(player)s's hand forces a bid, so %(player)s must bid at least %(least)d"
    ),
    "no_steal_moon": gettext_noop(
        "%(dealer)s cannot take %(high_bidder)s's %(high_bid)s: a moon bid cannot be taken away"
    ),
    "no_steal": gettext_noop(
        "%(dealer)s cannot take %(high_bidder)s's %(high_bid)s: a bid of %(level)d cannot be "
        "taken away"
    ),
    "bid_not_higher": gettext_noop(
        "%(player)s bid %(bid)s but %(high_bidder)s already bid %(high_bid)s; each bid must be "
        "higher"
    ),
    "auction_not_over": gettext_noop(
        "the auction goes round until all but one have passed: %(waiting)s must still bid or pass"
    ),
    "bid_not_number": gettext_noop("%(player)s's bid must be a whole number or a pass"),
    "bid_not_listed": gettext_noop("%(player)s's bid must be a pass or a bid %(bids)s"),
    "bid_unknown": gettext_noop("%(player)s bid %(typed)s; bids go %(bids)s"),
    "moon_in_hole": gettext_noop("%(player)s cannot bid %(bid)s: %(side)s is in the hole"),
    "moon_score": gettext_noop(
        "%(player)s cannot bid %(bid)s: %(side)s has %(score)d, and %(bid)s is only open "
        "below %(under)d"
    ),
    "bids_range": gettext_noop("from %(low)d to %(high)d"),
    "bids_range_doubled": gettext_noop("from %(low)d to %(high)d, doubled %(low)dx2 to %(high)dx2"),
    "bids_range_moons": gettext_noop("from %(low)d to %(high)d, or %(moons)s"),
    "bids_range_doubled_moons": gettext_noop(
        "from %(low)d to %(high)d, doubled %(low)dx2 to %(high)dx2, or %(moons)s"
    ),
    # A hand as a whole (engine.py).
    "game_won_before": gettext_noop("the game was won on hand %(number)d; no hand can follow it"),
    "game_drawn_before": gettext_noop(
        "the game was drawn on hand %(number)d; no hand can follow it"
    ),
    "dealer_rotation": gettext_noop("%(dealer)s deals this hand by the rotation, not %(given)s"),
    "misdeal_entries": gettext_noop("a misdeal has no bids, points or revokes"),
    "passed_entries": gettext_noop("everybody passed, so nothing was played: no points or revokes"),
    "no_bidding": gettext_noop("this game has no bidding: the eldest hand pitches"),
    "eldest_pitches": gettext_noop("without bidding %(eldest)s, left of the dealer, pitches"),
    "nobody_pitched": gettext_noop("everybody passed, so nobody pitched"),
    "auction_won_by": gettext_noop("the auction was won by %(pitcher)s"),
    "auction_won_with": gettext_noop("the auction was won with %(bid)s"),
    "contract_missing": gettext_noop("give the pitcher and the bid, or the whole auction"),
    "forced_bid_low": gettext_noop(
        "%(player)s's hand forced a bid of at least %(least)d, so the auction cannot have "
        "been won with %(bid)s"
    ),
    "no_forced": gettext_noop("in this game no hand forces a bid"),
    "no_partner": gettext_noop("only a game where the pitcher calls a partner names one"),
    "partner_is_pitcher": gettext_noop(
        "%(pitcher)s pitched; leave the partner out when %(pitcher)s held the called card"
    ),
    # The hand-entry form's fields (entry.py); the words the form has always shown.
    "entry_contract": gettext_noop("Choose the pitcher and the bid, or record the whole auction."),
    "entry_point": gettext_noop("Say who took %(point)s."),
    "entry_partner": gettext_noop(
        "Say who held the called card, or that the pitcher played alone."
    ),
    "entry_auction_over": gettext_noop(
        "The auction was over before this entry: all but one had passed."
    ),
    "entry_no_bid": gettext_noop("%(name)s has no bid or pass yet"),
    "entry_not_offered": gettext_noop("%(field)s: %(value)s is not among the choices offered"),
    # The points (points.py).
    "points_not_map": gettext_noop("points must map each category to who took it"),
    "point_unknown": gettext_noop("unknown point %(unknown)s; this game scores %(known)s"),
    "point_missing": gettext_noop("say who took %(point)s"),
    "point_missing_optional": gettext_noop("say who took %(point)s (or nobody)"),
    "point_required": gettext_noop("%(point)s always goes to somebody in a played hand"),
    "point_refused": gettext_noop("%(point)s: %(error)s"),
    "point_counted": gettext_noop("%(point)s is counted: give how many each side took"),
    "point_count_bad": gettext_noop(
        "%(point)s: %(name)s took %(count)r; give a whole number from 0"
    ),
    "point_too_many": gettext_noop("%(point)s: %(taken)d taken, but there are only %(most)d"),
    # The seats and the teams (seating.py).
    "name_missing": gettext_noop("every player and team needs a name"),
    "seated_twice": gettext_noop("%(name)s is seated twice; names must differ"),
    "team_names_same": gettext_noop("team names must differ"),
    "team_is_player": gettext_noop("a team cannot have the name of a player"),
    "not_a_player": gettext_noop("%(name)r is not a player at this table"),
    "not_a_side": gettext_noop("%(name)r is neither a player nor a team (%(teams)s) at this table"),
    "player_count": gettext_noop(
        "%(preset)s is played by %(least)d to %(most)d players, not %(count)d"
    ),
    "needs_teams": gettext_noop("%(preset)s is a partnership game: give the teams"),
    "no_teams": gettext_noop("%(preset)s is played each for himself, so there are no teams"),
    "team_members": gettext_noop(
        "every player must be in exactly one team, with at least two teams"
    ),
    "team_sizes": gettext_noop("teams must be of equal size, two or more players each"),
    "team_opposite": gettext_noop(
        "%(team)s's players must sit opposite each other, every %(step)d seats, so that the "
        "teams alternate around the table"
    ),
    # A club night's tables (nights.py).
    "night_too_few": gettext_noop(
        "%(count)d players are here, and a table needs at least %(least)d"
    ),
    "night_seated_twice": gettext_noop("%(name)s is seated twice in this round"),
    "night_not_here": gettext_noop("%(name)s is not here tonight"),
    "night_table_small": gettext_noop(
        "table %(table)d has %(count)d players, and needs at least %(least)d"
    ),
    "night_table_large": gettext_noop(
        "table %(table)d has %(count)d players, and takes at most %(most)d"
    ),
    "night_teams": gettext_noop("at table %(table)d, each team must be two partners"),
    # A game record, read from its JSON file (record.py).
    "number_digits": gettext_noop("a number has more than %(most)d digits: %(digits)s..."),
    "number_constant": gettext_noop("%(name)s is not a number JSON allows"),
    "file_too_large": gettext_noop("the file is larger than %(most)s characters"),
    "nested_too_deep": gettext_noop("the data is nested more than %(most)d levels deep"),
    "text_never_closed": gettext_noop(
        "not valid JSON: the text that opens at line %(line)d column %(column)d is never closed"
    ),
    "too_dense": gettext_noop(
        "the data holds more objects and lists than %(each)d characters each can make: no "
        "game record or backup is written so densely"
    ),
    "json_invalid": gettext_noop("not valid JSON: %(problem)s at line %(line)d column %(column)d"),
    "key_twice": gettext_noop('"%(key)s" is given twice'),
    "key_twice_at": gettext_noop('%(where)s: "%(key)s" is given twice'),
    "name_empty": gettext_noop("%(what)s must be a non-empty name"),
    "name_hidden": gettext_noop("%(what)s contains an invisible or control character (%(hidden)s)"),
    "name_too_long": gettext_noop("%(what)s is longer than %(most)d characters"),
    "each_player": gettext_noop("each player"),
    "each_team": gettext_noop("each team"),
    "each_player_of": gettext_noop("each player of %(team)s"),
    "player_name": gettext_noop("a player's name"),
    "game_not_object": gettext_noop("a game must be a JSON object"),
    "format_wrong": gettext_noop('"format" must be "%(format)s"'),
    "field_unknown": gettext_noop("unknown field %(unknown)s"),
    "players_not_list": gettext_noop('"players" must be a list of names in clockwise seat order'),
    "hands_not_list": gettext_noop('"hands" must be a list'),
    "too_many_hands": gettext_noop(
        "a game can have at most %(most)d hands (this one has %(count)d): no real game comes "
        "near, and longer ones would make its pages slow"
    ),
    "teams_not_map": gettext_noop('"teams" must map each team name to its players'),
    "team_not_list": gettext_noop("team %(team)s must list its players"),
    "hand_not_object": gettext_noop("a hand must be a JSON object"),
    "field_not_bool": gettext_noop('"%(key)s" must be true or false'),
    "field_not_name": gettext_noop('"%(key)s" must be a player\'s name'),
    "bid_not_whole": gettext_noop('"bid" must be a whole number'),
    "bid_not_written": gettext_noop(
        '"bid" must be a whole number or a bid written as text, such as "6x2" or "moon"'
    ),
    "revoked_not_list": gettext_noop('"revoked" must be a list of names'),
    "forced_not_list": gettext_noop('"forced" must be a list of names'),
    "points_not_object": gettext_noop('"points" must map each category to who took it'),
    "auction_not_pairs": gettext_noop(
        '"auction" must be a list of [player, bid] pairs, null for a pass'
    ),
    # A ruleset as a record or a backup writes it (resolve.py, ruleset.py).
    "setting_not_list": gettext_noop("%(setting)s must be a list"),
    "entry_not_object": gettext_noop("%(where)s must be an object with %(shape)s"),
    "entry_unknown": gettext_noop("%(where)s: unknown setting %(unknown)s"),
    "entry_key": gettext_noop("%(where)s: key must be a non-empty text"),
    "entry_type": gettext_noop("%(where)s (%(key)s): %(setting)s has the wrong type"),
    "entry_incomplete": gettext_noop("%(where)s (%(key)s): give its %(shape)s"),
    "shape_category": gettext_noop("key, label, value and kind"),
    "shape_moon": gettext_noop("key, label and value"),
    "rules_not_spec": gettext_noop("rules must be a preset name or an object of settings"),
    "preset_unknown": gettext_noop("unknown preset %(name)r; known presets: %(known)s"),
    "setting_unknown": gettext_noop("unknown rule setting %(unknown)s"),
    "setting_keys": gettext_noop("%(setting)s must be a list of category keys"),
    "setting_nullable": gettext_noop("%(setting)s must be a whole number or null (%(meaning)s)"),
    "null_max_bid": gettext_noop("open-ended"),
    "null_win_by": gettext_noop("no lead needed"),
    "null_score_floor": gettext_noop("no floor"),
    "null_lose_at": gettext_noop("nobody loses by falling"),
    "null_draw_at": gettext_noop("no draw"),
    "null_forced_bid": gettext_noop("no hand forces a bid"),
    "null_steal_up_to": gettext_noop("any bid below max_bid"),
    "setting_bool": gettext_noop("%(setting)s must be true or false"),
    "setting_whole": gettext_noop("%(setting)s must be a whole number"),
    "setting_text": gettext_noop("%(setting)s must be a text"),
    "setting_choice": gettext_noop("%(setting)s must be one of %(allowed)s"),
    "players_range": gettext_noop("players must be between 2 and 7, min_players <= max_players"),
    "setting_at_least_1": gettext_noop("%(setting)s must be at least 1"),
    "max_below_min": gettext_noop("max_bid must not be below min_bid"),
    "no_categories": gettext_noop("categories must not be empty"),
    "category_keys_twice": gettext_noop("category keys must be unique"),
    "category_kind": gettext_noop("category %(key)s: kind must be one or count"),
    "category_value": gettext_noop("category %(key)s: value must be at least 1"),
    "unknown_categories": gettext_noop("%(setting)s names unknown categories: %(unknown)s"),
    "smudge_needs_max": gettext_noop("a smudge is a bid of max_bid, so max_bid must be set"),
    "setting_negative": gettext_noop("%(setting)s must not be negative"),
    "moon_keys_twice": gettext_noop("moon bid keys must be unique"),
    "moon_key_form": gettext_noop(
        "moon bid %(key)r: its key must start with a small letter and hold only small "
        "letters, digits, - and _"
    ),
    "moon_value": gettext_noop("moon bid %(key)s: value must be at least 1"),
    "partner_with_teams": gettext_noop(
        "called_partner is for tables without fixed teams (partnership)"
    ),
    "partner_players": gettext_noop("a called partner needs at least 3 players (min_players)"),
    "win_by_low": gettext_noop("win_by must be at least 1, or null"),
    "setting_numbered_bid": gettext_noop("%(setting)s must be one of the numbered bids, or null"),
    "steal_until_one": gettext_noop("an auction that goes round until one is left has no steal"),
    "floor_above_zero": gettext_noop("score_floor must not be above 0"),
    "setting_below_zero": gettext_noop("%(setting)s must be below 0"),
}


def english(value: Any) -> Any:
    """A parameter as the English words show it: a tuple joined, a refusal by its words."""
    if isinstance(value, RuleError):
        return value.message
    if isinstance(value, tuple):
        return ", ".join(str(english(item)) for item in value)
    return value


class RuleError(ValueError):
    """An entry the rules do not allow, with the words a player needs to fix it.

    Raised by the engine as ``RuleError(code, params)``: ``code`` a key of REFUSALS and
    ``params`` its plain values, so that a screen can put it in the user's language;
    ``message`` is its English words. Raised with a message alone (no params), the
    message is shown as it is and ``code`` is None.

    ``hand`` is the 1-based hand number and ``field`` the entry at fault ("bid",
    "auction", "points.jack", ...), so a form can show the message next to its field.
    """

    def __init__(
        self,
        text: str,
        params: Mapping[str, Any] | None = None,
        *,
        field: str | None = None,
        hand: int | None = None,
    ):
        self.code = None if params is None else text
        self.params = dict(params or {})
        if params is not None:
            text = REFUSALS[text] % {name: english(value) for name, value in self.params.items()}
        super().__init__(text)
        self.message = text
        self.field = field
        self.hand = hand

    def __str__(self) -> str:
        if self.hand is None:
            return self.message
        return f"hand {self.hand}: {self.message}"

    @property
    def each(self) -> tuple[RuleError, ...]:
        """Every refusal this one stands for: itself alone, or those of a RuleErrors."""
        return (self,)

    def at_hand(self, number: int) -> RuleError:
        if self.code is None:
            return RuleError(self.message, field=self.field, hand=number)
        return RuleError(self.code, self.params, field=self.field, hand=number)


class RuleErrors(RuleError):
    """Several entries refused at once (every missing part of a hand's form): its own
    code, words and field are the first one's, and ``each`` holds them all."""

    def __init__(self, errors: Sequence[RuleError]) -> None:
        first = errors[0]
        if first.code is None:
            super().__init__(first.message, field=first.field, hand=first.hand)
        else:
            super().__init__(first.code, first.params, field=first.field, hand=first.hand)
        self.errors = tuple(errors)

    @property
    def each(self) -> tuple[RuleError, ...]:
        return self.errors
