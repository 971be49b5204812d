"""`python -m raten` runs the `raten` command."""

from raten.cli.main import main

main()
