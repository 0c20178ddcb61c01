"""``python -m boneyard`` runs the command line."""

from boneyard.cli.main import main

main()
