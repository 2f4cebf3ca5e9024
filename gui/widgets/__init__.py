"""Widgets and drawing shared by every scene: shapes and text, drop-downs, keyboard focus, help."""
