"""Crash-safe storage: the SQLite event log and matches rebuilt by replaying it."""
