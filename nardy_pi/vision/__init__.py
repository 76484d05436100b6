"""Vision: frame sources, the synthetic board renderer, calibration, census, dice, stability.

Vision knows nothing of variants or turns; it reports what it sees in the physical board frame.
"""
