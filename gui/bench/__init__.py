"""Frame-time benchmarks of the window."""
