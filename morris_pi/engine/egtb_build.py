"""Build the flying endgame tables by retrograde analysis: ``python -m morris_pi.engine.egtb_build``.

Solves 3 v 3, then 3 v 4 and 4 v 3 together (men all on the board, none in
hand), for ``all_in_mills`` = ``any`` (standard, club, lasker) and ``none``
(move-this), and writes ``morris_pi/engine/data/flying-*.bin`` plus the
manifest ``egtb.json`` with their SHA-256 sums. Needs numpy (the ``egtb``
extra); the engine reads the result with the standard library alone.

Method. Every position of a table is indexed as (rank of the mover's men) x
(rank of the other side's men) over all subsets of the 24 points. A forward
pass counts each position's non-capturing turns and settles its capturing
turns at once (a capture against three men wins; a capture by the three-man
side against four leads into the already solved 3 v 3 table). Then distances
grow one turn at a time: positions lost in ``n`` make their predecessors
(found by un-moving) won in ``n + 1``; positions won in ``n`` decrement their
predecessors' counters, and a predecessor whose every turn leads to a win for
the opponent is lost (distance: its longest line). What stays undecided is a
draw. Distances count turns to the end of the game (distance to mate). A
second pass over 3 v 4 and 4 v 3 counts turns to the next capture instead
(distance to conversion): the N-move counter restarts there, so the search
uses it to decide whether a win comes in time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

try:
    import numpy as np
except ImportError:  # pragma: no cover - only the builder needs numpy
    HAVE_NUMPY = False
else:
    HAVE_NUMPY = True

from morris_pi.rules.board import STANDARD

from .egtb import DATA_DIR, MAGIC, MANIFEST, TABLES, canonical_sets, file_name

if TYPE_CHECKING:
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]  # positions' indices or masks, one per position
    Bools = npt.NDArray[np.bool_]

Log = Callable[[str], None]

FULL = (1 << 24) - 1
UNKNOWN, INVALID = -1, -2
NEVER = 32000


class Geometry:
    def __init__(self) -> None:
        self.mills = np.array(STANDARD.mills, dtype=np.int64)
        partners = STANDARD.mill_partners
        assert all(len(p) == 2 for p in partners)
        self.p0 = np.array([p[0] for p in partners], dtype=np.int64)
        self.p1 = np.array([p[1] for p in partners], dtype=np.int64)
        nbr = np.full((24, 4), -1, dtype=np.int64)
        for i, m in enumerate(STANDARD.adjacency):
            for s, j in enumerate(b for b in range(24) if m >> b & 1):
                nbr[i, s] = j
        self.nbr = nbr
        self.combos: dict[int, Ints] = {}
        self.rank: dict[int, npt.NDArray[np.int32]] = {}
        self.bits: dict[int, Ints] = {}
        for k in (3, 4):
            cs = list(combinations(range(24), k))
            self.bits[k] = np.array(cs, dtype=np.int64)
            masks = np.zeros(len(cs), dtype=np.int64)
            for j in range(k):
                masks |= np.left_shift(1, self.bits[k][:, j])
            self.combos[k] = masks
            rank = np.full(1 << 24, -1, dtype=np.int32)
            rank[masks] = np.arange(len(cs), dtype=np.int32)
            self.rank[k] = rank

    def closes(self, rest: Ints, t: Ints) -> Bools:
        """Whether a man arriving on ``t`` closes a mill with the men ``rest``."""
        p0, p1 = self.p0[t], self.p1[t]
        # numpy types an array comparison as Any: the annotated name keeps the result typed
        closed: Bools = ((rest & p0) == p0) | ((rest & p1) == p1)
        return closed

    def in_mill_all(self, men: Ints) -> Bools:
        """Whether every one of ``men`` stands in a closed mill of its own."""
        covered = np.zeros_like(men)
        for m in self.mills:
            covered |= np.where((men & m) == m, m, 0)
        all_in: Bools = (men & ~covered) == 0
        return all_in

    def removable(self, men: Ints, any_rule: bool) -> Ints:
        covered = np.zeros_like(men)
        for m in self.mills:
            covered |= np.where((men & m) == m, m, 0)
        free = men & ~covered
        if any_rule:
            return np.where(free != 0, free, men)
        return free


class Table:
    """One table (mover has ``k`` men, the other side ``j``), over the full rank grid."""

    def __init__(self, geo: Geometry, k: int, j: int) -> None:
        self.geo, self.k, self.j = geo, k, j
        self.na, self.nb = comb(24, k), comb(24, j)
        n = self.na * self.nb
        self.dtm = np.full(n, UNKNOWN, dtype=np.int16)
        self.count = np.zeros(n, dtype=np.int16)
        self.wincap = np.full(n, NEVER, dtype=np.int16)
        self.losscap = np.zeros(n, dtype=np.int16)
        self.drawcap = np.zeros(n, dtype=bool)
        self.sched = np.full(n, NEVER, dtype=np.int16)

    def masks(self, idx: Ints) -> tuple[Ints, Ints]:
        return self.geo.combos[self.k][idx // self.nb], self.geo.combos[self.j][idx % self.nb]

    def index(self, me: Ints, op: Ints) -> Ints:
        return self.geo.rank[self.k][me].astype(np.int64) * self.nb + self.geo.rank[self.j][op]


def forward(table: Table, any_rule: bool, t33: Table | None, dtc: bool = False, chunk: int = 1 << 21) -> None:
    """Count quiet turns and settle capturing turns of every position.

    ``dtc``: count a capture as the end of the line (distance to conversion, what
    the N-move rule cares about) instead of adding the 3 v 3 table's distance.
    """
    geo = table.geo
    k, j = table.k, table.j
    for lo in range(0, table.dtm.size, chunk):
        idx = np.arange(lo, min(lo + chunk, table.dtm.size), dtype=np.int64)
        me, op = table.masks(idx)
        valid = (me & op) == 0
        empty = FULL & ~(me | op)
        rem = geo.removable(op, any_rule)
        meb = geo.bits[k][idx // table.nb]
        opb = geo.bits[j][idx % table.nb]
        nq = np.zeros(idx.size, dtype=np.int16)
        anycap = np.zeros(idx.size, dtype=bool)
        wincap = np.full(idx.size, NEVER, dtype=np.int16)
        losscap = np.zeros(idx.size, dtype=np.int16)
        drawcap = np.zeros(idx.size, dtype=bool)
        for a in range(k):
            o = meb[:, a]
            rest = me & ~np.left_shift(1, o)
            if k == 3:
                targets = [np.full(idx.size, t, dtype=np.int64) for t in range(24)]
            else:
                targets = [geo.nbr[o, s] for s in range(4)]
            for t in targets:
                tt = np.maximum(t, 0)
                legal = valid & (t >= 0) & (((empty >> tt) & 1) == 1)
                closes = geo.closes(rest, tt)
                quiet = legal & (~closes | (rem == 0))
                nq += quiet
                cap = legal & closes & (rem != 0)
                if not cap.any():
                    continue
                anycap |= cap
                if j == 3:
                    wincap[cap] = 1
                    continue
                if t33 is None:
                    raise ValueError(f"the {k} v {j} table needs the solved 3 v 3 table")
                sel = np.nonzero(cap)[0]
                for b in range(j):
                    rb = np.left_shift(1, opb[sel, b])
                    ok = (rem[sel] & rb) != 0
                    s2 = sel[ok]
                    child = t33.index(op[s2] & ~rb[ok], rest[s2] | np.left_shift(1, tt[s2]))
                    d = t33.dtm[child]
                    win = (d >= 0) & (d % 2 == 0)
                    step = np.ones_like(d) if dtc else d + 1
                    np.minimum.at(wincap, s2[win], step[win].astype(np.int16))
                    loss = (d >= 0) & (d % 2 == 1)
                    np.maximum.at(losscap, s2[loss], step[loss].astype(np.int16))
                    drawcap[s2[d < 0]] = True
        sl = slice(lo, lo + idx.size)
        table.dtm[sl] = np.where(valid, UNKNOWN, INVALID)
        table.count[sl] = nq
        table.wincap[sl] = wincap
        table.losscap[sl] = losscap
        table.drawcap[sl] = drawcap
        # no quiet turn: the captures alone decide (or the mover is blocked)
        sched = np.full(idx.size, NEVER, dtype=np.int16)
        alone = valid & (nq == 0) & (wincap == NEVER) & ~drawcap
        sched[alone & anycap] = losscap[alone & anycap]
        sched[alone & ~anycap] = 0
        table.sched[sl] = sched


def predecessors(table: Table, idx: Ints, any_rule: bool, other: Table) -> Ints:
    """Indices (in ``other``, the swapped table) of positions with a quiet turn into ``idx``."""
    geo = table.geo
    me, op = table.masks(idx)
    empty = FULL & ~(me | op)
    opb = geo.bits[table.j][idx % table.nb]
    me_locked = None if any_rule else geo.in_mill_all(me)
    out = []
    for a in range(table.j):
        t = opb[:, a]
        rest = op & ~np.left_shift(1, t)
        quiet = ~geo.closes(rest, t)
        if me_locked is not None:
            quiet |= me_locked  # a mill closed against men all in mills removes nothing
        sources = range(24) if table.j == 3 else range(4)
        for s in sources:
            f = np.full(idx.size, s, dtype=np.int64) if table.j == 3 else geo.nbr[t, s]
            ff = np.maximum(f, 0)
            ok = quiet & (f >= 0) & (((empty >> ff) & 1) == 1)
            if ok.any():
                out.append(other.index(rest[ok] | np.left_shift(1, ff[ok]), me[ok]))
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def solve(tables: dict[tuple[int, int], Table], any_rule: bool, log: Log) -> None:
    """Retrograde iteration over tables that lead into each other by quiet turns."""
    swapped = {key: tables[(key[1], key[0])] for key in tables}
    for n in range(0, 250):
        if n % 2 == 0:
            lost = {}
            for key, tb in tables.items():
                sel = np.nonzero((tb.dtm == UNKNOWN) & (tb.sched == n))[0]
                tb.dtm[sel] = n
                lost[key] = sel
            for key, sel in lost.items():
                other = swapped[key]
                for lo in range(0, sel.size, 1 << 20):
                    q = predecessors(tables[key], sel[lo : lo + (1 << 20)], any_rule, other)
                    q = q[other.dtm[q] == UNKNOWN]
                    other.dtm[q] = n + 1
            for tb in tables.values():
                sel = (tb.dtm == UNKNOWN) & (tb.wincap == n + 1)
                tb.dtm[sel] = n + 1
        else:
            done = True
            for key, tb in tables.items():
                won = np.nonzero(tb.dtm == n)[0]
                other = swapped[key]
                for lo in range(0, won.size, 1 << 20):
                    q = predecessors(tb, won[lo : lo + (1 << 20)], any_rule, other)
                    q = q[other.dtm[q] == UNKNOWN]
                    np.subtract.at(other.count, q, 1)
                    z = np.unique(q[other.count[q] == 0])
                    z = z[(other.wincap[z] == NEVER) & ~other.drawcap[z]]
                    other.sched[z] = np.maximum(other.losscap[z], n + 1)
                if won.size:
                    done = False
            pending = any(
                (
                    (tb.dtm == UNKNOWN) & ((tb.sched > n) & (tb.sched < NEVER) | (tb.wincap > n) & (tb.wincap < NEVER))
                ).any()
                for tb in tables.values()
            )
            sizes = " ".join(
                f"{k}v{j}:{int((tb.dtm == n).sum()) + int((tb.dtm == n - 1).sum())}" for (k, j), tb in tables.items()
            )
            log(f"  distance {n - 1}-{n}: {sizes}")
            if done and not pending and not any((tb.dtm == n - 1).any() for tb in tables.values()):
                break


def canonical_bytes(table: Table) -> bytes:
    """The table as shipped: canonical mover sets x relative ranks of the other side, one byte each."""
    k, j = table.k, table.j
    reps, _ = canonical_sets(k)
    per = comb(24 - k, j)
    lex = np.array(list(combinations(range(24 - k), j)), dtype=np.int64)
    colex = np.zeros(len(lex), dtype=np.int64)
    for b in range(j):
        colex += np.array([comb(int(c), b + 1) for c in lex[:, b]], dtype=np.int64)
    out = np.zeros(len(reps) * per, dtype=np.uint8)
    for r, rep in enumerate(reps):
        free = np.array([p for p in range(24) if not rep >> p & 1], dtype=np.int64)
        pts = free[lex]
        masks = np.zeros(len(lex), dtype=np.int64)
        for b in range(j):
            masks |= np.left_shift(1, pts[:, b])
        d = table.dtm[table.index(np.full(len(lex), rep, dtype=np.int64), masks)]
        assert (d != INVALID).all()
        if (d > 254).any():
            raise SystemExit("distance beyond 254 turns does not fit a byte")
        out[r * per + colex] = np.where(d >= 0, d + 1, 0).astype(np.uint8)
    return out.tobytes()


def build(any_rule: bool, geo: Geometry, log: Log) -> tuple[bytes, dict[str, object]]:
    rule = "any" if any_rule else "none"
    stats: dict[str, object] = {}
    t0 = time.perf_counter()
    log(f"[{rule}] step 1 of 3: 3v3, distance to mate")
    t33 = Table(geo, 3, 3)
    forward(t33, any_rule, None)
    solve({(3, 3): t33}, any_rule, log)
    log(f"[{rule}] 3v3 solved in {time.perf_counter() - t0:.1f} s")
    log(f"[{rule}] step 2 of 3: 3v4 and 4v3, distance to mate")
    t34, t43 = Table(geo, 3, 4), Table(geo, 4, 3)
    forward(t34, any_rule, t33)
    forward(t43, any_rule, t33)
    solve({(3, 4): t34, (4, 3): t43}, any_rule, log)
    log(f"[{rule}] 3v4 and 4v3 solved in {time.perf_counter() - t0:.1f} s")
    log(f"[{rule}] step 3 of 3: 3v4 and 4v3, distance to conversion")
    c34, c43 = Table(geo, 3, 4), Table(geo, 4, 3)
    forward(c34, any_rule, t33, dtc=True)
    forward(c43, any_rule, t33, dtc=True)
    solve({(3, 4): c34, (4, 3): c43}, any_rule, log)
    for tb, c in ((t34, c34), (t43, c43)):
        assert ((tb.dtm >= 0) == (c.dtm >= 0)).all() and ((tb.dtm % 2) == (c.dtm % 2)).all()
    log(f"[{rule}] distances to conversion solved in {time.perf_counter() - t0:.1f} s")
    parts = []
    header_tables = []
    for key, metric, tb in (
        ((3, 3), "dtm", t33),
        ((3, 4), "dtm", t34),
        ((4, 3), "dtm", t43),
        ((3, 4), "dtc", c34),
        ((4, 3), "dtc", c43),
    ):
        data = canonical_bytes(tb)
        parts.append(data)
        header_tables.append({"men": list(key), "metric": metric, "size": len(data)})
        d = tb.dtm[tb.dtm != INVALID]
        stats[f"{key[0]}v{key[1]}" + ("" if metric == "dtm" else " conversion")] = {
            "positions": int(d.size),
            "stored": len(data),
            "wins": int(((d >= 0) & (d % 2 == 1)).sum()),
            "losses": int(((d >= 0) & (d % 2 == 0)).sum()),
            "draws": int((d < 0).sum()),
            "longest": int(d.max()),
        }
    payload = b"".join(parts)
    header = json.dumps({"all_in_mills": rule, "tables": header_tables}).encode()
    blob = MAGIC + header + b"\n" + lzma.compress(payload, preset=9)
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    stats["payload_bytes"] = len(payload)
    stats["file_bytes"] = len(blob)
    return blob, stats


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m morris_pi.engine.egtb_build", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument(
        "--rule",
        choices=("any", "none", "both"),
        default="both",
        help="all_in_mills setting to build for (default: both)",
    )
    parser.add_argument("--out", default=str(DATA_DIR), help="directory to write to (default: the package data)")
    args = parser.parse_args(argv)
    if not HAVE_NUMPY:
        print("egtb_build needs numpy: pip install 'morris-pi[egtb]'", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / MANIFEST.name
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        manifest = {"files": {}}

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    geo = Geometry()
    rules = ("any", "none") if args.rule == "both" else (args.rule,)
    for number, rule in enumerate(rules, 1):
        # progress goes to stderr line by line (the result is the files): about 80 s per table on a 2-core PC
        log(f"table {number} of {len(rules)}: all_in_mills = {rule}")
        blob, stats = build(rule == "any", geo, log)
        name = file_name(rule)
        (out / name).write_bytes(blob)
        manifest["files"][name] = {
            "sha256": hashlib.sha256(blob).hexdigest(),
            "all_in_mills": rule,
            "tables": [f"{k}v{j}" for k, j in TABLES],
            "stats": stats,
        }
        log(json.dumps(stats))
    manifest["format"] = MAGIC.decode().strip()
    manifest["value"] = (
        "byte 0 = draw; else 1 + turns with best play (odd: side to move wins); "
        "dtm: to mate, dtc: to the next capture or the end"
    )
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
