"""The search-taught trainer: its labels, the search's comparison behind them, the fit, the files and the command."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boneyard import api
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.ismcts import IsmctsBot, paired_difference
from boneyard.rl import dmc, improve
from boneyard.rl.encoding import encoding
from boneyard.rl.policy import PolicyBot

ONE_HAND = {"max_hands": 1}


def _decisions(game: str, players: int, seed: int, most: int) -> list[tuple[dict, list]]:
    """Views and legal actions of a greedy game's decisions that have a choice."""
    g = api.new_game(game, players=players, seed=seed)
    greedy, rng = GreedyBot(), random.Random(seed)
    out: list[tuple[dict, list]] = []
    while not g.is_over and len(out) < most:
        view, legal = g.view(g.current_player), g.legal_actions()
        if len(legal) > 1:
            out.append((view, legal))
        g.apply(greedy.choose(view, legal, rng))
    return out


@pytest.mark.parametrize("relative", [False, True])
def test_the_all_outputs_gradient_matches_finite_differences(relative: bool) -> None:
    net = dmc.QNetwork(encoding("rounce", 2, ONE_HAND), (7, 5), seed=3)
    rng = np.random.default_rng(3)
    for p in net.params:
        p += rng.standard_normal(p.shape).astype(np.float32) * 0.3
    x = rng.random((6, net.enc.obs_size)).astype(np.float32)
    targets = rng.standard_normal((6, net.enc.num_actions)).astype(np.float32)
    weights = (rng.random((6, net.enc.num_actions)) < 0.1).astype(np.float32)
    base = rng.integers(0, net.enc.num_actions, 6) if relative else None
    _, grads = net.gradients_all(x, targets, weights, base)
    for k, p in enumerate(net.params):
        flat = p.reshape(-1)
        for i in rng.choice(flat.size, size=min(6, flat.size), replace=False):
            old = flat[i]
            flat[i] = old + 1e-2
            up, _ = net.gradients_all(x, targets, weights, base)
            flat[i] = old - 1e-2
            down, _ = net.gradients_all(x, targets, weights, base)
            flat[i] = old
            assert grads[k].reshape(-1)[i] == pytest.approx((up - down) / 2e-2, rel=0.05, abs=2e-3), (k, i)


def test_paired_difference_is_the_mean_and_standard_error_of_the_differences() -> None:
    mean, err = paired_difference([1.0, 0.5, 0.75], [0.5, 0.5, 0.25])
    diffs = np.array([0.5, 0.0, 0.5])
    assert mean == pytest.approx(diffs.mean())
    assert err == pytest.approx(diffs.std(ddof=1) / np.sqrt(3))
    assert paired_difference([], []) == (0.0, 0.0)
    assert paired_difference([1.0], [0.0]) == (1.0, 0.0)
    weighted, _ = paired_difference([1.0, 0.0], [0.0, 0.0], [3.0, 1.0])
    assert weighted == pytest.approx(0.75)


@pytest.mark.parametrize("game", ["rounce", "twobox", "eighty"])
def test_compare_measures_every_legal_action_against_greedys_choice(game: str) -> None:
    bot = IsmctsBot(favourite="greedy")
    for view, legal in _decisions(game, 4, 5, 4):
        favourite, rows = bot.compare(view, legal, random.Random(1), 6)
        assert favourite == GreedyBot().choose(view, legal, random.Random(0))
        assert [a for a, _, _ in rows] == list(legal)
        assert dict((str(a), (m, e)) for a, m, e in rows)[str(favourite)] == (0.0, 0.0)
        assert all(-1.0 <= m <= 1.0 and e >= 0.0 for _, m, e in rows)
        # the same generator gives the same worlds, so the same figures
        assert bot.compare(view, legal, random.Random(1), 6) == (favourite, rows)


