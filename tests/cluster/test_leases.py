"""Exactly one instance plays a room's computer turn (issue 13, item 2): two lobbies, as two
server instances would have, on one PostgreSQL database, both holding the same room."""

from __future__ import annotations

import pytest

from spite_malice.engine.moves import Move
from spite_malice.table import Table
from spite_malice.web.computer_player import ComputerPlayer, ComputerTurn
from spite_malice.web.protocol import MoveMessage

from .lobbies import Listener, computer_room, discard, started_lobbies, until

pytestmark = pytest.mark.postgres


async def test_only_one_instance_plays_the_computer_turn(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # which instance played computer moves in each turn (a turn may be played by the
    # computer's own task, or at once with the person's discard: both go through here)
    plays: dict[tuple[int, int], set[str]] = {}
    original = ComputerPlayer.plays

    def counted(self: ComputerPlayer, table: Table, move: Move | None) -> ComputerTurn:
        key = (table.game_number, table.game.turn)
        turn = original(self, table, move)
        if turn.steps or turn.last is not None:
            plays.setdefault(key, set()).add(self.room.log.instance)
        return turn

    monkeypatch.setattr(ComputerPlayer, "plays", counted)
    async with started_lobbies(postgres_schema_url, 2) as lobbies:
        # 20 pay-off cards: the person only discards, and with 5 the computer sometimes won
        # before the person's second turn (then fewer than two turns were counted)
        room_a = await computer_room(lobbies[0], "hard", payoff_size=20)
        room_b = await lobbies[1].get(room_a.code)
        assert room_b is not None
        listener = Listener()
        await room_b.connect(listener, 0)
        # a seat connected to each instance, so that both keep following the room
        await room_a.connect(Listener(), 0)
        # the computer may open the game: count only the turns that follow the person's
        await until(lambda: not room_a.table.computer_to_move)
        plays.clear()
        turns = 0
        for _ in range(200):
            if turns >= 3 or room_a.game.is_over:
                break
            await until(lambda: not room_a.table.computer_to_move)
            if room_a.game.to_move != 0:
                continue
            # the person discards through instance A; both instances hold the room and both
            # are told the computer is to move (A by its own step, B through the fan-out)
            before = room_a.game.turn
            for _ in range(3):
                await room_a.handle(listener, 0, MoveMessage(type="move", move=discard(room_a)))
                # the turn passed (the computer may have played it at once, with the discard)
                if room_a.game.turn != before or room_a.game.is_over:
                    break
            if room_a.game.is_over:
                break
            turns += 1
            room_b.start_computer()
            # until both are at the person's turn again, B caught up with the log (a turn
            # played at once with the discard reaches B in one announcement)
            await until(
                lambda: (
                    (room_a.game.to_move == 0 and room_b.table.plies == room_a.table.plies)
                    or room_a.game.is_over
                )
            )
        assert turns >= 2
        # each computer turn was played by one instance: one entry per turn, no second one
        assert len(plays) == turns, plays
        assert all(len(instances) == 1 for instances in plays.values()), plays
        await until(lambda: room_b.table.plies == room_a.table.plies)
        assert room_a.game.to_position() == room_b.game.to_position()
