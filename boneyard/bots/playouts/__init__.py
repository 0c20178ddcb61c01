"""Playouts compiled with the engines (mypyc): a game's greedy policy over its engine's fast path."""
