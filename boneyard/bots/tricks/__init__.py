"""The greedy heuristics' trick play, compiled with the engines: one definition for greedy and its playouts.

Each module here holds how greedy plays a tile in a trick game and the playout that plays
those choices to the end of the hand on a sampled world, reading the engine's state and
applying the engine's actions (the engine checks and scores every play). The greedy
module calls the same function for a single decision, so the heuristic is defined once;
mypyc compiles these files with the engines (``hatch_build.py``'s ``ENGINE_SOURCES``), which
is what makes the search's playouts fast.
"""
