"""One module per ``morris-pi`` subcommand (floor 5)."""
