"""The hand-entry form's posted fields read into a hand record: written once, run by the
server after its form has checked each field, and by the phone (through projection.py)
for the totals it shows before the server answers, or offline.

The fields, as the form names them and posts them (every value a text):

- ``contract``: ``"<pitcher>:<bid>"``, one tap on the grid; or ``pitcher`` and ``bid``.
- ``auction_<i>``: the whole auction, turn by turn in bidding order from the dealer's
  left, each a bid or ``"pass"``; it takes the place of the pitcher and bid.
- ``point_<key>``: the side that took a point, or ``"nobody"``.
- ``count_<key>_<i>``: how many of a counted point the ``i``-th side took (blank is 0).
- ``partner``: who held the called card, or ``"alone"``.
- ``revoked``, ``forced``: the players ticked, any number of values.
- ``all_tricks``: ticked when the pitcher's side took every trick.

The button pressed (``action``) says what the hand is: ``"save"`` the fields above,
``"misdeal"`` or ``"passed"`` (everybody passed) with no fields read. Names the rules do
not ask for (the page's token, its basis) are left alone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .auction import bidding_order, legal_bids
from .bids import all_bids
from .errors import RuleError, RuleErrors
from .results import HandRecord, Scores
from .ruleset import Bid, Ruleset
from .seating import Seating

# What the form posts for a point nobody took, a pitcher who held the called card, and
# a turn passed.
NOBODY = "nobody"
ALONE = "alone"
PASS = "pass"
ACTIONS = ("save", "misdeal", "passed")
# Rounds of auction fields offered where the auction goes round until all but one pass;
# an edited hand whose recorded auction is longer gets as many fields as it needs.
AUCTION_ROUNDS = 4
# However long an auction a page sends back, no more fields than this are read.
MOST_AUCTION_FIELDS = 200
# What a ticked box may post and still mean "not ticked", as Django's checkbox reads it.
UNTICKED = ("", "false", "0")
# Beyond any count a pack holds, and short enough for int() to read.
MOST_COUNT_DIGITS = 100

Fields = Mapping[str, Sequence[str]]


def bid_value(text: str) -> Bid:
    """A bid as the form sends it ("6", "6x2", "moon") as the engine takes it: a moon
    bid's key starts with a letter and a doubled bid has its "x", so only a plain number
    is all digits."""
    return int(text) if text.isascii() and text.isdigit() else text


def auction_size(rules: Ruleset, players: int, names: Iterable[object]) -> int:
    """How many auction fields the form has: one round, or AUCTION_ROUNDS where the
    auction goes round; more when ``names`` (the posted fields, or an edited hand's
    initial values) hold a longer auction, so that nothing entered is dropped."""
    size = players * (AUCTION_ROUNDS if rules.auction_until_one else 1)
    if not rules.auction_until_one:
        return size
    for name in names:
        number = name.removeprefix("auction_") if isinstance(name, str) else ""
        if name != number and number.isdecimal() and len(number) <= 3:
            size = max(size, int(number) + 1)
    return min(size, MOST_AUCTION_FIELDS)


@dataclass(frozen=True)
class Turn:
    """One turn of the whole auction as far as it is entered: its field's number, who
    bids, and the entries the rules allow them (bids as the form sends them, and PASS)."""

    index: int
    player: str
    allowed: frozenset[str]


@dataclass(frozen=True)
class AuctionOffer:
    """What the whole auction's fields offer, read from their entries so far: the
    turns as far as each entry is one the rules allow (the last turn is the first entry
    missing or refused), whether the auction is over after them, and how many fields
    are shown (the first round, each turn open, and anything else entered)."""

    turns: tuple[Turn, ...]
    over: bool
    shown: int


def auction_offer(
    rules: Ruleset,
    seating: Seating,
    dealer: str,
    entries: Sequence[str | None],
    scores: Scores | None = None,
    forced: Collection[str] = (),
) -> AuctionOffer:
    """The offer of the auction fields whose entries (each field's posted value, or
    None) are ``entries``, dealt by ``dealer``, at ``scores`` before the hand, with the
    players ticked in ``forced``. The server draws its form from it, and the phone
    redraws its own with it while hands wait on it to be sent."""
    order = bidding_order(seating, dealer)
    forced = tuple(name for name in order if name in forced)
    so_far: list[tuple[str, Bid | None]] = []
    turns: list[Turn] = []
    over = False
    for index, entry in enumerate(entries):
        try:
            player, bids, may_pass = legal_bids(rules, seating, dealer, so_far, scores, forced)
        except RuleError:  # everybody but one has passed
            over = True
            break
        allowed = frozenset({str(bid) for bid in bids} | ({PASS} if may_pass else set()))
        turns.append(Turn(index, player, allowed))
        if entry not in allowed:
            break
        so_far.append((player, None if entry == PASS else bid_value(entry)))
    entered = [index for index, entry in enumerate(entries) if entry]
    shown = max(len(order), len(turns), entered[-1] + 1 if entered else 0)
    return AuctionOffer(tuple(turns), over, shown)


def hand_from_fields(
    fields: Fields,
    *,
    rules: Ruleset,
    seating: Seating,
    dealer: str,
    action: str = "save",
) -> HandRecord:
    """The hand the posted ``fields`` ({name: [values]}) describe, dealt by ``dealer``. A field
    posted more than once counts by its last value, as the server's form reads it.
    Raises RuleError for an entry not one the form offers, and RuleErrors naming every
    entry missing (the pitcher and bid, each point, the partner) at once, so that a
    player fixes them in one go; whether the rules allow the hand is the engine's to
    say when it is played."""
    if action not in ACTIONS:
        raise _not_offered("action", action)
    if action == "misdeal":
        return HandRecord(misdeal=True)
    order = bidding_order(seating, dealer)
    if action == "passed":
        return HandRecord(auction=tuple((name, None) for name in order))
    entry = _Entry(fields, rules, seating, order)
    auction = entry.auction(dealer)
    pitcher, bid = entry.contract()
    missing: list[RuleError] = []
    if auction is None and rules.bidding and not (pitcher and bid):
        missing.append(RuleError("entry_contract", {}, field="pitcher" if not pitcher else "bid"))
    points = entry.points(missing)
    partner = entry.partner(missing)
    if missing:
        raise RuleErrors(missing)
    return HandRecord(
        auction=auction,
        pitcher=None if auction else pitcher,
        bid=None if auction or not bid else bid_value(bid),
        points=points,
        revoked=entry.players("revoked"),
        forced=entry.players("forced") if rules.forced_bid is not None else (),
        all_tricks=entry.all_tricks(),
        partner=partner,
    )


def _not_offered(field: str, value: str) -> RuleError:
    return RuleError("entry_not_offered", {"field": field, "value": value}, field=field)


class _Entry:
    """The posted fields of one hand, each read as the form offers it."""

    def __init__(
        self, fields: Fields, rules: Ruleset, seating: Seating, order: tuple[str, ...]
    ) -> None:
        self.fields = fields
        self.rules = rules
        self.seating = seating
        self.order = order
        self.bids = {str(bid) for bid in all_bids(rules)} if rules.bidding else set()

    def one(self, name: str, allowed: Iterable[str] | None = None) -> str:
        """The field's value ("" when not posted), refused when not among ``allowed``."""
        values = self.fields.get(name) or ()
        value = str(values[-1]) if values else ""
        if value and allowed is not None and value not in allowed:
            raise _not_offered(name, value)
        return value

    def contract(self) -> tuple[str | None, str | None]:
        if not self.rules.bidding:
            return None, None
        pitcher = self.one("pitcher", self.order) or None
        bid = self.one("bid", self.bids) or None
        grid = self.one("contract")
        if grid:
            pitcher, _colon, bid = grid.rpartition(":")
            if pitcher not in self.order or bid not in self.bids:
                raise _not_offered("contract", grid)
        return pitcher, bid

    def auction(self, dealer: str) -> tuple[tuple[str, Bid | None], ...] | None:
        """The auction as entered, each entry with the player whose turn it was; None
        when no turn is entered."""
        if not self.rules.bidding:
            return None
        size = auction_size(self.rules, len(self.order), self.fields)
        offered = self.bids | {PASS}
        entries = [self.one(f"auction_{i}", offered) or None for i in range(size)]
        filled = [index for index, entry in enumerate(entries) if entry]
        if not filled:
            return None
        bidders = self._bidders(entries, dealer)
        auction: list[tuple[str, Bid | None]] = []
        for index in range(max(filled[-1] + 1, len(self.order))):
            entry, player = entries[index], bidders[index]
            if player is None:
                after = next(i for i in filled if i >= index)
                raise RuleError("entry_auction_over", {}, field=f"auction_{after}")
            if not entry:
                raise RuleError("entry_no_bid", {"name": player}, field=f"auction_{index}")
            auction.append((player, None if entry == PASS else bid_value(entry)))
        return tuple(auction)

    def _bidders(self, entries: list[str | None], dealer: str) -> list[str | None]:
        """Whose turn each entry is, after the entries before it (only who passed
        matters for that); None from where the auction is over."""
        so_far: list[tuple[str, Bid | None]] = []
        bidders: list[str | None] = []
        for entry in entries:
            try:
                player = legal_bids(self.rules, self.seating, dealer, so_far)[0]
            except RuleError:  # everybody but one has passed
                break
            bidders.append(player)
            so_far.append((player, None if entry in (None, PASS) else bid_value(str(entry))))
        return bidders + [None] * (len(entries) - len(bidders))

    def points(self, missing: list[RuleError]) -> dict[str, object]:
        """Who took each point; a point not given is added to ``missing``."""
        sides = self.seating.sides
        points: dict[str, object] = {}
        for category in self.rules.categories:
            if category.kind == "one":
                name = f"point_{category.key}"
                allowed = [*sides, *([] if category.required else [NOBODY])]
                value = self.one(name, allowed)
                if not value:
                    missing.append(
                        RuleError(
                            "entry_point",
                            {"point": category.label},
                            field=f"points.{category.key}",
                        )
                    )
                    continue
                points[category.key] = None if value == NOBODY else value
            else:
                points[category.key] = {
                    side: self._count(f"count_{category.key}_{index}", category.max_count)
                    for index, side in enumerate(sides)
                }
        return points

    def _count(self, name: str, most: int | None) -> int:
        """A count as typed: blank is none; a whole number in plain digits (spaces around
        it allowed, "-0" being 0, as the server's form reads it), from 0 to ``most``."""
        text = self.one(name)
        if not text:
            return 0
        digits = text.strip(" ")
        sign, number = ("-", digits[1:]) if digits.startswith("-") else ("", digits)
        if not (number.isascii() and number.isdigit() and len(number) <= MOST_COUNT_DIGITS):
            raise _not_offered(name, text)
        count = int(sign + number)
        if count < 0 or (most is not None and count > most):
            raise _not_offered(name, text)
        return count

    def players(self, name: str) -> tuple[str, ...]:
        values = tuple(str(value) for value in self.fields.get(name) or ())
        for value in values:
            if value not in self.order:
                raise _not_offered(name, value)
        return values

    def all_tricks(self) -> bool:
        if not (
            self.rules.smudge == "all_tricks" or any(m.all_tricks for m in self.rules.moon_bids)
        ):
            return False
        return self.one("all_tricks").lower() not in UNTICKED

    def partner(self, missing: list[RuleError]) -> str | None:
        """The called partner; not given, it is added to ``missing``."""
        if not self.rules.called_partner:
            return None
        partner = self.one("partner", [*self.order, ALONE])
        if not partner:
            missing.append(RuleError("entry_partner", {}, field="partner"))
            return None
        return None if partner == ALONE else partner
