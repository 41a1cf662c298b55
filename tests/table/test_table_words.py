"""The table's refusals and the engine's reasons in the player's language (issue 15): the
engine gives a :class:`Reason` (English text with its template and fields) and the table
says it in the current language; the English stays what players read before."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pseudo_catalogs import use_catalog, use_pseudo_catalogs
from sources import parse_file
from spite_malice.engine import Game
from spite_malice.engine.errors import IllegalMoveError
from spite_malice.engine.moves import ALL_MOVES
from spite_malice.engine.reasons import Reason
from spite_malice.i18n import Catalog, use_language
from spite_malice.table import FRIEND, PERSON, Seat, Table, TableError
from spite_malice.table.words import barrier_sentence, say_reason
from undo_scenes import RULES, hand_emptied, new_table, payoff_turned, play

SOURCES = Path(__file__).resolve().parents[2] / "src" / "spite_malice"


def friends() -> Table:
    table = Table.new(RULES, (Seat(PERSON, "Ann", "a"), Seat(FRIEND, "Bob", "b")), seed=1)
    table.apply(table.check_deal())
    return table


def missing_rank(table: Table) -> int:
    hand = {card % 13 + 1 for card in table.game.players[table.game.to_move].hand}
    return next(rank for rank in range(2, 11) if rank not in hand)


def test_a_reason_is_its_english_text_and_carries_its_template() -> None:
    reason = Reason("center {center} needs {a_rank}", center=2, a_rank=8)
    assert reason == "center 2 needs an 8" and isinstance(reason, str)
    assert reason.template == "center {center} needs {a_rank}"
    assert reason.fields == {"center": 2, "a_rank": 8}
    assert Reason("there is no {rank} in your hand", rank=1) == "there is no Ace in your hand"
    error = IllegalMoveError("H7-C2", Reason("center {center} needs {a_rank}", center=2, a_rank=4))
    assert str(error) == "illegal move 'H7-C2': center 2 needs a 4"


def test_every_reason_the_engine_gives_a_player_carries_its_template() -> None:
    """Every illegal move of many positions: why_illegal's reason is a Reason."""
    seen = set()
    for seed in range(20):
        table = new_table(seed)
        for _ in range(40):
            if table.is_game_over:
                break
            game = table.game
            for move in ALL_MOVES:
                reason = game.why_illegal(move)
                if reason is not None:
                    assert isinstance(reason, Reason), reason
                    seen.add(reason.template)
            play(table, str(game.legal_moves()[0]))
    assert len(seen) >= 5


def test_an_illegal_move_is_refused_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    use_catalog(
        monkeypatch,
        Catalog(
            "it",
            singular={
                (None, "illegal move {move}: {reason}"): "mossa non valida {move}: {reason}",
                (None, "there is no {rank} in your hand"): "non hai un {rank} in mano",
                (None, "center {center} needs {a_rank}"): "il centro {center} vuole {a_rank}",
                ("value", "an Ace"): "un Asso",
                ("rank", "Seven"): "Sette",
            },
        ),
    )
    table = new_table(3)
    while table.game.to_move != 0:
        play(table, str(table.game.legal_moves()[0]))
    rank = missing_rank(table)
    move = f"H{'A23456789T'[rank - 1]}-S1"
    english_name = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")
    name = english_name[rank - 2]
    with pytest.raises(TableError) as english:
        table.check_move(0, move)
    # what players read names the rank in words, in English too (issue 43)
    assert english.value.message == f"illegal move '{move}': there is no {name} in your hand"
    with use_language("it"), pytest.raises(TableError) as italian:
        table.check_move(0, move)
    italian_name = "Sette" if rank == 7 else name
    assert italian.value.message == f"mossa non valida '{move}': non hai un {italian_name} in mano"
    assert italian.value.reason == f"non hai un {italian_name} in mano"
    assert italian.value.code == "illegal_move"
    with use_language("it"):
        said = say_reason(Reason("center {center} needs {a_rank}", center=1, a_rank=1))
    assert said == "il centro 1 vuole un Asso"


def test_the_table_refusals_come_out_in_the_current_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_pseudo_catalogs(monkeypatch)
    table = friends()
    waiting = 1 - table.game.to_move
    with use_language("ru"):
        with pytest.raises(TableError) as turn:
            table.check_move(waiting, "P-C1")
        with pytest.raises(TableError) as undo:
            table.check_undo(0)
        with pytest.raises(TableError) as hint:
            table.check_hint(0)
    assert turn.value.message == "[ru] illegal move 'P-C1': it is not your turn"
    assert undo.value.message == "[ru] Undo is for games against the computer."
    assert hint.value.message == "[ru] Hints are for games against the computer."
    with pytest.raises(TableError) as english:
        table.check_move(waiting, "P-C1")
    assert english.value.message == "illegal move 'P-C1': it is not your turn"


@pytest.mark.parametrize(
    ("scene", "english"),
    [
        (payoff_turned, "That move cannot be taken back: a new card was turned up."),
        (hand_emptied, "That move cannot be taken back: five new cards were drawn."),
    ],
)
def test_undo_barriers_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch, scene: object, english: str
) -> None:
    use_pseudo_catalogs(monkeypatch)
    found = scene()  # type: ignore[operator]
    table = new_table(found.seed)
    for move in found.moves:
        play(table, move)
    assert table.undo_barrier(0) == english
    with use_language("pt"):
        assert table.undo_barrier(0) == f"[pt] {english}"
        with pytest.raises(TableError, match=r"^\[pt\] That move cannot be taken back"):
            table.check_undo(0)
    assert barrier_sentence("a reason of its own") == (
        "That move cannot be taken back: a reason of its own."
    )


def test_a_hint_reason_from_the_fallback_is_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    from spite_malice.table import computer

    use_pseudo_catalogs(monkeypatch)
    monkeypatch.setattr(computer, "hint", lambda observation, seed: 1 / 0)
    game = Game.new(5)
    with use_language("nl"):
        suggestion = computer.suggest(game.observation(game.to_move))
    assert suggestion.reason.startswith("[nl] ")


AREA = [
    "table/table.py",
    "table/computer.py",
    "table/words.py",
    "web/rooms.py",
    "web/room_steps.py",
    "web/room_common.py",
    "web/computer_player.py",
    "web/presence.py",
    "web/broadcast.py",
    "web/friend_games.py",
    "web/sockets.py",
    "web/lobby.py",
    "web/limits.py",
    "web/api.py",
    "web/errors.py",
    "web/daily.py",
    "web/replays.py",
    "web/analyses.py",
    "web/protocol.py",
    "replay.py",
]
REFUSALS = {"TableError", "RoomError", "ProtocolError", "ReplayError", "error", "error_response"}
"""Calls whose text argument goes to a player as it is."""


def _unmarked(path: Path) -> list[str]:
    """Player texts written as bare literals (a str or an f-string) in a refusal's call."""
    found = []
    for node in ast.walk(parse_file(path)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        logged = isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "log"
        if name not in REFUSALS or logged:  # log lines are for developers: English
            continue
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            text = arg.value if isinstance(arg, ast.Constant) else None
            if isinstance(arg, ast.JoinedStr) or (isinstance(text, str) and " " in text):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_refusal_of_the_server_or_the_table_is_left_unmarked() -> None:
    """A refusal's text is made by a marking call (``_``, ``ngettext``) or a function that
    makes one, never written as a bare literal (Babel would not see it, players would read
    English whatever their language)."""
    unmarked = [where for name in AREA for where in _unmarked(SOURCES / name)]
    assert unmarked == []
