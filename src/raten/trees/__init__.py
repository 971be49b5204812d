"""Exact decision trees: the tree and its file format, the player, the exact search, its kernels and jobs."""
