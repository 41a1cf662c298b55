"""The OpenSpiel game: registration, OpenSpiel's own checker, exact agreement with the engine,
what each seat sees (R6), resampling, and OpenSpiel's ISMCTS bot playing it."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from spite_malice.bots import reference_move  # noqa: E402
from spite_malice.engine import CardsDrawn, Game, PayoffTurned, Rules  # noqa: E402
from spite_malice.engine.cards import full_deck  # noqa: E402
from spite_malice.engine.chance import Deal  # noqa: E402
from spite_malice.research import openspiel as sm_openspiel  # noqa: E402
from spite_malice.research.actions import game_first_fit_action, move_to_action  # noqa: E402
from spite_malice.research.encoding import encode_observation  # noqa: E402
from spite_malice.research.openspiel import chance as sm_chance  # noqa: E402

NAME = sm_openspiel.GAME_NAME


def _sample(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    return int(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def test_importing_registers_the_game() -> None:
    assert NAME in pyspiel.registered_names()
    game = pyspiel.load_game(NAME)
    assert game.num_distinct_actions() == 144
    assert game.max_chance_outcomes() == 104  # a face never seen, or one recycled
    assert game.num_players() == 2
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    small = pyspiel.load_game(f"{NAME}(payoff_size=5,center_stacks=4)")
    assert small.rules == Rules(payoff_size=5, center_stacks=4)


@pytest.mark.parametrize(
    "params",
    [{}, {"payoff_size": 5, "center_stacks": 4, "reward": "points"}, {"decks": 3, "first": 1}],
)
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
    # Random play never empties a pay-off pile: these games end in draws (R4.2).
    game = pyspiel.load_game(NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_random_sim_test_with_serialization() -> None:
    game = pyspiel.load_game(NAME, {"payoff_size": 5})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(1)
    while len(state.history()) < 80:
        if state.is_chance_node():
            state.apply_action(_sample(state, rng))
        else:
            state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state)
    assert copy.information_state_string(0) == state.information_state_string(0)


def _seeded_deal(seed: int, rules: Rules) -> list[int]:
    """The cards the seeded deal of ``seed`` shows, in the order they come into view: the
    hands, the pay-off tops, and the new tops after each R1.4 tie (an undealt engine game
    fed what the seeded dealer deals)."""
    rng = random.Random(seed)
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    size = rules.payoff_size
    shown = [*deck[2 * size : 2 * size + 10], deck[size - 1], deck[2 * size - 1]]
    undealt = Game.undealt(rules)
    undealt.deal(deck)
    while undealt.chance:  # R1.4: a tie reshuffles both piles
        piles = [undealt.players[0].payoff[:], undealt.players[1].payoff[:]]
        rng.shuffle(piles[0])
        rng.shuffle(piles[1])
        undealt.deal(piles)
        shown += [piles[0][-1], piles[1][-1]]
    assert undealt.to_position() == Game.new(seed, rules).to_position()
    return shown


def _replay_engine_game(seed: int, rules: Rules, forced: bool = True) -> tuple[Game, Any]:
    """Play a seeded engine game with the reference policy, then the same game through
    OpenSpiel, feeding the engine's cards as chance outcomes (``forced``: with the engine's
    first player as a parameter; otherwise R1.4 decides, ties and all)."""
    engine = Game.new(seed, rules)
    deal = _seeded_deal(seed, rules)
    while not engine.is_over:
        engine.play(reference_move(engine))
    reveals = list(deal)
    for event in engine.events:
        if isinstance(event, PayoffTurned):
            reveals.append(event.card)
        elif isinstance(event, CardsDrawn):
            reveals.extend(event.cards)
    params = {
        "payoff_size": rules.payoff_size,
        "center_stacks": rules.center_stacks,
        "first": engine.first if forced else -1,
    }
    game = pyspiel.load_game(NAME, params)
    state = game.new_initial_state()
    moves = iter(engine.moves)
    while not state.is_terminal():
        if state.is_chance_node():
            face = reveals.pop(0)
            possible = dict(state.chance_outcomes())
            # A face may be a card seen before (outcome 52 + face: from a completed stack, or
            # a tied top reshuffled into its pile) or a card never seen (outcome face);
            # prefer the first, which keeps never-seen cards for the other places.
            state.apply_action(face + 52 if possible.get(face + 52) else face)
        else:
            move = next(moves)
            assert move.index in state.legal_actions()
            state.apply_action(move.index)
        state.check_counts()
    assert not reveals and next(moves, None) is None
    return engine, state


def _tie_seeds(rules: Rules, count: int) -> list[int]:
    """Seeds whose deal ties the pay-off tops (R1.4)."""
    tied = (s for s in range(2000) if Game.new(s, rules).events[0].reshuffles)  # type: ignore[union-attr]
    return [next(tied) for _ in range(count)]


@pytest.mark.parametrize("rules", [Rules.STANDARD, Rules(payoff_size=6, center_stacks=4)])
@pytest.mark.parametrize("forced", [True, False])
def test_fed_the_engine_s_cards_it_plays_the_engine_s_game(rules: Rules, forced: bool) -> None:
    results = set()
    for seed in [*range(6), *_tie_seeds(rules, 2)]:
        engine, state = _replay_engine_game(seed, rules, forced)
        outcome = engine.outcome
        assert outcome is not None and state.outcome == outcome
        winner = outcome.winner
        expected = [0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        assert state.returns() == expected
        assert state.points()[winner or 0] == (outcome.points if winner is not None else 0)
        results.add("draw" if winner is None else "win")
    assert "win" in results


def test_first_fit_self_play_with_sampled_chance_scores_right() -> None:
    game = pyspiel.load_game(NAME, {"reward": "points", "payoff_size": 10})
    rng = random.Random(5)
    wins = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample(state, rng))
            else:
                state.apply_action(game_first_fit_action(state.engine))
        outcome = state.outcome
        assert outcome is not None
        if outcome.winner is None:
            assert state.returns() == [0.0, 0.0]
            continue
        wins += 1
        loser = state.engine.players[1 - outcome.winner]
        assert outcome.points == len(loser.payoff) > 0  # R4.1
        assert state.returns()[outcome.winner] == outcome.points
        assert sum(state.returns()) == 0
    assert wins >= 4


def _midgame(seed: int = 2, moves: int = 40) -> Any:
    game = pyspiel.load_game(NAME)
    state = game.new_initial_state()
    rng = random.Random(seed)
    played = 0
    while played < moves:
        if state.is_chance_node():
            state.apply_action(_sample(state, rng))
        else:
            state.apply_action(game_first_fit_action(state.engine))
            played += 1
    while state.is_chance_node():
        state.apply_action(_sample(state, rng))
    return state


def test_r6_each_seat_sees_only_its_own() -> None:
    state = _midgame()
    for seat in (0, 1):
        expected = encode_observation(state.engine.observation(seat))
        assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), expected)
        text = state.observation_string(seat)
        other_hand = state.engine.players[1 - seat].hand
        assert f"hand: {len(other_hand)} cards" in text
    # The two seats' information differ only in what is private.
    assert state.information_state_string(0) != state.information_state_string(1)
    assert "+??" in state.information_state_string(0)


def test_observations_at_chance_nodes_hide_cards_not_yet_drawn() -> None:
    game = pyspiel.load_game(NAME)
    state = game.new_initial_state()
    state.apply_action(0)  # player 0's first card: the ace of spades
    assert "hand: AS\n" in state.observation_string(0)
    assert "hand: -\n" in state.observation_string(1)
    assert "0+AS" in state.information_state_string(0)
    assert "AS" not in state.information_state_string(1)


def test_resampling_keeps_what_the_player_knows() -> None:
    state = _midgame(seed=4)
    player = state.current_player()
    key = state.information_state_string(player)
    tensor = state.observation_tensor(player)
    opponent_hand = sorted(state.engine.players[1 - player].hand)
    unseen = sorted(state.engine.stock + opponent_hand)
    for player_state in state.engine.players:
        unseen = sorted(unseen + player_state.payoff[:-1])
    changed = False
    for _ in range(5):
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
        assert sample.information_state_string(player) == key
        assert sample.observation_tensor(player) == tensor
        assert sample.legal_actions() == state.legal_actions()
        sample.check_counts()
        engine = sample.engine
        again = sorted(engine.stock + engine.players[1 - player].hand)
        for player_state in engine.players:
            again = sorted(again + player_state.payoff[:-1])
        assert again == unseen  # the hidden cards come from the unseen ones only
        changed |= sorted(engine.players[1 - player].hand) != opponent_hand
    assert changed
    assert state.information_state_string(player) == key  # the original is untouched


def test_openspiel_ismcts_bot_plays_a_few_moves() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(NAME, {"payoff_size": 5})
    theirs = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(1),
    )
    theirs.set_resampler(
        lambda state, player: state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
        )
    )
    ours = sm_openspiel.make_ismcts_bot(game, simulations=8, seed=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    decisions = 0
    while decisions < 6 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_sample(state, rng))
            continue
        bot = theirs if state.current_player() == 0 else ours
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 6


def test_r3_4_b_completed_stacks_go_back_into_the_stock_never_into_pay_off_piles() -> None:
    game = pyspiel.load_game(NAME)
    rng = random.Random(8)
    checked_draw = checked_turn_up = False
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal() and not (checked_draw and checked_turn_up):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                recycled = [a for a, _ in outcomes if a >= 52]
                kind, who = state._box.reveals[0]
                if kind == "payoff":  # pay-off piles were dealt at the start (R1.2)
                    known = state._box.known[52 * who : 52 * who + 52]
                    assert all(known[a - 52] for a in recycled)  # only tied tops (R1.4)
                    checked_turn_up |= sum(state._box.recycled) > 0
                elif sum(state._box.recycled):
                    assert recycled  # the stock holds the completed stacks' cards
                    checked_draw = True
                state.apply_action(_sample(state, rng))
            else:
                state.apply_action(game_first_fit_action(state.engine))
    assert checked_draw and checked_turn_up


# ----------------------------------------------------------------- the fast paths


def _params(rules: Rules) -> dict[str, Any]:
    return {
        "decks": rules.decks,
        "payoff_size": rules.payoff_size,
        "center_stacks": rules.center_stacks,
        "king_can_start_stack": rules.king_can_start_stack,
    }


def _expected_chance_outcomes(state: Any) -> dict[int, float]:
    """The class docstring's odds, from the counts of unseen cards and the engine's stock."""
    fresh, recycled = list(state._box.fresh), list(state._box.recycled)
    fresh_total, recycled_total = sum(fresh), sum(recycled)
    kind, who = state._box.reveals[0]
    if kind == "payoff":  # R3.4(a), R1.4
        known = state._box.known[52 * who : 52 * who + 52]
        chance = state.engine.chance[0]
        pile = rules_size = state.rules.payoff_size
        if not isinstance(chance, Deal):
            pile = len(state.engine.players[who].payoff)
        assert pile <= rules_size
        share = (pile - sum(known)) / pile
        out = {face: share * n / fresh_total for face, n in enumerate(fresh) if n}
        out.update({52 + face: n / pile for face, n in enumerate(known) if n})
        return out
    if not recycled_total:
        return {face: n / fresh_total for face, n in enumerate(fresh) if n}
    stock = len(state.engine.stock) - len(state._box.chosen)
    out = {
        face: (stock - recycled_total) / stock * n / fresh_total
        for face, n in enumerate(fresh)
        if n and stock > recycled_total
    }
    out.update({52 + face: n / stock for face, n in enumerate(recycled) if n})  # R3.4(b)
    return out


def test_python_answers_are_openspiel_s_own_at_every_node(varied_rules: Rules) -> None:
    # legal_actions() and is_chance_node() answer in Python; OpenSpiel's C++ versions
    # (reached through pyspiel.State) call back into the state and must agree everywhere.
    game = pyspiel.load_game(NAME, _params(varied_rules))
    rng = random.Random(3)
    nodes = {"chance": 0, "player": 0, "terminal": 0}
    for number in range(4):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            legal = state.legal_actions()
            assert legal == pyspiel.State.legal_actions(state)
            for player in (0, 1):
                assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
            if state.is_terminal():
                assert legal == []
                nodes["terminal"] += 1
                break
            if state.is_chance_node():
                nodes["chance"] += 1
                outcomes = state.chance_outcomes()
                assert legal == [action for action, _ in outcomes] == sorted(legal)
                expected = _expected_chance_outcomes(state)
                assert [action for action, _ in outcomes] == sorted(expected)
                for action, chance in outcomes:
                    assert chance == pytest.approx(expected[action], rel=1e-12)
                assert sum(chance for _, chance in outcomes) == pytest.approx(1.0, abs=1e-12)
                state.apply_action(_sample(state, rng))
            else:
                nodes["player"] += 1
                assert legal == [move.index for move in state.table.legal_moves()]
                # random play in one game, first-fit (which wins) in the others
                first_fit = number and (number % 2 or len(state.history()) < 400)
                state.apply_action(
                    game_first_fit_action(state.engine) if first_fit else rng.choice(legal)
                )
            if len(state.history()) % 50 == 0:
                state.check_counts()
        state.check_counts()
    assert nodes["terminal"] == 4 and nodes["chance"] > 200 and nodes["player"] > 200


def test_flagged_actions_are_the_places_of_the_set_flags() -> None:
    rng = random.Random(11)
    for density in (0.0, 0.02, 0.1, 0.5, 1.0):
        for _ in range(300):
            flags = bytes(int(rng.random() < density) for _ in range(144))
            assert sm_chance._flagged_actions(flags) == [i for i in range(144) if flags[i]]
    # a list of its own every time: changing one does not change the next answer
    flags = bytes([1] * 144)
    sm_chance._flagged_actions(flags).clear()
    assert sm_chance._flagged_actions(flags) == list(range(144))


def test_information_state_words_of_the_deal_and_a_move() -> None:
    game = pyspiel.load_game(NAME)
    state = game.new_initial_state()
    for outcome in range(12):  # hands AS-5S and 6S-TS, pay-off tops JS and QS
        state.apply_action(outcome)
    assert state.current_player() == 1  # R1.4: the higher pay-off top starts
    assert state.information_state_string(0) == (
        "seat 0 0+AS 0+2S 0+3S 0+4S 0+5S 1+?? 1+?? 1+?? 1+?? 1+?? 0^JS 1^QS"
    )
    assert state.information_state_string(1) == (
        "seat 1 0+?? 0+?? 0+?? 0+?? 0+?? 1+6S 1+7S 1+8S 1+9S 1+TS 0^JS 1^QS"
    )
    state.apply_action(move_to_action("H9-S1"))  # R3.3: a discard ends the turn
    assert not state.is_chance_node()  # player 0 still holds five cards (R2.1)
    state.apply_action(move_to_action("H5-S1"))
    assert state.is_chance_node()  # player 1 draws one card
    state.apply_action(13)  # AH
    assert state.information_state_string(0).endswith("1^QS 1:H9-S1 0:H5-S1 1+??")
    assert state.information_state_string(1).endswith("1^QS 1:H9-S1 0:H5-S1 1+AH")


@pytest.mark.parametrize("outcome", [-5, 104, 52])
def test_an_impossible_chance_outcome_is_refused_and_changes_nothing(outcome: int) -> None:
    game = pyspiel.load_game(NAME)
    state = game.new_initial_state()
    before = str(state)
    expected = "impossible here" if outcome == 52 else "no chance outcome"
    with pytest.raises(ValueError, match=expected):  # 52: no card has been recycled yet
        state.apply_action(outcome)
    assert str(state) == before and state.history() == []
    state.check_counts()


def test_sample_outcome_picks_what_pyspiel_sample_action_picks() -> None:
    rng = random.Random(4)
    state = _midgame(seed=6)
    lists = [[(3, 0.25), (5, 0.25), (9, 0.5)], [(7, 1.0)]]
    while len(lists) < 40:
        if state.is_chance_node():
            lists.append(state.chance_outcomes())
            state.apply_action(_sample(state, rng))
        elif state.is_terminal():
            state = _midgame(seed=len(lists))
        else:
            state.apply_action(game_first_fit_action(state.engine))
    for outcomes in lists:
        edges = [0.0, 0.25, 0.5, 0.75, 1.0 - 2**-53]
        edges += [sum(p for _, p in outcomes[:i]) for i in range(len(outcomes))]
        for z in [rng.random() for _ in range(50)] + [z for z in edges if z < 1.0]:
            try:
                expected = pyspiel.sample_action(outcomes, z)[0]
            except pyspiel.SpielError:  # the probabilities add up to a hair below z
                assert sum(p for _, p in outcomes) <= z
                expected = outcomes[-1][0]
            assert sm_openspiel.sample_outcome(outcomes, z) == expected
    with pytest.raises(ValueError, match="no outcomes"):
        sm_openspiel.sample_outcome([], 0.5)


def test_r1_4_tied_tops_are_reshuffled_within_their_piles_as_the_engine_does() -> None:
    game = pyspiel.load_game(NAME)
    state = game.new_initial_state()
    for outcome in [*range(10), 10, 23]:  # hands AS-TS; pay-off tops JS and JH tie
        state.apply_action(outcome)
    assert state.is_chance_node() and "tie" in state.information_state_string(0)
    odds = dict(state.chance_outcomes())
    assert odds[52 + 10] == pytest.approx(1 / 20)  # the Jack itself, back in pile 1
    assert odds[10] == pytest.approx(19 / 20 * 1 / 92)  # the other JS, never seen
    assert 52 + 23 not in odds  # player 2's Jack is in player 2's pile
    state.apply_action(52 + 10)
    state.apply_action(52 + 23)  # both Jacks on top again: another tie
    assert state.information_state_string(1).count("tie") == 2
    state.apply_action(12)  # QS
    state.apply_action(52 + 23)  # the Jack of hearts again
    assert state.current_player() == 0  # R1.4: the higher top starts
    assert state.engine.events == [] and state.engine.first == 0
    state.check_counts()
    known = state._box.known
    assert known[10] == 1 and sum(known) == 1  # the Jack of spades is in pile 1, face down


def test_sampled_first_fit_games_keep_the_engine_consistent_at_every_step() -> None:
    """The spelled-out chance paths (a card drawn, a pay-off card turned up, a never-seen card
    swapped in from the stock or the other pile) keep the counts and the engine's cards whole
    after every action, over games long enough to complete stacks (R3.4(b))."""
    game = pyspiel.load_game(NAME)
    rng = random.Random(11)
    recycled_draws = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = _sample(state, rng)
                recycled_draws += action >= 52
            else:
                action = game_first_fit_action(state.engine)
            state.apply_action(action)
            state.check_counts()
        assert state.outcome is not None
    assert recycled_draws > 0  # completed stacks came back into the stock and were drawn


def test_max_game_length_is_realistic_and_no_game_seen_comes_near_it() -> None:
    game = pyspiel.load_game(NAME)
    # 1,000 turns (R4.3) at 20 nodes a turn, not 2 * 104 a turn (208,000) as before.
    assert game.max_game_length() == sm_openspiel.MAX_GAME_LENGTH == 20_000
    rng = random.Random(5)
    longest = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample(state, rng))
            else:
                state.apply_action(game_first_fit_action(state.engine))
        longest = max(longest, len(state.history()))
    # First-fit games (the longest kind seen: random ones end sooner) stay far below it.
    assert 50 < longest < game.max_game_length() / 10


def test_rl_environment_uses_the_observation_tensor() -> None:
    rl_environment = pytest.importorskip("open_spiel.python.rl_environment")
    game = pyspiel.load_game(NAME, {"payoff_size": 5})
    assert not game.get_type().provides_information_state_tensor  # see docs/research.md
    env = rl_environment.Environment(game, seed=3)
    step = env.reset()
    rng = random.Random(3)
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == 313
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    # OpenSpiel's convention at the end: no legal actions, the returns in the rewards.
    assert step.observations["legal_actions"] == [[], []]
    assert sum(step.rewards) == 0.0
