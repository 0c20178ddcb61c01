"""Eighty's search, beside its heuristic (``greedy/eighty.py``): the reading of the table.

Joined in the game's search profile, :mod:`boneyard.bots.profiles.eighty`.
"""
