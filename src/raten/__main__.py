"""`python -m raten` runs the `raten` command."""

from raten.cli import main

main()
