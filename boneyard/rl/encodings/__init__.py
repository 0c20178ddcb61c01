"""One module per game: its action index, observation blocks and fallback facts."""
