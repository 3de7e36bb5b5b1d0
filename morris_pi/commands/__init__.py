"""One module per ``morris-pi`` subcommand (floor 5).

Each module has ``register(subparsers)``, which adds its subcommand to the console script's
parser (``Subparsers``: what ``ArgumentParser.add_subparsers`` returns), and ``run(args)``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # not subscriptable at run time, where documentation tools read the annotation
    Subparsers = argparse._SubParsersAction
