"""A version-1 database, made by the code before the move log (``fixtures/v1.db``, see
``make_v1_fixture.py``), is migrated in place to version 2 when it is opened."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from spite_malice.engine import Match
from spite_malice.store import FINISHED, PLAYING, Store
from spite_malice.store.access import HEAD_REVISION
from spite_malice.table import Table

FIXTURE = Path(__file__).parent / "fixtures" / "v1.db"


def old_states(path: Path) -> dict[str, dict[str, object]]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT id, state FROM matches").fetchall()
    return {match_id: json.loads(state) for match_id, state in rows}


def test_a_version_1_database_migrates_in_place(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURE, path)
    before = old_states(path)
    with Store.open(str(path)) as store:
        with store.engine.connect() as connection:
            version = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
            assert version.scalar() == HEAD_REVISION
        # every match replays from its new move log to exactly where v1 left it
        for match_id, state in before.items():
            stored = store.load_match(match_id)
            assert stored is not None
            header = stored.header
            table = Table.restore(header.rules, header.seed, header.meta, stored.steps)
            old = Match.from_json(state)
            assert old.game is not None
            assert table.game.to_position() == old.game.to_position()
            assert table.match.score == old.score
            assert [r.to_json() for r in table.match.records] == [r.to_json() for r in old.records]
        web = store.load_room("ABCDEF")
        assert web is not None and web.header.id == "web-1"
        assert web.header.players == ("alice", None) and web.header.level == "easy"
        assert web.header.meta.tokens == ("0" * 64, None)  # old seat tokens still work
        web_table = Table.restore(web.header.rules, web.header.seed, web.header.meta, web.steps)
        assert web_table.game_number == 2 and web_table.is_assisted  # v1's assisted flag
        assert web_table.names == ["alice", "Easy"]
        friend = store.load_room("GHJKMN")
        assert friend is not None and friend.header.kind == "friend"
        assert not Table.restore(
            friend.header.rules, friend.header.seed, friend.header.meta, friend.steps
        ).is_full
        statuses = {m.id: m.status for m in store.matches(status=None)}
        assert statuses == {"web-1": PLAYING, "terminal-1": FINISHED, "friend-1": PLAYING}
        # statistics and settings are kept
        bob = store.stats("bob").total
        assert bob.games == 4 and bob.matches == 1
        assert store.stats("alice").total.games == 1
        assert store.settings("alice") == {"level": "hard", "animation_speed": "fast"}
    # opening it again changes nothing
    with Store.open(str(path)) as store:
        assert len(store.matches(status=None)) == 3
