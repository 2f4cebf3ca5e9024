"""What a worker gives up before a student's file loads, on Linux (elsewhere nothing here runs).

- **No new privileges** (``PR_SET_NO_NEW_PRIVS``): nothing it executes gains rights, a
  set-user-ID program included.
- **An empty capability bounding set** as root (``PR_CAPBSET_DROP``), before every
  capability is dropped (`drop_capabilities`): a program it executes does not get them back.
- **A signal guard** (a seccomp filter): the code may signal only itself and its own process
  group, by every route the kernel has (``kill`` and its kin; an I/O owner set with
  ``fcntl`` F_SETOWN, F_SETOWN_EX or F_SETSIG, or ``ioctl`` FIOSETOWN or SIOCSPGRP, is
  refused); it may change the limits, priority or scheduling of no process but itself
  (``prlimit64``, ``setpriority``, ``ioprio_set``, ``sched_set*``, ``migrate_pages``,
  ``move_pages`` on another pid are refused), and may not trace, read or write another
  process's memory or take its descriptors; it opens no socket at all (its channel is a
  pair of pipes it already holds; ``socketpair`` stays, which reaches nobody), so neither
  the network nor a local socket (a display, an SSH agent, D-Bus, an abstract socket) is in
  reach, and no io_uring (which could open one); it makes no memory file (``memfd_create``)
  or System V shared memory, which no process's resident size would count; and it stays in
  the session and process group it was started in (``setsid`` and ``setpgid`` are refused),
  so the app can find and end all it started even when its supervisor was killed; and it
  makes no namespace (``unshare``, ``setns``, ``clone`` with a namespace flag; ``clone3``
  looks missing), whose user and mount namespaces would let it mount a tmpfs of its own.  So another
  player's worker, the supervisor and the app are out of its reach, and a worker that dies
  by a signal did it to itself: that game is its forfeit, never another's.
- **Landlock**: where the kernel has them (ABI 6, Linux 6.12), its scopes refuse a signal
  to any process outside the worker's own domain and a connection to an abstract socket
  made outside it, and (ABI 4) any TCP bind or connect, inside bubblewrap and outside it.
  Where no bubblewrap runs the worker (`restrict` with files) it may also read only the
  system's libraries, its Python, Plyground's package but its search reference (allowed
  file by file, so the reference's files cannot be read even with the import blocker gone),
  the games' files and the student's own file, and write only in a scratch folder of its
  own; a classmate's file, the home folder and the system's secrets are out of its reach,
  as inside bubblewrap.

The filter is written for x86-64 and AArch64 (their system call numbers); any other
architecture's calls (32-bit ones on a 64-bit kernel, x32) are refused outright.  Where the
kernel refuses the filter, the worker says so and the app treats a signal death as it must
when nobody can tell who sent it.
"""

from __future__ import annotations

import contextlib
import os
import platform
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
LAST_CAPABILITY = 63

RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | 1  # SECCOMP_RET_ERRNO | EPERM
X32_BIT = 0x40000000


@dataclass(frozen=True, slots=True)
class Calls:
    """One machine's system call numbers, as the guard sorts them."""

    audit: int
    """The machine's audit architecture (`seccomp_data.arch`)."""
    refused: tuple[int, ...]
    """Refused outright: ptrace, process_vm_readv, process_vm_writev, pidfd_send_signal,
    pidfd_getfd, io_uring_setup, process_madvise, socket."""
    kill: int
    to_self: tuple[int, ...]
    """Allowed only with its own pid first: tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo."""
    self_or_zero: tuple[int, ...]
    """Allowed only on itself (pid 0 or its own): prlimit64, sched_setparam,
    sched_setscheduler, sched_setaffinity, sched_setattr, migrate_pages, move_pages."""
    priority: tuple[int, ...]
    """(which, who, ...): setpriority and ioprio_set, on itself or its own group only."""
    fcntl: int
    ioctl: int


