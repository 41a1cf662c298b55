"""The lessons, in the order a first-time player takes them; each cites the rules it teaches.

Every deal is made by :func:`.deal.lesson_position` and read by the engine; what the player
reads names cards in words, one way everywhere ("the Five of hearts", as the table names
them), never in notation. Every text is marked with ``N_`` (the lessons are made at import
time) and translated when it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.cards import RANK_OF
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.rules import Rules
from ..engine.stacks import needs
from ..i18n import N_, _, ngettext
from .deal import lesson_position
from .errors import TutorialError
from .lesson import PLAYER, Explain, Goal, Lesson, Step, sentences

RULES = Rules.QUICK
"""Ten-card pay-off piles, so the lesson's piles stay small; everything else standard."""

# TRANSLATORS: said when a learner discards too early, followed by what to do instead.
DISCARD_ENDS_TURN = N_("A discard ends your turn, and this is not the moment for it yet.")
"""Said before what to do instead, when a learner discards in the middle of a lesson's turn."""

Sentences = str | tuple[str, ...]
"""A marked message id, or several (whole sentences said one after the other)."""


def told(text: Sentences) -> str:
    """``text`` in the current language, each sentence translated on its own."""
    parts = (text,) if isinstance(text, str) else text
    return sentences(*(_(part) for part in parts))


def moves(*notations: str) -> Goal:
    """A goal met by exactly these moves."""
    wanted = frozenset(notations)
    return lambda game, move: move.notation in wanted


def any_discard(game: Game, move: Move) -> bool:
    return move.is_discard


def explain(default: Sentences, cases: Mapping[str, Sentences] | None = None) -> Explain:
    """A wrong legal move explained (in the current language when it is shown): by its
    notation when ``cases`` has it, ``"discard"`` for any other discard, else ``default``."""
    known = dict(cases or {})

    def why(game: Game, move: Move) -> str:
        if move.notation in known:
            return told(known[move.notation])
        if move.is_discard and "discard" in known:
            return told(known["discard"])
        return told(default)

    return why


def _payoff() -> Lesson:
    # R3.1: a build from the pay-off top; R3.4(a): the next card is turned up; R4.1.
    hint = N_("Pick your pay-off card, the Ace of spades, and put it on an empty center stack.")
    return Lesson(
        key="payoff",
        english_title=N_("Building from your pay-off pile"),
        english_intro=N_(
            "Your pay-off pile is the race: the first player to get rid of all of it wins "
            "the game. Only its top card is face up. Cards leave it only by being built on "
            "the center stacks, which start with an Ace and go up one card at a time."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["9C", "7D", "2H", "AS"],
            hand=["8S", "8H", "JD", "QC", "6C"],
            opponent_top="TD",
            opponent_hand=["3C", "4D", "5H", "9S", "JS"],
            opponent_payoff=10,
            seed=1,
        ),
        steps=(
            Step(
                say=N_(
                    "The top card of your pay-off pile is the Ace of spades. Every center "
                    "stack is empty, and an empty stack takes an Ace: build your Ace on one."
                ),
                goal=moves("P-C1", "P-C2", "P-C3"),
                wrong=explain(
                    (N_("Not that one: this lesson is about your pay-off pile."), hint),
                    {"discard": (DISCARD_ENDS_TURN, hint)},
                ),
                tip=hint,
                done=N_(
                    "Well done. The Ace starts the stack, and the next card of your pay-off "
                    "pile, the Two of hearts, is now face up."
                ),
                example="P-C1",
            ),
            Step(
                say=N_("The stack with your Ace needs a two: build your new pay-off card on it."),
                goal=lambda game, move: move.is_from_payoff and move.is_build,
                wrong=explain(
                    N_("Keep to your pay-off pile: its Two of hearts goes on your Ace."),
                    {
                        "discard": (
                            DISCARD_ENDS_TURN,
                            N_("Build the Two of hearts on your Ace first."),
                        )
                    },
                ),
                tip=N_(
                    "Your pay-off card, the Two of hearts, goes on the stack that holds the Ace."
                ),
                done=N_(
                    "Two cards gone from your pay-off pile. The Seven of diamonds is its new top; "
                    "no stack takes a seven yet."
                ),
                example="P-C1",
            ),
        ),
        summary=N_(
            "Whenever a center stack takes your pay-off card, build it: each one brings you "
            "closer to winning. Lesson done."
        ),
        rules=("R3.1", "R3.4(a)", "R4.1"),
    )


