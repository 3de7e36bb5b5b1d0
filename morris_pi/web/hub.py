"""The event streams' side of the server: each new view, made into the page's JSON once, to every open stream.

The board loop's thread hands a new ``View`` over (``seam.listen``); the
server's event loop turns it into JSON once per view and puts it on each open
stream's queue. A slow reader keeps only the latest view, never a backlog.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping

from morris_pi.core.closing import Closeable
from morris_pi.guidance import Look

from .page import view_json
from .seam import BoardSeam, View


class Hub(Closeable):
    """Pushes each new view to every open event stream (in the server's event loop).

    ``close()`` (from any thread, once; or the end of a ``with`` block) ends every stream;
    ``closing`` turns true in the event loop once they have been told.
    """

    def __init__(self, seam: BoardSeam, palette: Mapping[str, Look]) -> None:
        self.seam = seam
        self.palette = palette
        self.loop: asyncio.AbstractEventLoop | None = None
        #: The open event streams' queues, each with whether its page shows the board flipped.
        self.queues: dict[asyncio.Queue[str | None], bool] = {}
        self.closing = False
        self._cached: dict[bool, tuple[int, str]] = {}
        self._stop: Callable[[], None] | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._stop = self.seam.listen(self._from_board)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()

    def _release(self) -> None:
        """End every event stream (from any thread): the server can then stop at once."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._end)

    def _end(self) -> None:
        self.closing = True
        for queue in self.queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(None)

    def _from_board(self, view: View) -> None:  # the board loop's thread: hand over, nothing more
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._broadcast, view)

    def text(self, view: View | None = None, *, flipped: bool = False) -> str:
        """The view as the page's JSON, its picture seen from Black's side with ``flipped`` (each
        made once per view, and only when a page asks for it)."""
        view = view or self.seam.view
        if view is None:
            return "null"
        cached = self._cached.get(flipped)
        if cached is None or cached[0] != view.version:
            cached = (view.version, json.dumps(view_json(view, self.palette, flipped=flipped)))
            self._cached[flipped] = cached
        return cached[1]

    def _broadcast(self, view: View) -> None:
        if not self.queues or view is not self.seam.view:
            return  # nobody listens, or a newer view is on its way
        for queue, flipped in self.queues.items():
            if queue.full():  # a slow reader gets the latest, not a backlog
                queue.get_nowait()
            queue.put_nowait(self.text(view, flipped=flipped))