def test_compare_measures_what_the_flat_search_plays_on() -> None:
    """Rounce's calls are searched flat over every call: on the same generator and rounds, the search plays
    the call whose advantage ``compare`` measures highest (greedy's among equals)."""
    checked = 0
    for view, legal in _decisions("rounce", 4, 9, 40):
        if view["phase"] != "call":
            continue
        favourite, rows = IsmctsBot(favourite="greedy").compare(view, legal, random.Random(3), 12)
        best = max(rows, key=lambda r: (r[1], str(r[0]) == str(favourite)))[0]
        search = IsmctsBot(favourite="greedy", shape="flat", evidence=0, iterations=12 * len(legal))
        assert str(search.choose(view, legal, random.Random(3))) == str(best)
        checked += 1
    assert checked >= 4


def test_the_search_finds_greedys_rounce_folds_too_timid() -> None:
    """What the labels teach in Rounce: greedy folds hands the search would play as a dummy, so a comparison
    of greedy's folds finds the dummy better on the whole (a comparison with its sign turned finds the opposite)."""
    bot = IsmctsBot(favourite="greedy")
    dummy = []
    for view, legal in _decisions("rounce", 4, 9, 40):
        favourite, rows = bot.compare(view, legal, random.Random(3), 16)
        if str(favourite) == "fold":
            dummy += [m for a, m, _ in rows if str(a) == "dummy"]
    assert len(dummy) >= 4 and np.mean(dummy) > 0.05