def _build_rank(rank: int) -> Goal:
    return lambda game, move: move.is_from_hand and move.is_build and move.hand_rank == rank


def _hand() -> Lesson:
    # R3.1: builds from the hand; R3.4(c): an emptied hand draws five at once; R2.1.
    # one whole sentence per rank, so that each language can say its own "the Ace", "the Two"
    say = {
        1: N_(
            "You can also build from your hand. Yours holds an Ace, a Two, a Three, a Four "
            "and a Five: start a center stack with the Ace."
        ),
        2: N_("Now build the Two on top of the Ace."),
        3: N_("Now build the Three on top of the Two."),
        4: N_("Now build the Four on top of the Three."),
    }
    first = {
        1: N_("Build the Ace from your hand first."),
        2: N_("Build the Two from your hand first."),
        3: N_("Build the Three from your hand first."),
        4: N_("Build the Four from your hand first."),
    }
    instead = {
        1: N_("Build the Ace from your hand."),
        2: N_("Build the Two from your hand."),
        3: N_("Build the Three from your hand."),
        4: N_("Build the Four from your hand."),
    }
    tip = {
        1: N_("Pick the Ace in your hand and put it on an empty center stack."),
        2: N_("Pick the Two in your hand and put it on your stack."),
        3: N_("Pick the Three in your hand and put it on your stack."),
        4: N_("Pick the Four in your hand and put it on your stack."),
    }
    steps = [
        Step(
            say=say[rank],
            goal=_build_rank(rank),
            wrong=explain(first[rank], {"discard": (DISCARD_ENDS_TURN, instead[rank])}),
            tip=tip[rank],
            done=N_("Good.") if rank > 1 else N_("Good: a stack is started."),
            example="HA-C1" if rank == 1 else f"H{rank}-C1",
        )
        for rank in (1, 2, 3, 4)
    ]
    steps.append(
        Step(
            say=N_(
                "Build your last card, the Five. Watch your hand: when it is empty in the middle "
                "of your turn, you draw five new cards at once and go on playing."
            ),
            goal=_build_rank(5),
            wrong=explain(
                N_("Build the Five from your hand."),
                {"discard": (DISCARD_ENDS_TURN, N_("Build the Five from your hand."))},
            ),
            tip=N_("Pick the Five in your hand and put it on your stack."),
            done=N_("Your hand was empty, so you drew five new cards straight away."),
            example="H5-C1",
        )
    )
    steps.append(
        Step(
            say=N_("The stack needs a six, and you have just drawn one: build it."),
            goal=_build_rank(6),
            wrong=explain(
                N_("Your new Six goes on the stack with the Five."),
                {"discard": (DISCARD_ENDS_TURN, N_("Build the Six from your hand on the Five."))},
            ),
            tip=N_("Pick the Six in your hand and put it on the stack with the Five."),
            done=N_("Your turn goes on as long as you can build."),
            example="H6-C1",
        )
    )
    return Lesson(
        key="hand",
        english_title=N_("Hand cards and the refill"),
        english_intro=N_(
            "At the start of each turn your hand is filled up to five cards from the stock. "
            "Hand cards can be built on the center stacks too, in any order you like."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["9C", "QD"],
            hand=["AH", "2S", "3D", "4C", "5H"],
            opponent_top="TD",
            opponent_hand=["3C", "4D", "5S", "9S", "JS"],
            opponent_payoff=10,
            draws=["6S", "7H", "TC", "JC", "8D"],
            seed=2,
        ),
        steps=tuple(steps),
        summary=N_(
            "Build from your hand when it helps you. An empty hand in the middle of a turn "
            "draws five more at once; at the start of every turn the hand is filled up to "
            "five. Lesson done."
        ),
        rules=("R2.1", "R3.1", "R3.4(c)"),
    )