ARCHITECTURES = {
    "x86_64": Calls(
        0xC000003E,
        (101, 310, 311, 424, 438, 425, 440, 41),
        62,
        (200, 234, 129, 297),
        (302, 142, 144, 203, 314, 256, 279),
        (141, 251),
        72,
        16,
    ),
    "aarch64": Calls(
        0xC00000B7,
        (117, 270, 271, 424, 438, 425, 440, 198),
        129,
        (130, 131, 138, 240),
        (261, 118, 119, 122, 274, 238, 239),
        (140, 30),
        25,
        29,
    ),
}
"""The system call numbers the guard looks at, per machine."""
OWNER_COMMANDS = (8, 10, 15)
"""fcntl's F_SETOWN, F_SETSIG and F_SETOWN_EX: who gets a descriptor's I/O signal, and which."""
OWNER_IOCTLS = (0x8901, 0x8902)
"""ioctl's FIOSETOWN and SIOCSPGRP: F_SETOWN by another name."""
PRIORITY_OF_USER = (2, 3)
"""setpriority's PRIO_USER and ioprio_set's IOPRIO_WHO_USER: every process of the user."""
MEMORY_CALLS = {"x86_64": (319, 29, 447), "aarch64": (279, 194, 447)}
"""memfd_create, shmget and memfd_secret, refused: memory held by a descriptor or a key is
in no process's resident size, so the supervisor's cap on the tree could not see it."""
NAMESPACE_CALLS = {"x86_64": (272, 308), "aarch64": (97, 268)}
"""unshare and setns, refused: a namespace of its own (a user namespace and a mount one)
would let it mount a tmpfs, memory outside every process's resident size."""
CLONE_CALLS = {"x86_64": (56, 435), "aarch64": (220, 435)}
"""clone (allowed without a namespace flag) and clone3 (refused as missing, ENOSYS: its flags
are in memory the filter cannot read, and the C library then falls back to clone)."""
NAMESPACE_FLAGS = 0x7E020000
"""clone's CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER,
CLONE_NEWPID and CLONE_NEWNET."""
RET_ENOSYS = 0x00050000 | 38  # SECCOMP_RET_ERRNO | ENOSYS
SESSION_CALLS = {"x86_64": (109, 112), "aarch64": (154, 157)}
"""setpgid and setsid, refused: every process of the worker's tree stays in the worker's
session, where the app finds what is left when the supervisor was killed from outside."""

LD_W_ABS, JEQ_K, JGE_K, JSET_K, JA, RET_K = 0x20, 0x15, 0x35, 0x45, 0x05, 0x06
NR, ARCH = 0, 4
"""Offsets in `struct seccomp_data`: the call's number, its architecture."""


def _argument(index: int) -> int:
    """The offset of argument `index`'s low 32 bits in `struct seccomp_data` (little-endian)."""
    return 16 + 8 * index


Instruction = tuple[int, int, int, int]


def _only(offset: int, values: tuple[int, ...]) -> list[Instruction]:
    """Refuse the call unless the 32-bit word at `offset` is one of `values`."""
    code: list[Instruction] = [(LD_W_ABS, 0, 0, offset)]
    code += [(JEQ_K, len(values) - i, 0, value & 0xFFFFFFFF) for i, value in enumerate(values)]
    return [*code, (RET_K, 0, 0, RET_EPERM)]


def _never(offset: int, values: tuple[int, ...]) -> list[Instruction]:
    """Refuse the call when the 32-bit word at `offset` is one of `values`."""
    code: list[Instruction] = [(LD_W_ABS, 0, 0, offset)]
    code += [(JEQ_K, len(values) - i, 0, value & 0xFFFFFFFF) for i, value in enumerate(values)]
    return [*code, (JA, 0, 0, 1), (RET_K, 0, 0, RET_EPERM)]


def _rule(number: int, body: list[Instruction]) -> list[Instruction]:
    """For call `number`: `body`'s checks, then allowed; any other call passes the rule."""
    body = [*body, (RET_K, 0, 0, RET_ALLOW)]
    return [(LD_W_ABS, 0, 0, NR), (JEQ_K, 0, len(body), number), *body]


