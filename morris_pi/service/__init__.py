"""The real board as a systemd service: config -> hardware slots -> Session.

``loop`` runs the board (``run_service``); ``hardware`` keeps the sensors, LEDs
and buttons in slots that survive a part failing and being rebuilt; ``sdnotify``
tells systemd READY, STATUS, WATCHDOG and STOPPING; ``journal`` formats the log
for journald. ``morris-pi run`` (``morris_pi.commands.run``) starts it.
"""