def _kings() -> Lesson:
    # R3.1: a King is legal on any center stack and takes the value the stack needs.
    king_tip = N_(
        "Pick the King in your hand and put it on center 1, the stack with the Ten on top."
    )
    return Lesson(
        key="kings",
        english_title=N_("Kings are wild"),
        english_intro=N_(
            "A King goes on any center stack and counts as the card that stack needs next: "
            "a King on a Ten is a Jack, a King on an empty stack is an Ace."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["5C", "QH"],
            hand=["KS", "7C", "8D", "9H", "5S"],
            center=[
                ["AS", "2S", "3S", "4S", "5D", "6S", "7S", "8S", "9S", "TS"],
                ["AD", "2D", "3C"],
            ],
            opponent_top="TD",
            opponent_hand=["3H", "4D", "5H", "9C", "JS"],
            opponent_payoff=10,
            seed=3,
        ),
        steps=(
            Step(
                say=N_(
                    "Your pay-off card is a Queen, but center 1 has a Ten on top and needs "
                    "a Jack first. You have no Jack, but you have a King: put it on center 1, "
                    "where it counts as a Jack."
                ),
                goal=moves("HK-C1"),
                wrong=explain(
                    N_(
                        "Put the King on center 1: Pick the King in your hand and put it on "
                        "center 1, the stack with the Ten on top."
                    ),
                    {
                        "HK-C2": N_(
                            "On center 2 the King would count as a four, and your Queen would "
                            "still have nowhere to go. Put it on center 1, where it counts "
                            "as a Jack."
                        ),
                        "HK-C3": N_(
                            "On an empty stack the King counts as an Ace, which does not help "
                            "your Queen. Put it on center 1, where it counts as a Jack."
                        ),
                        "discard": (DISCARD_ENDS_TURN, king_tip),
                    },
                ),
                tip=king_tip,
                done=N_("The King now counts as a Jack, so center 1 needs a Queen."),
                example="HK-C1",
            ),
            Step(
                say=N_("Your pay-off card is a Queen: build it on center 1."),
                goal=moves("P-C1"),
                wrong=explain(
                    N_("Build your pay-off Queen on center 1."),
                    {"discard": (DISCARD_ENDS_TURN, N_("Build your pay-off Queen on center 1."))},
                ),
                tip=N_("Pick your pay-off Queen and put it on center 1."),
                done=N_(
                    "The Queen finished center 1; the next lesson shows what happens to a "
                    "finished stack."
                ),
                example="P-C1",
            ),
        ),
        summary=N_(
            "Kings are precious: keep one for the moment it lets your pay-off card go. Lesson done."
        ),
        rules=("R3.1", "R3.2"),
    )


