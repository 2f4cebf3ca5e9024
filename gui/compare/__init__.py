"""The Compare view's parts: its table (cells worked out apart from drawing), its charts and
its background process."""
