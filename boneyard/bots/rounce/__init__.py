"""Rounce's search, beside its heuristic (``greedy/rounce.py``): the reading of the table.

Joined in the game's search profile, :mod:`boneyard.bots.profiles.rounce`.
"""