def _side() -> Lesson:
    # R3.3: a discard ends the turn; R3.1 and R3.5: only a side stack's top card moves.
    order = N_(
        "The Six would cover your Five, and center 1 needs the Five before the Six: the Five "
        "would be stuck under it. Put the Six on the Seven, on side stack 1."
    )
    return Lesson(
        key="side",
        english_title=N_("Side stacks and their order"),
        english_intro=N_(
            "Every turn ends with a discard: one card from your hand onto one of your four "
            "side stacks. Only the top card of a side stack can be played later, so the order "
            "you stack them in matters."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["3C", "TH"],
            hand=["6C", "JD", "QC", "QS", "9D"],
            center=[["AC", "2H", "3S"]],
            side=[["7D"], ["5S"]],
            opponent_top="9C",
            opponent_hand=["4D", "JS", "9S", "8H", "2C"],
            opponent_payoff=10,
            draws=["8S"],
            seed=4,
        ),
        steps=(
            Step(
                say=N_(
                    "Nothing of yours can be built now, so end your turn with a discard. "
                    "Center 1 will need a four, then a five, a six and a seven. Put your Six on "
                    "side stack 1, on the Seven: the Six will come off first, then the Seven."
                ),
                goal=moves("H6-S1"),
                wrong=explain(
                    N_(
                        "That discard is allowed, but this lesson is about the Six: put it on "
                        "the Seven, on side stack 1."
                    ),
                    {
                        "H6-S2": order,
                        "H6-S3": N_(
                            "An empty side stack would work, but then your Six takes a stack of "
                            "its own. On the Seven it waits in the order you will need it."
                        ),
                        "H6-S4": N_(
                            "An empty side stack would work, but then your Six takes a stack of "
                            "its own. On the Seven it waits in the order you will need it."
                        ),
                    },
                ),
                tip=N_("Pick the Six in your hand and discard it on side stack 1."),
                done=N_(
                    "Your turn is over. Your opponent built a Four on center 1 and discarded. "
                    "Your hand was filled up again."
                ),
                example="H6-S1",
                opponent=("H4-C1", "HJ-S1"),
            ),
            Step(
                say=N_("Center 1 needs a five: build it from the top of side stack 2."),
                goal=moves("S2-C1"),
                wrong=explain(N_("Build the Five from side stack 2 on center 1 first.")),
                tip=N_("Pick side stack 2 and put its Five on center 1."),
                done=N_("Good."),
                example="S2-C1",
            ),
            Step(
                say=N_("Now the Six, on top of side stack 1 thanks to the order you chose."),
                goal=moves("S1-C1"),
                wrong=explain(N_("Build the Six from side stack 1 on center 1.")),
                tip=N_("Pick side stack 1 and put its Six on center 1."),
                done=N_("And the Seven under it is on top now."),
                example="S1-C1",
            ),
            Step(
                say=N_("Build the Seven from side stack 1 as well."),
                goal=moves("S1-C1"),
                wrong=explain(N_("Build the Seven from side stack 1 on center 1.")),
                tip=N_("Pick side stack 1 and put its Seven on center 1."),
                done=N_("Center 1 now needs an eight."),
                example="S1-C1",
            ),
            Step(
                say=N_("You drew an Eight at the start of this turn: build it from your hand."),
                goal=lambda game, move: move.is_from_hand and move.hand_rank == 8 and move.is_build,
                wrong=explain(
                    N_("Build the Eight from your hand on center 1."),
                    {
                        "discard": (
                            DISCARD_ENDS_TURN,
                            N_("Build the Eight from your hand on center 1."),
                        )
                    },
                ),
                tip=N_("Pick the Eight in your hand and put it on center 1."),
                done=N_("Four cards built in one turn, because your side stacks were in order."),
                example="H8-C1",
            ),
            Step(
                say=N_("Now end your turn with a discard: any hand card on any side stack."),
                goal=any_discard,
                wrong=explain(N_("End the turn: pick a hand card and discard it on a side stack.")),
                tip=N_("Pick a card in your hand, then a side stack to discard it on."),
                done=N_("Your turn is over."),
                example="HQ-S3",
            ),
        ),
        summary=N_(
            "Stack your side stacks so the card you will need first lies on top, usually "
            "going down: a Six on a Seven, a Five on the Six. Lesson done."
        ),
        rules=("R3.1", "R3.3", "R3.5"),
    )


def _refilled_stock(game: Game) -> str:
    return ngettext(
        "Center 1 was finished: its twelve cards went into the stock, which was shuffled "
        "and now holds {n} card. Center 1 is empty again.",
        "Center 1 was finished: its twelve cards went into the stock, which was shuffled "
        "and now holds {n} cards. Center 1 is empty again.",
        len(game.stock),
    )


def _complete() -> Lesson:
    # R3.4(b): a stack at value 12 goes into the stock, which is shuffled.
    return Lesson(
        key="complete",
        english_title=N_("A finished stack goes back into the stock"),
        english_intro=N_(
            "A center stack that reaches a Queen (its twelfth card) is finished: its cards "
            "are shuffled back into the stock and the place is empty again."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["6H", "QS"],
            hand=["AC", "9C", "9D", "TD", "JH"],
            center=[
                ["AH", "2C", "3H", "4H", "5S", "6D", "7C", "8H", "9S", "TC", "JS"],
                ["AD", "2D"],
                ["AS"],
            ],
            opponent_top="TH",
            opponent_hand=["3C", "4D", "5H", "9H", "JC"],
            opponent_payoff=10,
            seed=5,
        ),
        steps=(
            Step(
                say=N_(
                    "Center 1 needs only a Queen, and your pay-off card is one. Look at the "
                    "stock's count, then build the Queen on center 1."
                ),
                goal=moves("P-C1"),
                wrong=explain(
                    N_("Build your pay-off Queen on center 1."),
                    {"discard": (DISCARD_ENDS_TURN, N_("Build your pay-off Queen on center 1."))},
                ),
                tip=N_("Pick your pay-off Queen and put it on center 1."),
                done=_refilled_stock,
                example="P-C1",
            ),
            Step(
                say=N_("An empty center stack takes an Ace: start center 1 again with your Ace."),
                goal=moves("HA-C1"),
                wrong=explain(
                    N_("Start center 1 again with the Ace from your hand."),
                    {"discard": (DISCARD_ENDS_TURN, N_("Start center 1 with your Ace."))},
                ),
                tip=N_("Pick the Ace in your hand and put it on center 1."),
                done=N_("Center 1 is in play again."),
                example="HA-C1",
            ),
        ),
        summary=N_(
            "Finished stacks feed the stock, so it rarely runs out; the place is free at once. "
            "Lesson done."
        ),
        rules=("R3.4(b)",),
    )


