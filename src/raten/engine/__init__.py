"""The data path, bottom floor: feedback, words, the pattern matrix, state and ranking; imports nothing outside."""
