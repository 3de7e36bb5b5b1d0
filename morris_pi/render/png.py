"""PNG from a board picture, through CairoSVG (the optional ``png`` extra).

CairoSVG is kept up to date, pure Python over the system's cairo library
(``libcairo2`` on Debian and Raspberry Pi OS) and renders the picture's text
with the system's fonts. It is imported only here and only when a PNG is
asked for, so the renderer itself stays dependency-free.
"""

from __future__ import annotations

from morris_pi.errors import MorrisPiError


class PngUnavailableError(MorrisPiError, RuntimeError):
    """PNG output needs CairoSVG and the cairo library, and one of them is missing."""


def svg_to_png(svg: str, *, size: int | None = None) -> bytes:
    """The PNG image of an SVG text, ``size`` pixels square (default: the SVG's own size)."""
    try:
        import cairosvg
    except ImportError as exc:
        raise PngUnavailableError("PNG output needs CairoSVG: pip install 'morris-pi[png]'") from exc
    except OSError as exc:  # cairocffi found no libcairo to load
        raise PngUnavailableError(f"PNG output needs the cairo library (Debian: apt install libcairo2): {exc}") from exc
    kwargs = {"output_width": size, "output_height": size} if size else {}
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), **kwargs)
    return png
