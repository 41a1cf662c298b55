"""Positions as the JSON of ``notation.md``: reading (strictly checked) and writing.

Besides the keys of ``notation.md``, a position may carry ``"turn"`` (the number of the turn
being played), so that the R4.3 safeguard survives a save and load; a position that gives it
is checked against it (see "What a position's turn implies" in ``docs/notation.md``), one
without it is a set-up position whose history is unknown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .cards import KING, RANK_OF, Card, card_str, parse_card
from .errors import NotationError, PositionError, quote
from .jsontext import load_json
from .rules import HAND_SIZE, SIDE_STACKS, TURN_LIMIT, Rules
from .seeds import check_seed
from .stacks import COMPLETE, fits, needs
from .state import PlayerState, Table

_KEYS = {"rules", "to_move", "stock", "center", "players", "score", "turn"}
_PLAYER_KEYS = {"payoff", "hand", "side"}


@dataclass(frozen=True, slots=True)
class SetUp:
    """A position read and checked: the parts :meth:`~.game.Game.from_position` builds a game
    from (``seed`` is the checked seed of the shuffles to come, or None for a fresh one)."""

    rules: Rules
    stock: list[Card]
    center: list[list[Card]]
    players: list[PlayerState]
    to_move: int
    turn: int
    score: tuple[int, int]
    seed: int | None


def position_to_json(game: Table) -> dict[str, Any]:
    """The position of ``game`` (lists bottom to top) as a JSON-ready object."""
    position: dict[str, Any] = {}
    rules = game.rules.to_json()
    if rules:
        position["rules"] = rules
    position["to_move"] = game.to_move
    position["stock"] = _names(game.stock)
    position["center"] = [_names(stack) for stack in game.center]
    position["players"] = [
        {"payoff": _names(p.payoff), "hand": _names(p.hand), "side": [_names(s) for s in p.side]}
        for p in game.players
    ]
    if game.turn != 1 and _agrees_with_turn(game):
        position["turn"] = game.turn
    if game.score != (0, 0):
        position["score"] = list(game.score)
    return position


def parse_position(position: dict[str, Any] | str, *, seed: int | None = None) -> SetUp:
    """Read a position; refuse one that does not parse or breaks the rules, saying why."""
    if seed is not None:
        seed = check_seed(seed)
    if isinstance(position, str):
        position = load_json(position, "position")
    if not isinstance(position, dict):
        raise NotationError("position", position, "expected a JSON object")
    _check_keys(position, "a position")
    unknown = sorted(set(position) - _KEYS)
    if unknown:
        known = ", ".join(sorted(_KEYS))
        raise PositionError(f"unknown key {quote(unknown[0])}; known keys: {known}")
    for key in ("to_move", "stock", "center", "players"):
        if key not in position:
            raise PositionError(f"the key {key!r} is missing")
    rules = Rules.from_json(position.get("rules"))
    to_move = position["to_move"]
    if type(to_move) is not int or to_move not in (0, 1):
        raise PositionError(f"to_move must be 0 or 1, not {quote(to_move)}")
    turn = position.get("turn", 1)
    if type(turn) is not int or not 1 <= turn <= TURN_LIMIT:
        raise PositionError(
            f"turn must be a whole number from 1 to {TURN_LIMIT}, not {quote(turn)}"
        )
    stock = _cards(position["stock"], "stock")
    center_json = position["center"]
    if not isinstance(center_json, list) or len(center_json) != rules.center_stacks:
        raise PositionError(f"center must be a list of {rules.center_stacks} center stacks")
    center = [_cards(stack, f"center {i + 1}") for i, stack in enumerate(center_json)]
    for i, stack in enumerate(center):
        _check_center(i, stack, rules)
    players_json = position["players"]
    if not isinstance(players_json, list) or len(players_json) != 2:
        raise PositionError("players must be a list of 2 players")
    players = [_player(data, i, rules) for i, data in enumerate(players_json)]
    if not players[to_move]["hand"]:
        raise PositionError(f"player {to_move + 1} is to move with an empty hand")
    _check_cards(stock, center, players, rules)
    if "turn" in position:  # a position without it is set up, its history unknown
        _check_turn(turn, to_move, players, rules)
    score = _score(position.get("score", [0, 0]), rules)
    return SetUp(
        rules,
        stock,
        center,
        [PlayerState(p["payoff"], p["hand"], p["side"]) for p in players],
        to_move,
        turn,
        score,
        seed,
    )


def _player(data: object, index: int, rules: Rules) -> dict[str, Any]:
    who = f"player {index + 1}"
    if not isinstance(data, dict):
        raise PositionError(f"{who} must be an object with payoff, hand and side")
    _check_keys(data, who)
    unknown = sorted(set(data) - _PLAYER_KEYS)
    missing = sorted(_PLAYER_KEYS - set(data))
    if unknown or missing:
        problem = f"has an unknown key {quote(unknown[0])}" if unknown else f"lacks {missing[0]!r}"
        raise PositionError(f"{who} {problem}; expected payoff, hand and side")
    payoff = _cards(data["payoff"], f"{who}'s pay-off pile")
    if not payoff:
        raise PositionError(f"{who}'s pay-off pile is empty: that game is already won")
    if len(payoff) > rules.payoff_size:
        raise PositionError(
            f"{who}'s pay-off pile holds {len(payoff)} cards; the rules deal {rules.payoff_size}"
        )
    hand = _cards(data["hand"], f"{who}'s hand")
    if len(hand) > HAND_SIZE:
        raise PositionError(f"{who}'s hand holds {len(hand)} cards; a hand holds at most 5")
    side_json = data["side"]
    if not isinstance(side_json, list) or len(side_json) != SIDE_STACKS:
        raise PositionError(f"{who}'s side must be a list of 4 side stacks")
    side = [_cards(s, f"{who}'s side stack {i + 1}") for i, s in enumerate(side_json)]
    return {"payoff": payoff, "hand": hand, "side": side}


def _cards(data: object, where: str) -> list[Card]:
    if not isinstance(data, list):
        raise PositionError(f'{where} must be a list of cards such as ["AS", "TD"]')
    try:
        return [parse_card(text) for text in data]
    except NotationError as error:
        raise PositionError(f"{where}: {error}") from None


def _check_center(index: int, stack: list[Card], rules: Rules) -> None:
    if len(stack) >= COMPLETE:
        raise PositionError(
            f"center {index + 1} holds {len(stack)} cards; a stack is complete and cleared at 12"
        )
    for value, card in enumerate(stack):  # each card was built on a stack of ``value``
        rank = RANK_OF[card]
        place = needs(value)  # the rank it must be, and its place in the stack
        if fits(rank, value, rules.king_can_start_stack):
            continue
        if rank == KING:
            raise PositionError(
                f"center {index + 1} starts with a King, which these rules forbid (R3.2)"
            )
        raise PositionError(
            f"center {index + 1}: {card_str(card)} cannot be card {place} of a stack "
            f"(that card must be a {place if place <= 10 else 'JQ'[place - 11]} or a King)"
        )


def _check_cards(
    stock: list[Card], center: list[list[Card]], players: list[dict[str, Any]], rules: Rules
) -> None:
    counts: Counter[Card] = Counter(stock)
    for stack in center:
        counts.update(stack)
    for p in players:
        counts.update(p["payoff"])
        counts.update(p["hand"])
        for s in p["side"]:
            counts.update(s)
    for card, count in sorted(counts.items()):
        if count > rules.decks:
            raise PositionError(
                f"{card_str(card)} appears {count} times; {rules.decks} decks hold {rules.decks}"
            )
    total = sum(counts.values())
    if total != rules.deck_size:
        missing = [card_str(c) for c in range(52) for _ in range(rules.decks - counts[c])]
        raise PositionError(
            f"the position holds {total} cards, not {rules.deck_size}; "
            f"missing: {' '.join(missing[:12])}{' …' if len(missing) > 12 else ''}"
        )


def _check_turn(turn: int, to_move: int, players: list[dict[str, Any]], rules: Rules) -> None:
    """Refuse what cannot happen by turn ``turn``: turns 1 to ``turn - 1`` each ended with
    one discard (R2.3), the players taking turns; a discard puts one card on a side stack,
    and only a build from a side stack takes one off (R3.1, R3.5)."""
    mover, waiting = players[to_move], players[1 - to_move]
    who = f"player {2 - to_move}"  # the player not to move
    if turn == 1:  # the deal (R1.2, R1.3); only the player to move has played since
        if len(waiting["payoff"]) != rules.payoff_size:
            raise PositionError(
                f"at turn 1 {who} has not played, so their pay-off pile holds "
                f"{rules.payoff_size} cards, not {len(waiting['payoff'])}"
            )
        if len(waiting["hand"]) != HAND_SIZE:
            raise PositionError(
                f"at turn 1 {who} has not played, so their hand holds {HAND_SIZE} cards, "
                f"not {len(waiting['hand'])}"
            )
    elif len(waiting["hand"]) >= HAND_SIZE:  # R2.1, R2.3: refilled to 5, then a discard
        raise PositionError(
            f"at turn {turn} {who} holds {len(waiting['hand'])} cards, but their turn ended "
            f"with a discard, after which a hand holds at most {HAND_SIZE - 1}"
        )
    # turns turn-1, turn-3 ... were the waiting player's; turn-2, turn-4 ... the mover's
    for player, discards, name in (
        (mover, (turn - 1) // 2, f"player {to_move + 1}"),
        (waiting, turn // 2, who),
    ):
        on_side = sum(len(pile) for pile in player["side"])
        if on_side > discards:
            made = "no discard" if discards == 0 else f"at most {discards} discard(s)"
            raise PositionError(
                f"{name}'s side stacks hold {on_side} cards, but by turn {turn} {name} has "
                f"made {made}, each putting one card there (R3.3)"
            )


def _agrees_with_turn(game: Table) -> bool:
    """Whether the game's position passes :func:`_check_turn`: one dealt by ``Game.new`` and
    played always does; one played on from a set-up position (no ``turn``) may not, and is
    then written as a set-up position, so that it always reads back."""
    players = [{"payoff": p.payoff, "hand": p.hand, "side": p.side} for p in game.players]
    try:
        _check_turn(game.turn, game.to_move, players, game.rules)
    except PositionError:
        return False
    return True


def _check_keys(data: dict[Any, Any], what: str) -> None:
    odd = [key for key in data if type(key) is not str]
    if odd:
        raise PositionError(f"{what} has a key that is not a string: {quote(odd[0])}")


def _score(score: object, rules: Rules) -> tuple[int, int]:
    if (
        not isinstance(score, list)
        or len(score) != 2
        or not all(type(s) is int and s >= 0 for s in score)
    ):
        raise PositionError(f"score must be two whole numbers of points, not {quote(score)}")
    if max(score) >= rules.match_target:  # R5.1: reaching the target ends the match
        raise PositionError(
            f"score {quote(score[0])}-{quote(score[1])} has reached the match target of "
            f"{rules.match_target}: that match is over (R5.1)"
        )
    return score[0], score[1]


def _names(cards: list[Card]) -> list[str]:
    return [card_str(card) for card in cards]
