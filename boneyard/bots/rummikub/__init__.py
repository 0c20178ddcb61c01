"""Rummikub's search, beside its heuristic (``greedy/rummikub.py``): the playout policy.

Joined in the game's search profile, :mod:`boneyard.bots.profiles.rummikub`.
"""
