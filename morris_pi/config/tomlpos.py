"""Line numbers of keys in a TOML text.

``tomllib`` parses without positions, so a config error would only be able to
name its key. This scanner reads the text once more, tracking the current
``[table]`` header, and records the line where each dotted key is defined, so
the error can also say where to look. It understands headers, dotted and quoted
keys, comments, and values that span lines (arrays, inline tables, multi-line
strings); it never has to judge validity, because ``tomllib`` already did.

>>> lines = key_lines('[leds]\\ncount = 27  # chain\\n[leds.status]\\n"error" = 26\\n')
>>> lines[("leds", "count")], lines[("leds", "status", "error")]
(2, 4)
>>> locate(lines, ("leds", "status", "nope"))
3
>>> key_lines('[palette]\\nhint = { colour = "#ff0000", blink = "fast" }')[("palette", "hint", "blink")]
2
"""

from __future__ import annotations

Path = tuple[str, ...]


def _split_keys(text: str) -> Path:
    """``a."b.c" . d`` -> ``("a", "b.c", "d")``."""
    parts: list[str] = []
    buf: list[str] = []
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            else:
                buf.append(ch)
        elif ch in "\"'":
            quote = ch
        elif ch == ".":
            parts.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf).strip())
    return tuple(parts)


def _scan(text: str) -> tuple[int, int, str]:
    """Bracket depth change, index of the first top-level ``=`` (or -1), and an
    unterminated multi-line string delimiter, for one line outside strings."""
    depth = 0
    eq = -1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            break
        if text.startswith('"""', i) or text.startswith("'''", i):
            delim = text[i : i + 3]
            end = text.find(delim, i + 3)
            if end < 0:
                return depth, eq, delim
            i = end + 3
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if (ch == '"' and text[j] == "\\") else 1
            i = j + 1
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "=" and eq < 0 and depth == 0:
            eq = i
        i += 1
    return depth, eq, ""


def key_lines(text: str) -> dict[Path, int]:
    """Map every table header and dotted key path to its (first) 1-based line."""
    out: dict[Path, int] = {}
    table: Path = ()
    depth = 0
    open_string = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if open_string:
            if open_string in line:
                rest = line[line.index(open_string) + 3 :]
                open_string = ""
                depth += _scan(rest)[0]
            continue
        if depth > 0:
            change, _, open_string = _scan(line)
            depth += change
            continue
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            array = line.startswith("[[")
            body = line[2:] if array else line[1:]
            close = body.find("]]" if array else "]")
            table = _split_keys(body[:close] if close >= 0 else body)
            out.setdefault(table, number)
            continue
        change, eq, open_string = _scan(line)
        if eq < 0:
            continue
        keys = _split_keys(line[:eq])
        for cut in range(1, len(keys) + 1):
            out.setdefault(table + keys[:cut], number)
        value = line[eq + 1 :].strip()
        if value.startswith("{") and change == 0:
            _inline_keys(value, table + keys, number, out)
        # a value's own brackets open before the '=' is behind us
        depth = change
    return out


def _inline_keys(value: str, prefix: Path, number: int, out: dict[Path, int]) -> None:
    """Record the keys of a one-line inline table ``{ a = 1, b.c = { d = 2 } }``."""
    body = value[1 : value.rfind("}")] if "}" in value else value[1:]
    start, depth, quote = 0, 0, ""
    parts = []
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    for part in parts:
        _, eq, _ = _scan(part)
        if eq < 0:
            continue
        keys = _split_keys(part[:eq])
        for cut in range(1, len(keys) + 1):
            out.setdefault(prefix + keys[:cut], number)
        inner = part[eq + 1 :].strip()
        if inner.startswith("{"):
            _inline_keys(inner, prefix + keys, number, out)


def locate(lines: dict[Path, int], path: Path) -> int | None:
    """Line of ``path``, or of its nearest enclosing key or table that exists."""
    for cut in range(len(path), 0, -1):
        found = lines.get(path[:cut])
        if found is not None:
            return found
    return None
