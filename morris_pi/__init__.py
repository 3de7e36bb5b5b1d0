"""morris-pi: a rules-aware, LED-guided Nine Men's Morris board for the Raspberry Pi."""

__version__ = "0.1.0"