def test_labels_are_reproducible_and_name_greedys_choice() -> None:
    a = improve.label_games("rounce", 4, ONE_HAND, [11, 12], share=0.5, rounds=4)
    b = improve.label_games("rounce", 4, ONE_HAND, [11, 12], share=0.5, rounds=4)
    assert len(a) > 5 and a.games == 2
    for name in ("obs", "mask", "advantage", "error", "teacher"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    rows = np.arange(len(a))
    assert a.mask[rows, a.teacher].all()  # greedy's choice is legal
    assert (a.advantage[rows, a.teacher] == 0).all()
    assert (a.advantage[~a.mask] == 0).all() and (a.error[~a.mask] == 0).all()
    assert (a.mask.sum(axis=1) >= 2).all()  # only decisions with a choice are labelled


def test_collect_gives_the_same_labels_on_one_process_or_two() -> None:
    one = improve.collect("rounce", 2, ONE_HAND, games=4, workers=1, share=0.5, rounds=3, seed=7)
    two = improve.collect("rounce", 2, ONE_HAND, games=4, workers=2, share=0.5, rounds=3, seed=7)
    assert one.games == two.games == 4
    assert np.array_equal(one.obs, two.obs) and np.array_equal(one.advantage, two.advantage)
    grown = improve.collect("rounce", 2, ONE_HAND, games=2, share=0.5, rounds=3, seed=7, into=one)
    assert grown.games == 6 and len(grown) >= len(two)
    with pytest.raises(ValueError, match="rounds must be at least 2"):
        improve.collect("rounce", 2, ONE_HAND, games=1, rounds=1)
    with pytest.raises(ValueError, match="share"):
        improve.collect("rounce", 2, ONE_HAND, games=1, share=0)
    with pytest.raises(ValueError, match="not rounce with 4 players"):
        improve.collect("rounce", 4, ONE_HAND, games=1, into=one)


def _synthetic(n: int, seed: int) -> improve.Labels:
    """Labels where action 33 + 1 beats greedy's 33 + 0 exactly when observation entry 0 is set, by a clear margin."""
    enc = encoding("rounce", 2, ONE_HAND)
    rng = np.random.default_rng(seed)
    labels = improve.Labels.empty(enc)
    obs = (rng.random((n, enc.obs_size)) < 0.01).astype(np.float32)
    obs[:, 0] = rng.random(n) < 0.5
    mask = np.zeros((n, enc.num_actions), bool)
    mask[:, [33, 34, 35]] = True
    advantage = np.zeros((n, enc.num_actions), np.float32)
    advantage[:, 34] = np.where(obs[:, 0] > 0, 0.2, -0.2) + rng.normal(0, 0.05, n)
    advantage[:, 35] = -0.3 + rng.normal(0, 0.05, n)
    labels.obs, labels.mask, labels.advantage = obs, mask, advantage
    labels.error = np.full_like(advantage, 0.05) * mask
    labels.teacher = np.full(n, 33, np.int64)
    labels.games = n
    return labels


def test_the_fitted_network_overrules_greedy_where_the_labels_say_and_nowhere_else() -> None:
    net = improve.fit(_synthetic(1200, 0), hidden=(32,), epochs=30, batch=32, margin=0.5, seed=0)
    assert net.teacher == "greedy" and net.margin == 0.5
    test = _synthetic(200, 1)
    picks = [net.act(o, m, 33) for o, m in zip(test.obs, test.mask, strict=True)]
    wanted = [34 if o[0] > 0 else 33 for o in test.obs]
    assert np.mean(np.array(picks) == np.array(wanted)) > 0.9
    assert 35 not in picks


def test_too_few_labels_are_refused() -> None:
    with pytest.raises(ValueError, match="too few"):
        improve.fit(_synthetic(5, 0))


def test_labels_round_trip_and_a_wrong_file_is_refused(tmp_path: Path) -> None:
    labels = improve.label_games("rounce", 2, ONE_HAND, [3], share=1.0, rounds=3)
    path = tmp_path / "labels.npz"
    labels.save(path)
    back = improve.Labels.load(path)
    assert (back.game, back.players, back.rules, back.games) == ("rounce", 2, ONE_HAND, 1)
    assert np.array_equal(back.advantage, labels.advantage) and np.array_equal(back.teacher, labels.teacher)
    net_file = tmp_path / "net.npz"
    dmc.QNetwork(encoding("rounce", 2, ONE_HAND), (4,)).save(net_file)
    with pytest.raises(ValueError, match="not a saved labels file"):
        improve.Labels.load(net_file)
    with pytest.raises(ValueError, match="cannot join"):
        back.extend(improve.Labels.empty(encoding("rounce", 4, ONE_HAND)))


def test_the_train_command_labels_fits_and_refits(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from boneyard.cli.main import app

    out, labels = tmp_path / "rounce.npz", tmp_path / "labels.npz"
    runner = CliRunner(env={"COLUMNS": "2000"})
    args = ["train", "rounce", "--players", "2", "--method", "search", "--rule", "max_hands=1", "--hidden", "8",
            "--rounds", "3", "--share", "0.5", "--out", str(out), "--labels", str(labels), "--arena-games", "4"]
    result = runner.invoke(app, [*args, "--minutes", "0.05", "--tune-games", "4"])
    assert result.exit_code == 0, result.output
    assert "Labels written to" in result.output and result.output.count("win rate") == 5  # 3 margins, 2 arenas
    kept = float(result.output.split("Keeping margin ")[1].split()[0])
    assert kept in (0.25, 0.5, 0.75)
    net = PolicyBot(str(out)).policy
    assert isinstance(net, dmc.QNetwork) and net.teacher == "greedy" and net.margin == kept
    first = improve.Labels.load(labels)
    refit = runner.invoke(app, [*args, "--minutes", "0", "--margin", "1.5", "--arena-games", "0"])
    assert refit.exit_code == 0, refit.output
    assert dmc.load(out).margin == 1.5 and len(improve.Labels.load(labels)) == len(first)
    refused = runner.invoke(app, ["train", "rounce", "--method", "search", "--minutes", "0", "--out", str(out)])
    assert refused.exit_code != 0 and "--labels" in refused.output
    wrong = runner.invoke(app, ["train", "rounce", "--method", "annealing", "--out", str(out)])
    assert wrong.exit_code != 0 and "dmc or search" in wrong.output
    untunable = runner.invoke(app, ["train", "rounce", "--tune", "0.5", "--out", str(out)])
    assert untunable.exit_code != 0 and "--tune" in untunable.output