def _needs(game: Game, rank: int) -> list[int]:
    """The center stacks (0-based) that take a card of ``rank`` next."""
    return [i for i, stack in enumerate(game.center) if needs(len(stack)) == rank]


def _feeds(game: Game, move: Move) -> bool:
    """Whether ``move`` leaves a center stack needing the opponent's pay-off card."""
    trial = game.copy()
    trial.apply(move)
    top = trial.players[1 - PLAYER].payoff[-1]
    return bool(_needs(trial, RANK_OF[top]))


def _block() -> Lesson:
    # R6.1: the opponent's pay-off top is public; R3.1: a stack one below it lets it go.
    feed = N_(
        "Then center 2 would need a six too: your opponent's pay-off Six would fit there. "
        "Keep your Five in your hand."
    )

    def first_wrong(game: Game, move: Move) -> str:
        if move.is_discard:
            return _(
                "If you end your turn now, center 1 still needs a six, and your opponent "
                "builds the Six from their pay-off pile. Build your own Six on center 1 first."
            )
        if move.notation == "H5-C2":
            return _(feed)
        return _("That is allowed, but center 1 still needs a six. Build your own Six there first.")

    return Lesson(
        key="block",
        english_title=N_("Blocking your opponent's pay-off card"),
        english_intro=N_(
            "You can always see your opponent's pay-off card. If a center stack needs exactly "
            "that card when your turn ends, your opponent plays it. Leave no stack one below it."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["4S", "JC"],
            hand=["6H", "5S", "9D", "QH", "QD"],
            center=[
                ["AS", "2C", "3D", "4H", "5C"],
                ["AH", "2H", "3C", "4D"],
                ["AC", "2D", "3S", "4C", "5D", "6S", "7D", "8H"],
            ],
            opponent_top="6D",
            opponent_hand=["8C", "TH", "TS", "JH", "2S"],
            opponent_payoff=10,
            seed=6,
        ),
        steps=(
            Step(
                say=N_(
                    "Your opponent's pay-off card is a Six, and center 1 needs a six right now. "
                    "Build your own Six on center 1, so that it needs a seven instead."
                ),
                goal=moves("H6-C1"),
                wrong=first_wrong,
                tip=N_("Pick the Six in your hand and put it on center 1."),
                done=N_("Now no center stack needs a six."),
                example="H6-C1",
            ),
            Step(
                say=N_(
                    "End your turn with a discard. Careful: the Five on center 2 would make "
                    "that stack need a six."
                ),
                goal=lambda game, move: move.is_discard,
                wrong=lambda game, move: (
                    _(feed) if _feeds(game, move) else _("End your turn with a discard now.")
                ),
                tip=N_("Pick a card in your hand, then a side stack to discard it on."),
                done=N_(
                    "Your opponent had no place for the Six and could only discard. Their "
                    "pay-off pile did not shrink."
                ),
                example="H5-S1",
                free=lambda game, move: move.is_build and not _feeds(game, move),
                free_said=N_("That build is safe: it gives your opponent nothing. Now discard."),
                opponent=("HT-S1",),
            ),
        ),
        summary=N_(
            "Watch your opponent's pay-off card: never end your turn with a center stack one "
            "below it if you can help it. Lesson done."
        ),
        rules=("R3.1", "R6.1"),
    )


