"""The search-tree explorer's parts: a pygame-free model (`model.py`) and the views that read
it: controls, tree view, panel, practice, layout, the hover card's board, frame times."""
