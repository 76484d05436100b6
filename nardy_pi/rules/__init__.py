"""The rules core: positions, variants, legal plays, inference and notation. Pure, no I/O."""
