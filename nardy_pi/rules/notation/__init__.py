"""Notation in and out: XGID, gnubg Position/Match IDs, move text, .mat records."""
