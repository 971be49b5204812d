"""Playing games: the daily game and its rules, strategies, and simulating many games."""
