"""The game and match engine: typed events, the match state machine, cube, timers, dice
statistics. Imports the rules core only."""
