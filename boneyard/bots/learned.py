"""A learned network as the search's favourite (``favourite=learned``) and playout policy (``rollout=learned``).

The ``ismcts`` bot reads a Deep Monte-Carlo network (:mod:`boneyard.rl.dmc`) through
:func:`learned_chooser`: a :data:`~boneyard.bots.profile.Chooser` like greedy's ``choose``,
which encodes the view it is given (the searcher's own at the root; in a sampled world,
the mover's view of that world) and plays the legal action with the highest Q-value
(a network trained with a teacher plays the teacher's choice unless it overrules it). It
sees only views, so the search learns nothing from it that a seat could not know. The
network is the one shipped for the table's game and player count
(:mod:`boneyard.rl.weights`), or a file given as ``weights=FILE``; NumPy (the ``rl``
extra) is imported only when a bot asks for one.
"""

from __future__ import annotations

from .profile import Chooser

__all__ = ["learned_chooser"]


def learned_chooser(game: str, players: int, weights: str = "", who: str = "ismcts") -> Chooser:
    """The network's choice as a chooser for ``game`` with ``players`` seats.

    ``weights``: a network file (``boneyard train`` writes one); empty: the shipped network.
    ``ValueError`` naming the game and player count when there is none (the message lists
    the shipped ones), or when the file was made for another game or size, so a search is
    refused at its first decision rather than playing on a network that cannot read it;
    ``who`` names the asker in that message.
    """
    from ..rl import dmc
    from ..rl.weights import NoWeightsError, load_shipped

    try:
        net = dmc.load(weights) if weights else load_shipped(game, players)
    except NoWeightsError as err:
        raise ValueError(f"{who} has no learned network to play {game} with {players} players: {err}") from None
    enc = net.enc
    if (enc.game_id, enc.players) != (game, players):
        raise ValueError(f"{who}: {weights} plays {enc.game_id} with {enc.players} players, "
                         f"not {game} with {players}")

    return net.choose
