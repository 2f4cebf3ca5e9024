"""What a value means: its kind and source (provenance), and the one wording every surface uses."""
