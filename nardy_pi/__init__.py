"""nardy-pi: a Raspberry Pi companion for over-the-board nardy and backgammon."""

__version__ = "0.1.0"
