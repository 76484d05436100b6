"""Match records in and out: .mat (gnubg / Jellyfish / eXtreme Gammon) and XGID."""
