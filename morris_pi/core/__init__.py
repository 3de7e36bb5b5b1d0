"""Floor 3: the one controller loop that hardware, simulator and replay all drive."""
