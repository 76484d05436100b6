"""Independent move generators (gnubg-nn, OpenSpiel) wrapped to speak our `Position`.

Used by the differential test and by bench/bench_rules.py; the shipped package never imports
them. A turn's outcome is compared as a set of `BoardKey`s (the board after the turn, without
whose turn it is); a pass is the unchanged board, so every reference and ours agree on that.
"""
