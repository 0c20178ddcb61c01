"""The terminal front end (Typer + Rich): ``boneyard games|rules|play|replay``."""
