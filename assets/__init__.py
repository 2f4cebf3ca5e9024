"""Fonts, sounds and precomputed tables, with the scripts that rebuild them (see README.md here)."""