def _program(machine: str, pid: int) -> list[Instruction]:
    """The guard as classic BPF: (code, jump if true, jump if false, constant) each."""
    calls = ARCHITECTURES[machine]
    own = (0, pid)
    code: list[Instruction] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, calls.audit),
        (RET_K, 0, 0, RET_EPERM),  # another architecture's calls: refused
        (LD_W_ABS, 0, 0, NR),
    ]
    if machine == "x86_64":
        code += [(JGE_K, 0, 1, X32_BIT), (RET_K, 0, 0, RET_EPERM)]
    refused = (*calls.refused, *MEMORY_CALLS[machine], *SESSION_CALLS[machine])
    for number in (*refused, *NAMESPACE_CALLS[machine]):
        code += [(JEQ_K, 0, 1, number), (RET_K, 0, 0, RET_EPERM)]
    clone, clone3 = CLONE_CALLS[machine]
    code += [(JEQ_K, 0, 1, clone3), (RET_K, 0, 0, RET_ENOSYS)]
    new_namespace = [(JSET_K, 0, 1, NAMESPACE_FLAGS), (RET_K, 0, 0, RET_EPERM)]
    code += _rule(clone, [(LD_W_ABS, 0, 0, _argument(0)), *new_namespace])
    code += _rule(calls.kill, _only(_argument(0), (0, pid, -pid)))  # itself, its own group
    for number in calls.to_self:
        code += _rule(number, _only(_argument(0), (pid,)))
    for number in calls.self_or_zero:
        code += _rule(number, _only(_argument(0), own))
    for number in calls.priority:
        code += _rule(number, _never(_argument(0), PRIORITY_OF_USER) + _only(_argument(1), own))
    code += _rule(calls.fcntl, _never(_argument(1), OWNER_COMMANDS))
    code += _rule(calls.ioctl, _never(_argument(1), OWNER_IOCTLS))
    return [*code, (RET_K, 0, 0, RET_ALLOW)]


def _libc() -> object | None:
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    return None


def install_signal_guard() -> bool:
    """Install the seccomp filter in this process (and all it will start); True if it is in
    force.  Needs ``no_new_privs`` first (set here)."""
    machine = platform.machine().lower()
    if not sys.platform.startswith("linux") or machine not in ARCHITECTURES:
        return False
    libc = _libc()
    if libc is None:
        return False
    import ctypes

    program = _program(machine, os.getpid())
    raw = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(raw)

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Program(len(program), ctypes.cast(buffer, ctypes.c_void_p))
    prctl = libc.prctl  # type: ignore[attr-defined]
    if prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    result = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0)
    return bool(result == 0)


def empty_bounding_set() -> None:
    """As root, drop every capability from the bounding set, so no program executed later
    regains one (without CAP_SETPCAP, or elsewhere, nothing changes)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return
    libc = _libc()
    if libc is None:
        return
    for capability in range(LAST_CAPABILITY + 1):
        libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)  # type: ignore[attr-defined]


def no_new_privileges() -> None:
    """``PR_SET_NO_NEW_PRIVS`` (Linux): nothing executed from here gains privileges."""
    if not sys.platform.startswith("linux"):
        return
    libc = _libc()
    if libc is not None:
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ Landlock

LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
"""Landlock's system calls (the same numbers on every Linux architecture)."""
RULE_PATH_BENEATH = 1
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TRUNCATE, IOCTL_DEV = 1 << 14, 1 << 15
READ = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
"""The rights a rule on a file (not a folder) may name."""
ABI_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
"""Every file-system right each Landlock ABI version knows (refer from 2, truncate from 3,
device ioctls from 5)."""
NETWORK_ABI, TCP_BIND_AND_CONNECT = 4, (1 << 0) | (1 << 1)
"""From ABI 4 Landlock handles TCP: handled with no rule, no bind and no connect."""
SCOPE_ABI, SCOPES = 6, (1 << 0) | (1 << 1)
"""From ABI 6: abstract unix sockets and signals scoped to the worker's own domain."""


