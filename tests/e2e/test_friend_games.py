"""End to end (issue 17, item 8): friend games in two browser contexts. A rematch is offered,
declined, offered again and accepted; a game is claimed once the friend has been offline
for the claim time (shortened here to a few seconds through SPITE_MALICE_CLAIM_SECONDS)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from spite_malice.web.rooms import CLAIM_ENV

from .conftest import _server
from .player import ContextFactory, Player, keep_game_socket
from .server import ServerProcess
from .test_plain_play import notation_in_player_text

pytestmark = pytest.mark.e2e

CLAIM_SECONDS = 10
"""The friend server's claim time. The host's page says "is offline" only until it runs out
(then "has been offline for over ..."): a few seconds could pass on a busy machine before the
page hears that the friend left, and the first text would never be seen."""
MAX_TURNS = 600


@pytest.fixture(scope="module")
def friend_server(
    tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> Iterator[ServerProcess]:
    """A server whose claim time is a few seconds, so that a test can wait for it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CLAIM_ENV, str(CLAIM_SECONDS))
        process = _server(tmp_path_factory.mktemp("friends"), "friends")
        process.start()
    try:
        yield process
    finally:
        process.stop()


def two_friends(
    server: ServerProcess,
    new_context: ContextFactory,
    payoff: int,
    target: int = 50,
    host_speed: str = "off",
    keep_socket: bool = False,
) -> tuple[Player, Player]:
    """A room of two friends, its game started (``keep_socket``: each page keeps its game's
    socket, for ``Player.send_move``)."""
    contexts = new_context(), new_context()
    if keep_socket:
        for context in contexts:
            keep_game_socket(context)
    host = Player.open(contexts[0], server.url, "host")
    host.configure(payoff_size=payoff, match_target=target, speed=host_speed)
    link = host.create_friend_room()
    friend = Player.open(contexts[1], server.url, "friend")
    friend.configure(speed="off")
    friend.page.goto(link)
    friend.wait_started()
    host.wait_phase("mine", "theirs")
    return host, friend


def test_a_rematch_is_offered_declined_and_accepted(
    friend_server: ServerProcess, new_context: ContextFactory
) -> None:
    host, friend = two_friends(friend_server, new_context, payoff=5, target=1, keep_socket=True)
    clicked: set[str] = set()
    for _ in range(MAX_TURNS):
        if host.phase == "over" and friend.phase == "over":
            if host.page.locator("#dialog-next-game").count():  # a draw: the match goes on
                host.page.click("#dialog-next-game")
                for player in (host, friend):
                    player.wait_phase("mine", "theirs")
                continue
            break
        active, waiting = (host, friend) if host.phase == "mine" else (friend, host)
        if active.name in clicked:
            # the match is played only to reach its end: the other turns' moves go through
            # the socket as the page's own messages (the pages draw them all the same)
            active.play_greedy_turn(send=True)
        else:
            active.play_greedy_turn()  # each friend's first turn is clicked
            clicked.add(active.name)
        waiting.wait_phase("mine", "over")
        active.wait_phase("theirs", "over")
    else:
        pytest.fail(f"the match did not end within {MAX_TURNS} turns")
    for player in (host, friend):
        expect(player.page.locator("#game-over")).to_contain_text("Match over")
        expect(player.page.locator("#dialog-rematch")).to_have_text("Offer a rematch")

    host.page.click("#dialog-rematch")
    expect(host.page.locator("#dialog-rematch")).to_be_disabled()
    expect(host.page.locator("#rematch-note")).to_contain_text("Waiting for")
    expect(friend.page.locator("#rematch-note")).to_contain_text("offers a rematch")
    expect(friend.page.locator("#dialog-rematch")).to_have_text("Accept the rematch")
    for player in (host, friend):  # the rematch is told in words
        assert notation_in_player_text(player.page) == []
    friend.page.click("#dialog-decline")
    expect(host.page.locator("#rematch-note")).to_contain_text("declined the rematch")
    assert host.game_number == 1 and host.phase == "over"

    host.page.click("#dialog-rematch")
    expect(friend.page.locator("#dialog-rematch")).to_have_text("Accept the rematch")
    friend.page.click("#dialog-rematch")
    for player in (host, friend):
        player.wait_phase("mine", "theirs")
        expect(player.page.locator("#scoreboard")).to_contain_text("Game 1")
        expect(player.page.locator(".score-me .score-points")).to_have_text("0")
    expect(host.page.locator(".seat-opponent .seat-name")).to_contain_text(friend.name)
    assert host.moves_played == 0 or host.phase in ("mine", "theirs")
    assert host.errors == [] and friend.errors == []


def test_a_friend_gone_while_their_moves_fly_is_shown_offline(
    friend_server: ServerProcess, new_context: ContextFactory
) -> None:
    """Presence is news when it arrives. The host's page draws the friend's moves slowly, one
    after the other; the friend's page closes while they still fly. When the last of them is
    drawn, the friend must be shown offline, with the claim countdown: the moves were sent
    while the friend was there, and must not bring back an older "online"."""
    host, friend = two_friends(friend_server, new_context, payoff=20, host_speed="slow")
    if host.phase == "mine":
        host.play_greedy_turn()
    friend.wait_phase("mine")
    friend.play_greedy_turn()
    friend.page.close()
    host.wait_phase("mine", "over")
    presence = host.page.locator("#opponent-name")
    expect(presence).to_have_attribute("data-presence", "offline")
    expect(host.page.locator("#claim-note")).to_contain_text("offline")
    assert host.errors == []


def test_a_game_is_claimed_when_the_friend_has_gone(
    friend_server: ServerProcess, new_context: ContextFactory
) -> None:
    host, friend = two_friends(friend_server, new_context, payoff=20)
    page = host.page
    # A turn is played and drawn while the friend is there: no claim is offered.
    active, waiting = (host, friend) if host.phase == "mine" else (friend, host)
    active.play_greedy_turn()
    waiting.wait_phase("mine", "over")
    host.wait_phase("mine", "theirs")
    expect(page.locator("#claim-note")).to_be_hidden()
    expect(page.locator("#claim-button")).to_be_hidden()
    room = host.room
    friend_context = friend.page.context
    friend.page.close()  # the friend's browser goes away
    expect(page.locator("#claim-note")).to_contain_text("is offline")
    expect(page.locator("#claim-button")).to_be_visible(timeout=(CLAIM_SECONDS + 30) * 1000)
    expect(page.locator("#claim-note")).to_contain_text("You may claim the game")
    assert notation_in_player_text(page) == []
    page.click("#claim-button")
    expect(page.locator("dialog[open]")).to_contain_text("counts as a win for you")
    page.click("#confirm-yes")
    host.wait_phase("over")
    expect(page.locator("#turn-banner")).to_have_text("You claimed the game: you win the match")
    # The friend comes back and is told.
    back = Player.open(friend_context, friend_server.url, "friend")
    back.goto(f"game/{room}")
    back.wait_phase("over")
    expect(back.page.locator("#turn-banner")).to_contain_text("claimed the game: you were offline")
    expect(back.page.locator("#game-over")).to_contain_text("because you were offline")
    assert host.errors == [] and back.errors == []