def _draw() -> Lesson:
    # R4.2: a draw from an empty stock ends the game at once as a draw; nobody scores.
    return Lesson(
        key="draw",
        english_title=N_("When the stock runs out"),
        english_intro=N_(
            "Cards are drawn from the stock. When a card must be drawn and the stock is "
            "empty, the game ends at once as a draw: nobody scores."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["8D"],
            hand=["AC", "5C", "7D", "9H", "JC"],
            side=[["6S"], ["TC"], ["4H"], ["QD"]],
            opponent_side=[["9C"], ["JH"], ["5D"], ["QC"]],
            opponent_top="6H",
            opponent_hand=["2C", "3D", "4S"],
            opponent_payoff=10,
            stock_empty=True,
            seed=8,
        ),
        steps=(
            Step(
                say=N_(
                    "The stock is empty: the next card anyone must draw ends the game. You can "
                    "still build: put your Ace on center 1."
                ),
                goal=lambda game, move: move.notation.startswith("HA-C"),
                wrong=explain(
                    N_(
                        "Build your Ace on center 1 first: a discard would end your turn, and "
                        "the game with it."
                    )
                ),
                tip=N_("Pick the Ace in your hand and put it on center 1."),
                done=N_("Center 1 needs a two now, and nothing else of yours can be built."),
                example="HA-C1",
            ),
            Step(
                say=N_(
                    "End your turn with a discard: your opponent must then draw two cards to "
                    "fill their hand, and the stock has none."
                ),
                goal=any_discard,
                wrong=explain(N_("End the turn: pick a hand card and discard it on a side stack.")),
                tip=N_("Pick a card in your hand, then a side stack to discard it on."),
                done=N_(
                    "Your opponent had to draw from an empty stock, so the game ended at once "
                    "as a draw. Nobody scores; in a match, the next game is dealt."
                ),
                example="H5-S1",
            ),
        ),
        summary=N_(
            "When the stock runs out the game is a draw, so a long game is worth finishing "
            "before it does: keep your pay-off pile moving. Lesson done."
        ),
        rules=("R2.1", "R4.2"),
    )


def _score() -> Lesson:
    # R4.1: the winner scores the cards left in the opponent's pay-off pile; R5.1.
    def won(game: Game) -> str:
        outcome = game.outcome
        assert outcome is not None and outcome.winner == PLAYER  # the step's only move wins
        total = game.score[PLAYER] + outcome.points
        return ngettext(
            "You emptied your pay-off pile and won the game. You score one point for each "
            "card left in your opponent's pay-off pile: {n} point, which brings you to "
            "{total}. Reaching {target} wins the match.",
            "You emptied your pay-off pile and won the game. You score one point for each "
            "card left in your opponent's pay-off pile: {n} points, which brings you to "
            "{total}. Reaching {target} wins the match.",
            outcome.points,
            total=total,
            target=game.rules.match_target,
        )

    return Lesson(
        key="score",
        english_title=N_("The score and the match"),
        english_intro=N_(
            "A game ends when a player empties their pay-off pile. The winner scores one "
            "point for each card left in the other player's pay-off pile, and games go on "
            "until someone reaches 50 points: that player wins the match."
        ),
        position=lesson_position(
            rules=RULES,
            payoff=["3D"],
            hand=["TC", "JS", "QH", "4D", "7C"],
            center=[["AS", "2C"]],
            opponent_top="9H",
            opponent_hand=["3C", "5D", "5H", "9C", "JC"],
            opponent_payoff=8,
            score=(42, 30),
            seed=7,
        ),
        steps=(
            Step(
                say=N_(
                    "The match stands at 42 points to 30 for you, and your pay-off pile holds "
                    "its last card, a Three. Your opponent has 8 cards left in theirs. Build "
                    "your Three on center 1 to win the game."
                ),
                goal=moves("P-C1"),
                wrong=explain(
                    N_("Build your last pay-off card, the Three, on center 1: that wins the game."),
                    {"discard": (DISCARD_ENDS_TURN, N_("Build your pay-off Three on center 1."))},
                ),
                tip=N_("Pick your pay-off Three and put it on center 1."),
                done=won,
                example="P-C1",
            ),
        ),
        summary=N_(
            "That is the whole game. The tutorial ends with a short practice game against "
            "Easy. Lesson done."
        ),
        rules=("R4.1", "R5.1"),
    )


LESSONS: tuple[Lesson, ...] = (
    _payoff(),
    _hand(),
    _kings(),
    _side(),
    _complete(),
    _block(),
    _draw(),
    _score(),
)
"""Every lesson, in order."""

LESSON_KEYS: tuple[str, ...] = tuple(lesson.key for lesson in LESSONS)


def lesson_named(key: str) -> Lesson:
    """The lesson with this key; a :class:`TutorialError` naming the lessons otherwise."""
    for lesson in LESSONS:
        if lesson.key == key:
            return lesson
    raise TutorialError(f"there is no lesson {key[:40]!r}; lessons: {', '.join(LESSON_KEYS)}")
