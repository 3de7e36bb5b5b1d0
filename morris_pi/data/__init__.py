"""Files shipped inside the package and read with ``importlib.resources``.

``morris-pi.service`` and ``morris-pi-root.conf`` are copies of the files in the
repository's ``systemd/`` directory, which are the source of truth; a test keeps
them identical.
"""
