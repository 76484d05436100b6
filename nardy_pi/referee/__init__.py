"""The referee: turns settled camera observations into game events.

It judges rolls, follows moves as they happen without judging half-made ones, decides when a
move is finished, infers the play with the rules core and flags illegal ones with the reason,
and keeps the record in step with the board (desync, undo, manual correction).
"""

from nardy_pi.referee.events import RefereeEvent
from nardy_pi.referee.referee import Phase, Referee, RefereeSettings

__all__ = ["Phase", "Referee", "RefereeEvent", "RefereeSettings"]
