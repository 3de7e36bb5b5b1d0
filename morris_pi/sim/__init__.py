"""Floor 4: the pygame simulator: a window that behaves like the real board.

Only ``drawing`` and ``app`` import pygame; ``layout``, ``hand`` and
``backends`` are pure and usable without it (``hwtest --sim`` scripts and
tests drive ``SimBoard`` directly).
"""
