"""End to end: the matches played offline belong to the player who played them on this
browser (docs/offline.md, "Back online"). Another player signed in on the same browser does
not see them in the lobby and does not send them as theirs; they wait for their player."""

from __future__ import annotations

from typing import Any

import pytest

from .player import ContextFactory, Player
from .server import ServerProcess

pytestmark = pytest.mark.e2e

SEND_KEPT_MATCHES = """async (mine) => {
  // every request to the offline games' endpoint is caught, never reaches the server
  const posted = [];
  const realFetch = window.fetch;
  window.fetch = async (url, init) => {
    if (String(url).includes("/api/offline-games") && init?.method === "POST") {
      posted.push(JSON.parse(init.body).id);
      return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
    }
    return realFetch(url, init);
  };
  const db = await import("/static/offline/db.js");
  const { sendOfflineGames } = await import("/static/offline/sync.js");
  await sendOfflineGames(); // the page's own send, if one is on its way, ends first
  // a send asked for before this browser has a player sends nothing, and does not stand in
  // the way of the next one
  const key = "spite-malice.player-record";
  const kept = localStorage.getItem(key);
  localStorage.removeItem(key);
  await sendOfflineGames();
  localStorage.setItem(key, kept);
  const record = (id, room) => ({ id, room, level: "easy", steps: [{ move: "P-C1" }] });
  await db.saveRecord(record("match-of-another", "OWNA1"), "another-player");
  await db.saveRecord(record("match-of-mine", "OWNB2"), mine);
  await db.saveRecord(record("match-of-nobody", "OWNC3")); // kept before matches had owners
  // a later save of a match (each step) keeps its owner
  await db.saveRecord(record("match-of-another", "OWNA1"));
  await sendOfflineGames();
  window.fetch = realFetch;
  return {
    posted,
    mine: (await db.allMatches(mine)).map((m) => m.id),
    theirs: (await db.allMatches("another-player")).map((m) => m.id),
  };
}"""


def test_a_players_offline_matches_are_sent_only_as_theirs(
    server: ServerProcess, new_context: ContextFactory
) -> None:
    me = Player.open(new_context(), server.url, "owner")
    me.configure()  # the first visit makes this browser's player
    page = me.page
    mine = page.evaluate("() => JSON.parse(localStorage.getItem('spite-malice.player-record')).id")
    assert isinstance(mine, str) and mine
    found: dict[str, Any] = page.evaluate(SEND_KEPT_MATCHES, mine)
    assert found["posted"] == ["match-of-mine", "match-of-nobody"]
    assert found["mine"] == ["match-of-mine", "match-of-nobody"]
    assert sorted(found["theirs"]) == ["match-of-another", "match-of-nobody"]
    assert me.errors == []
