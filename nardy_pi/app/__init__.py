"""`nardy-pi run`: one process, one event loop wiring frame source, vision, referee, match and
outputs (web page, GPIO, point strip, log). Nothing in the core imports this package."""
