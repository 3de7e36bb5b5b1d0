"""The board's self-test, over any sensors, LEDs and buttons (a board or the simulator).

``selftest`` is the state machine and its driver (``HwTest``, ``run_selftest``,
``Report``); ``learn`` maps the points of a board wired in another order
(``morris-pi hwtest --learn``) and writes the map into the config.
"""
