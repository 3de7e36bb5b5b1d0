"""The web companion: one more end of the board's ``Session``.

A page on the LAN watches the game live (board picture, whose turn, the
record, what the LEDs show and why), reviews finished games and, once the
browser is paired, controls the board with the same actions as its buttons
and menu. In ``morris-pi sim --web --no-window`` the page is the board itself.

- ``seam``: the thread-safe meeting point of the board loop and the server;
- ``page``: a view as the page's JSON, and board pictures; ``hub``: each view to every stream;
- ``pairing``: tokens for paired browsers, the PIN;
- ``app``: the HTTP API (Starlette), its routes in ``routers`` by concern (pages, live, pair,
  control, records); ``server``: uvicorn in its own thread;
- ``schema``, ``limits``, ``connections``, ``ratelog``: what any client may send, checked;
- ``static/``: the page (plain HTML, CSS and JavaScript; no build step). Its words come from
  ``morris_pi.catalogue``, in the reader's language.

Only ``app`` and ``server`` need the ``web`` extra; the board loops use
``seam`` whether or not it is installed.
"""
