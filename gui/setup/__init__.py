"""The set-up scene's parts: the Custom AI fields and the volume control."""
