"""Floor 2: reed-switch occupancy -> legal turns, corrections and LED roles. Imports only rules."""
