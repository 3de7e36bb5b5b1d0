"""Files shipped inside the package and read with ``importlib.resources``.

``morris-pi.service`` and ``morris-pi-root.conf`` are copies of the files in the
repository's ``systemd/`` directory, and ``config.example.toml`` is a copy of
``wiring/config.example.toml``. Those are the sources of truth; a test keeps the
copies identical, so after editing one, copy it here.
"""
