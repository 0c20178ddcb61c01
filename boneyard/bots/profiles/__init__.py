"""The games' search profiles, one module per game, each declaring ``PROFILE``.

A game whose search has parts of its own beyond the heuristic (kept in ``bots/<id>/``:
Montana's candidates, playout policy, defence and reading of the table; Eighty's and
Rounce's reading of the table; Rummikub's playout policy) declares its
:class:`~boneyard.bots.profile.SearchProfile` here, in ``boneyard/bots/profiles/<id>.py``,
so that ``greedy/<id>.py`` stays the heuristic a player would describe. A game without
such a module keeps its profile beside its heuristic (``greedy/<id>.py``'s ``PROFILE``), as
a game living outside ``boneyard`` registers it (``boneyard.bots.greedy.register``).
:func:`boneyard.bots.profile.profile` looks here first.
"""
