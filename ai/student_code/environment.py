"""The environment a worker starts with: what Python needs, nothing of the teacher's.

A student's code reads its environment as any program does (``os.environ``), so the worker
and its supervisor never inherit the app's: no tokens, no ``SSH_AUTH_SOCK``, no ``DISPLAY``
or ``WAYLAND_DISPLAY``, no ``DBUS_SESSION_BUS_ADDRESS``, no home folder.  They get a plain
search path, a UTF-8 locale, a home and temporary folder of their own, the few variables
Windows needs to run a program, and Plyground's own variables (``PLYGROUND_*``: the sandbox
mode, a test's marker), which hold no secret.
"""

from __future__ import annotations

import os

SEARCH_PATH = os.pathsep.join(("/usr/local/bin", "/usr/bin", "/bin"))
"""Where a worker finds programs on POSIX (the system's, never the teacher's own folders)."""
KEPT = ("SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "LD_LIBRARY_PATH")
"""Variables a Python needs to start where they are set (Windows; a Python whose libraries
lie outside the system's)."""
OWN_PREFIX = "PLYGROUND_"
"""Plyground's own variables, passed on."""


def worker_environment(home: str) -> dict[str, str]:
    """The whole environment of a supervisor and its worker, with `home` as its home and
    temporary folder."""
    environment = {
        "PATH": os.environ.get("PATH", "") if os.name == "nt" else SEARCH_PATH,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": home,
        "TMPDIR": home,
        "TEMP": home,
        "TMP": home,
    }
    for name, value in os.environ.items():
        if name.upper() in KEPT or name.startswith(OWN_PREFIX):
            environment[name] = value
    return environment
