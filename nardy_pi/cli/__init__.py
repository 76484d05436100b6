"""Command-line interface: one module per command family, wired in `main`."""
