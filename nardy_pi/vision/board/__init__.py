"""Reading a board: find the playing surface, measure its geometry, read every point with the
learned model, adapt to one board at calibration."""
