"""Train a small policy for two-player Domino Rounce and measure it with ``boneyard arena``.

The policy is linear (a masked softmax over the 103 actions of Rounce's encoding),
trained with REINFORCE through the Gymnasium environment ``boneyard/Rounce-v0`` against
the random bot, NumPy only (see ``boneyard/rl/policy.py``). Then ``boneyard arena``
plays it against the random bot in duplicate format, the untrained policy too (all
weights zero: it always plays the lowest legal index), so that the gain is the
training's and not the encoding's.

    .venv/bin/python examples/train_rounce.py --seconds 180 --games 400

It prints the learning curve, both arena tables (win rate with its 95% confidence
interval) and whether the trained policy's interval lies above one half.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from boneyard.rl import encoding
from boneyard.rl.policy import LinearPolicy, train


def arena(weights: Path, games: int, seed: int, workers: int) -> dict:
    """Run ``boneyard arena`` (the command line tool) for the policy against the random bot."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "arena.json"
        cmd = [sys.executable, "-m", "boneyard", "arena", "rounce", "--players", "2",
               "--bots", f"policy:weights={weights},random", "--games", str(games),
               "--seed", str(seed), "--workers", str(workers), "--json", str(out)]
        subprocess.run(cmd, check=True)
        report: dict = json.loads(out.read_text())
    return report


def main() -> None:
    """Train, save, measure against random, and compare with the untrained policy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0, help="training time")
    parser.add_argument("--games", type=int, default=400, help="arena games for each measurement")
    parser.add_argument("--lr", type=float, default=1.0, help="learning rate (advantages are normalised)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the training and of the arena deals")
    parser.add_argument("--workers", type=int, default=2, help="arena worker processes")
    parser.add_argument("--out", type=Path, default=Path("rounce_policy.npz"), help="where to save the weights")
    args = parser.parse_args()

    def show(done: int, mean_return: float) -> None:
        if done % 640 == 0:
            print(f"  {done:6d} games  mean return of the last batch {mean_return:+.3f}", flush=True)

    print(f"training for {args.seconds:.0f} s against the random bot (2-player rounce)")
    policy, curve = train("rounce", players=2, opponents="random", seconds=args.seconds, seed=args.seed,
                          lr=args.lr, progress=show)
    policy.save(args.out)
    first, last = curve[:10], curve[-10:]
    print(f"mean return: first 10 batches {sum(first) / len(first):+.3f}, last 10 {sum(last) / len(last):+.3f}")
    print(f"weights saved to {args.out}")

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        untrained = Path(tmp) / "untrained.npz"
        LinearPolicy(encoding("rounce", 2)).save(untrained)
        for label, path in (("trained", args.out), ("untrained", untrained)):
            report = arena(path, args.games, args.seed, args.workers)
            results[label] = report["summary"][0]
    for label, s in results.items():
        lo, hi = s["win_rate_ci"]
        print(f"{label:9s} policy vs random: win rate {s['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {s['games']} games")
    lo = results["trained"]["win_rate_ci"][0]
    verdict = "beats" if lo > 0.5 else "does not beat"
    print(f"the trained policy {verdict} the random bot (95% CI lower bound {lo:.3f} vs 0.5)")


if __name__ == "__main__":
    main()
