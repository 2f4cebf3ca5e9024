"""Comparing searches side by side on one position, and a preset's agreement with a known policy."""
