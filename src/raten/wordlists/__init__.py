"""Where word sets come from: the built-in presets, files and the German list builder."""
