"""The board's configuration: TOML in, a validated, frozen ``Config`` out.

``loader`` reads the file (``load_config``, ``parse_config``) and ``model`` is the
dataclass tree it returns; ``values`` reads typed values and names the file, line
and key of every error (``ConfigError``); ``check`` refuses a GPIO used twice;
``tomlpos`` finds a key's line; ``wiring`` holds the point order and the default
wirings. The package sits beside ``core``: it imports ``rules``, the palette
from ``tracker`` and the port names from ``core.ports``, and nothing above.
"""
