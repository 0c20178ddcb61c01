"""The Deep Monte-Carlo trainer: its gradient, its reproducibility, that it learns, and the policy bot's files."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boneyard import api
from boneyard.bots.arena import Arena, parse_bots
from boneyard.rl import dmc
from boneyard.rl.encoding import encoding
from boneyard.rl.policy import LinearPolicy, PolicyBot


def _tiny(seed: int = 1) -> dmc.QNetwork:
    net = dmc.QNetwork(encoding("rounce", 2, {"max_hands": 1}), (7, 5), seed=seed)
    rng = np.random.default_rng(seed)
    for p in net.params:  # non-zero biases and a larger head, so every gradient entry matters
        p += rng.standard_normal(p.shape).astype(np.float32) * 0.3
    return net


def test_gradient_matches_finite_differences() -> None:
    net = _tiny()
    rng = np.random.default_rng(0)
    x = rng.random((6, net.enc.obs_size)).astype(np.float32)
    actions = rng.integers(0, net.enc.num_actions, 6)
    actions[1] = actions[0]  # two samples of one action: their gradients add up
    targets = rng.standard_normal(6).astype(np.float32)
    _, grads = net.gradients(x, actions, targets)
    checked = 0
    for k, p in enumerate(net.params):
        flat = p.reshape(-1)
        for i in rng.choice(flat.size, size=min(8, flat.size), replace=False):
            old = flat[i]
            flat[i] = old + 1e-2
            up, _ = net.gradients(x, actions, targets)
            flat[i] = old - 1e-2
            down, _ = net.gradients(x, actions, targets)
            flat[i] = old
            numeric = (up - down) / 2e-2
            assert grads[k].reshape(-1)[i] == pytest.approx(numeric, rel=0.05, abs=2e-3), (k, i)
            checked += 1
    assert checked == sum(min(8, p.size) for p in net.params)


def test_adam_lowers_the_loss_on_a_fixed_batch() -> None:
    net = _tiny(2)
    rng = np.random.default_rng(1)
    x = rng.random((32, net.enc.obs_size)).astype(np.float32)
    actions = rng.integers(0, 5, 32)
    targets = rng.standard_normal(32).astype(np.float32)
    opt = dmc.Adam(net.params, 1e-2)
    first, grads = net.gradients(x, actions, targets)
    for _ in range(200):
        loss, grads = net.gradients(x, actions, targets)
        opt.step(grads)
    assert loss < 0.2 * first


def test_same_seed_same_weights_whatever_the_workers() -> None:
    def run(seed: int, workers: int = 1) -> list[np.ndarray]:
        net = dmc.train("rounce", 2, episodes=24, round_episodes=8, hidden=(16,), seed=seed, workers=workers,
                        eval_games=0)
        return net.params

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    spread = run(3, workers=2)
    assert all(np.array_equal(x, y) for x, y in zip(a, spread, strict=True))


def test_returns_are_the_deciders_own_rewards_to_the_end() -> None:
    net = _tiny()
    out = dmc.play_episode(net, seed=5, epsilon=1.0)
    assert len(out.obs) == len(out.actions) == len(out.returns) > 0
    # One hand: every decision of a seat earns that seat's whole reward, and the two seats' differ.
    assert len(set(out.returns)) <= 2


@pytest.mark.parametrize("game", ["eighty", "twobox"])
def test_a_network_with_a_teacher_plays_the_teachers_choice_unless_it_overrules_it(game: str) -> None:
    # With no exploration and an unreachable margin, every kept decision is greedy's own
    # choice: replay the deal and ask greedy at each decision. With no margin the
    # untrained network overrules it somewhere.
    from boneyard.bots.spec import parse_bot_spec
    from boneyard.rl.core import Table

    enc = encoding(game, 4, {"max_hands": 1})
    taught = dmc.QNetwork(enc, (8,), seed=2, teacher="greedy", margin=1e9)
    out = dmc.play_episode(taught, seed=9, epsilon=0.0)
    alone = dmc.play_episode(dmc.QNetwork(enc, (8,), seed=2), seed=9, epsilon=0.0)
    assert out.actions and out.actions != alone.actions

    greedy = parse_bot_spec("greedy").make()
    rng = np.random.default_rng(9)
    table = Table(enc, int(rng.integers(2**62)))
    bot_rng = random.Random(int(rng.integers(2**62)))
    kept: list[int] = []
    while not table.over:
        seat = int(table.seat)  # type: ignore[arg-type]
        legal = table.legal()
        chosen = greedy.choose(table.view(seat), table.game.legal_actions(), bot_rng)
        index = next(i for i, a in legal.items() if a == chosen)
        if len(legal) > 1:
            kept.append(index)
        table.play_index(index)
    assert out.actions == kept

    eager = dmc.QNetwork(enc, (8,), seed=2, teacher="greedy", margin=0.0)
    assert dmc.play_episode(eager, seed=9, epsilon=0.0).actions != kept


def test_act_keeps_the_teachers_index_within_the_margin() -> None:
    net = _tiny()
    obs = np.random.default_rng(0).random(net.enc.obs_size).astype(np.float32)
    mask = np.zeros(net.enc.num_actions, np.int8)
    mask[[3, 5, 8]] = 1
    q = net.q_values(obs)
    best = max((3, 5, 8), key=lambda i: q[i])
    other = next(i for i in (3, 5, 8) if i != best)
    gap = float(q[best] - q[other])
    net.margin = gap + 1e-3
    assert net.act(obs, mask, prefer=other) == other
    net.margin = gap - 1e-3
    assert net.act(obs, mask, prefer=other) == best
    assert net.act(obs, mask) == best


def test_a_teacher_is_saved_with_the_network_and_checked(tmp_path: Path) -> None:
    net = dmc.train("rounce", 2, episodes=16, round_episodes=8, hidden=(16,), seed=3, eval_games=0,
                    teacher="greedy", margin=0.25)
    again = dmc.train("rounce", 2, episodes=16, round_episodes=8, hidden=(16,), seed=3, eval_games=0,
                      teacher="greedy", margin=0.25)
    assert all(np.array_equal(x, y) for x, y in zip(net.params, again.params, strict=True))
    path = tmp_path / "taught.npz"
    net.save(path)
    loaded = dmc.load(path)
    assert (loaded.teacher, loaded.margin) == ("greedy", 0.25)
    report = Arena("rounce", parse_bots(f"policy:weights={path},random"), games=4, seed=1, players=2,
                   rules={"max_hands": 1}).run()
    assert sum(s["decisions"] for s in report["summary"]) > 0
    with pytest.raises(ValueError, match="0 or more"):
        dmc.train("rounce", 2, episodes=2, teacher="greedy", margin=-1.0, eval_games=0)
    with pytest.raises(ValueError, match="unknown bot"):
        dmc.train("rounce", 2, episodes=2, teacher="nobody", eval_games=0)


def test_a_short_run_beats_random_in_the_arena(tmp_path: Path) -> None:
    # One-hand Eighty: the untrained network (a fixed arbitrary preference, bidding to be
    # set) loses nearly every game to random, so clearing one half takes learning. In
    # Rounce an untrained network already beats random (about 0.6), which proves nothing.
    rates = {}
    for episodes in (0, 400):
        net = dmc.train("eighty", episodes=episodes, seed=0, eval_games=0)
        path = tmp_path / f"eighty{episodes}.npz"
        net.save(path)
        report = dmc.arena(path, "random", games=100, seed=0)
        assert report["rules"]["max_hands"] == 1
        rates[episodes] = next(s for s in report["summary"] if s["bot"].startswith("policy"))["win_rate_ci"]
    assert rates[0][1] < 0.5, rates  # the control: without training it loses
    assert rates[400][0] > 0.5, rates


@pytest.mark.parametrize("game", api.games())
def test_the_policy_bot_plays_a_dmc_file_in_its_game(game: str, tmp_path: Path) -> None:
    net = dmc.train(game, episodes=2, round_episodes=2, hidden=(8,), seed=1, eval_games=0)
    path = tmp_path / f"{game}.npz"
    net.save(path)
    assert isinstance(PolicyBot(str(path)).policy, dmc.QNetwork)
    report = Arena(game, parse_bots(f"policy:weights={path},random"), games=2, seed=1,
                   rules={"max_hands": 1}).run()
    assert report["games"] >= 2
    assert sum(s["decisions"] for s in report["summary"]) > 0


def test_a_file_of_another_game_or_encoding_is_refused(tmp_path: Path) -> None:
    net = dmc.train("rounce", 4, episodes=2, round_episodes=2, hidden=(8,), seed=1, eval_games=0)
    path = tmp_path / "rounce.npz"
    net.save(path)
    bot = PolicyBot(str(path))
    eighty = api.new_game("eighty", players=4, seed=1)
    with pytest.raises(ValueError, match="plays rounce with 4 players, not eighty"):
        bot.choose(eighty.view(eighty.current_player), eighty.legal_actions(), random.Random(0))

    with np.load(path) as data:
        fields = dict(data)
    fields["obs_size"] = np.asarray(fields["obs_size"] + 1)
    stale = tmp_path / "stale.npz"
    np.savez(stale, **fields)
    with pytest.raises(ValueError, match="train it again"):
        PolicyBot(str(stale))

    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a file of weights")
    with pytest.raises(ValueError, match="not a saved boneyard policy"):
        PolicyBot(str(junk))


def test_the_linear_format_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "linear.npz"
    LinearPolicy(encoding("rounce", 4, {})).save(path)
    assert not dmc.is_dmc_file(path)
    assert isinstance(PolicyBot(str(path)).policy, LinearPolicy)


def test_the_train_command_saves_a_network_and_measures_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from boneyard.cli.main import app

    out = tmp_path / "rounce.npz"
    runner = CliRunner(env={"COLUMNS": "2000"})
    result = runner.invoke(app, ["train", "rounce", "--players", "2", "--minutes", "0.02", "--hidden", "16",
                                      "--out", str(out), "--arena-games", "4"])
    assert result.exit_code == 0, result.output
    assert isinstance(PolicyBot(str(out)).policy, dmc.QNetwork)
    assert f"policy:weights={out}" in result.output
    assert result.output.count("win rate") == 2  # the arena against random, then against greedy
    refused = runner.invoke(app, ["train", "rounce", "--minutes", "1", "--out", str(tmp_path / "x.txt")])
    assert refused.exit_code != 0 and ".npz" in refused.output