def landlock_version() -> int:
    """The kernel's Landlock ABI version, 0 where there is none."""
    libc = _libc() if sys.platform.startswith("linux") else None
    if libc is None:
        return 0
    version = libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, 1)  # type: ignore[attr-defined]
    return max(0, int(version))


def is_hidden(path: Path, hidden: set[Path]) -> bool:
    """Whether `path` (a real path) is one of `hidden` or lies inside one, or is the compiled
    form of a hidden module (``__pycache__/grader.cpython-311.pyc`` for ``grader.py``)."""
    if path in hidden or any(place in path.parents for place in hidden):
        return True
    if path.parent.name == "__pycache__":
        source = path.parent.parent / (path.name.split(".", 1)[0] + ".py")
        return source in hidden
    return False


def readable_rules(readable: list[str], hidden: list[str]) -> list[tuple[str, bool]]:
    """The (path, whole) rules that allow reading `readable` but nothing of `hidden`: a
    folder with nothing hidden inside is allowed whole; one holding a hidden path is allowed
    to be listed (``whole`` False) and each of its entries is allowed in turn, file by file
    down to the hidden ones, which are left out."""
    secret = {Path(os.path.realpath(path)) for path in hidden}
    secret |= {Path(path) for path in hidden}
    rules: list[tuple[str, bool]] = []
    waiting = [Path(os.path.realpath(path)) for path in readable]
    seen: set[Path] = set()
    while waiting:
        path = waiting.pop()
        if path in seen or is_hidden(path, secret):
            continue
        seen.add(path)
        inside = any(path in place.parents for place in secret)
        if not inside or not path.is_dir():
            if path.exists():
                rules.append((str(path), True))
            continue
        rules.append((str(path), False))
        with contextlib.suppress(OSError):
            waiting += [Path(os.path.realpath(entry.path)) for entry in os.scandir(path)]
    return rules


def restrict(files: dict[str, list[str]] | None) -> bool:
    """Landlock this process (and all it starts); True when something is in force.

    Always, where the kernel has them: signals and abstract sockets scoped to its own
    domain, no TCP.  With `files` (``readable``, ``writable``, ``hidden``: paths): read
    only below ``readable`` but nothing of ``hidden`` (`readable_rules`), write only below
    ``writable``.  Needs ``no_new_privs`` (set here)."""
    version = landlock_version()
    if version <= 0:
        return False
    import ctypes

    libc = _libc()
    assert libc is not None
    rights = ABI_RIGHTS[max(v for v in ABI_RIGHTS if v <= version)] if files else 0

    class Ruleset(ctypes.Structure):
        _fields_ = [
            ("handled_access_fs", ctypes.c_uint64),
            ("handled_access_net", ctypes.c_uint64),
            ("scoped", ctypes.c_uint64),
        ]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    network = TCP_BIND_AND_CONNECT if version >= NETWORK_ABI else 0
    scoped = SCOPES if version >= SCOPE_ABI else 0
    if not (rights or network or scoped):
        return False
    size = 24 if scoped else 16 if network else 8  # the struct as this ABI knows it
    ruleset = Ruleset(rights, network, scoped)
    syscall = libc.syscall  # type: ignore[attr-defined]
    fd = syscall(LANDLOCK_CREATE_RULESET, ctypes.byref(ruleset), size, 0)
    if fd < 0:
        return False

    def allow(path: str, allowed: int) -> None:
        try:
            handle = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return  # not on this machine
        granted = allowed & rights
        if not os.path.isdir(path):
            granted &= FILE_RIGHTS
        rule = PathBeneath(granted, handle)
        syscall(LANDLOCK_ADD_RULE, fd, RULE_PATH_BENEATH, ctypes.byref(rule), 0)
        os.close(handle)

    try:
        if files:
            for path, whole in readable_rules(files["readable"], files.get("hidden", [])):
                allow(path, READ if whole else READ_DIR)
            for path in files["writable"]:
                allow(path, rights)
        no_new_privileges()
        return bool(syscall(LANDLOCK_RESTRICT_SELF, fd, 0) == 0)
    finally:
        os.close(fd)
