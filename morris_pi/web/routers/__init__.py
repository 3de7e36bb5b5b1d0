"""The HTTP API by concern; each module's ``routes(context)`` gives its Starlette routes.

- ``pages``: the page itself;
- ``live``: the game as it is played (state, the event stream, positions of the record);
- ``pair``: pairing a browser (the board's buttons, the PIN) and unpairing it;
- ``control``: what a paired browser may do (the buttons' actions, the page as the board);
- ``records``: the finished games (the list, each game, its pictures and downloads).

``common`` holds what they share: the board's ``Context``, the refusals and the checks.
"""
