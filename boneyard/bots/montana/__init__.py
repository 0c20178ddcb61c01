"""Montana's search, beside its heuristic (``greedy/montana.py``): playouts, defence, reading.

Joined in the game's search profile, :mod:`boneyard.bots.profiles.montana`.
"""
