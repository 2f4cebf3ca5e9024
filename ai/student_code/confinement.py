"""What a worker gives up before a student's file loads, on Linux (elsewhere nothing here runs).

- **No new privileges** (``PR_SET_NO_NEW_PRIVS``): nothing it executes gains rights, a
  set-user-ID program included.
- **An empty capability bounding set** as root (``PR_CAPBSET_DROP``), before every
  capability is dropped (`drop_capabilities`): a program it executes does not get them back.
- **A signal guard** (a seccomp filter): the code may signal only itself and its own process
  group, and may not trace, read or write another process's memory or take its descriptors;
  it opens no network socket (local ones only) and no io_uring (which could open one),
  and makes no memory file (``memfd_create``) or System V shared memory, which no
  process's resident size would count.
  So another player's worker, the supervisor and the app are out of its reach, and a worker
  that dies by a signal did it to itself: that game is its forfeit, never another's.

- **Files by Landlock** where no bubblewrap runs the worker (`restrict_files`): it may read
  only the system's libraries, its Python, Plyground's package, the games' folders and the
  student's own file, and write only in a scratch folder of its own; a classmate's file, the
  home folder and the system's secrets are out of its reach, as inside bubblewrap.

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

PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
LAST_CAPABILITY = 63

RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | 1  # SECCOMP_RET_ERRNO | EPERM
X32_BIT = 0x40000000

ARCHITECTURES = {
    # audit architecture, then: (kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo),
    # the calls refused outright (ptrace, process_vm_readv, process_vm_writev,
    # pidfd_send_signal, pidfd_getfd, io_uring_setup), and socket
    "x86_64": (0xC000003E, (62, 200, 234, 129, 297), (101, 310, 311, 424, 438, 425), 41),
    "aarch64": (0xC00000B7, (129, 130, 131, 138, 240), (117, 270, 271, 424, 438, 425), 198),
}
"""The system call numbers the guard looks at, per machine."""
MEMORY_CALLS = {"x86_64": (319, 29, 447), "aarch64": (279, 194, 447)}
"""memfd_create, shmget and memfd_secret, refused: memory held by a descriptor or a key is
in no process's resident size, so the supervisor's cap on the tree could not see it."""
AF_UNIX = 1
"""The one socket family a worker may open (no network: no AF_INET, AF_INET6, AF_PACKET or
AF_NETLINK, outside bubblewrap's own network namespace as inside it)."""

LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
NR, ARCH, ARG0 = 0, 4, 16
"""Offsets in `struct seccomp_data`: the call's number, its architecture, its first
argument's low 32 bits (little-endian)."""


def _program(machine: str, pid: int) -> list[tuple[int, int, int, int]]:
    """The guard as classic BPF: (code, jump if true, jump if false, constant) each."""
    arch, signalling, refused, socket = ARCHITECTURES[machine]
    kill, *to_self = signalling
    code: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, arch),
        (RET_K, 0, 0, RET_EPERM),  # another architecture's calls: refused
        (LD_W_ABS, 0, 0, NR),
    ]
    if machine == "x86_64":
        code += [(JGE_K, 0, 1, X32_BIT), (RET_K, 0, 0, RET_EPERM)]
    for number in (*refused, *MEMORY_CALLS[machine]):
        code += [(JEQ_K, 0, 1, number), (RET_K, 0, 0, RET_EPERM)]
    # kill(pid, ...): itself, its own group (0 or -pid)
    code += [
        (JEQ_K, 0, 6, kill),
        (LD_W_ABS, 0, 0, ARG0),
        (JEQ_K, 3, 0, 0),
        (JEQ_K, 2, 0, pid),
        (JEQ_K, 1, 0, (-pid) & 0xFFFFFFFF),
        (RET_K, 0, 0, RET_EPERM),
        (RET_K, 0, 0, RET_ALLOW),
    ]
    for number in to_self:  # tkill, tgkill, sigqueue: only to itself
        code += [
            (JEQ_K, 0, 4, number),
            (LD_W_ABS, 0, 0, ARG0),
            (JEQ_K, 1, 0, pid),
            (RET_K, 0, 0, RET_EPERM),
            (RET_K, 0, 0, RET_ALLOW),
            (LD_W_ABS, 0, 0, NR),
        ]
    code += [  # socket(family, ...): local (AF_UNIX) only, no network
        (JEQ_K, 0, 3, socket),
        (LD_W_ABS, 0, 0, ARG0),
        (JEQ_K, 1, 0, AF_UNIX),
        (RET_K, 0, 0, RET_EPERM),
    ]
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


def landlock_version() -> int:
    """The kernel's Landlock ABI version, 0 where there is none."""
    libc = _libc() if sys.platform.startswith("linux") else None
    if libc is None:
        return 0
    version = libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, 1)  # type: ignore[attr-defined]
    return max(0, int(version))


def restrict_files(readable: list[str], writable: list[str]) -> bool:
    """Allow this process (and all it starts) to read only below `readable` and to write only
    below `writable`, with Landlock; True when it is in force.  Needs ``no_new_privs``."""
    version = landlock_version()
    if version <= 0:
        return False
    import ctypes

    libc = _libc()
    assert libc is not None
    rights = ABI_RIGHTS[max(v for v in ABI_RIGHTS if v <= version)]

    class Ruleset(ctypes.Structure):
        _fields_ = [("handled_access_fs", ctypes.c_uint64)]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    ruleset = Ruleset(rights)
    syscall = libc.syscall  # type: ignore[attr-defined]
    fd = syscall(LANDLOCK_CREATE_RULESET, ctypes.byref(ruleset), ctypes.sizeof(ruleset), 0)
    if fd < 0:
        return False
    try:
        for paths, allowed in ((readable, READ), (writable, rights)):
            for path in paths:
                try:
                    handle = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue  # not on this machine
                granted = allowed & rights
                if not os.path.isdir(path):
                    granted &= FILE_RIGHTS
                rule = PathBeneath(granted, handle)
                syscall(LANDLOCK_ADD_RULE, fd, RULE_PATH_BENEATH, ctypes.byref(rule), 0)
                os.close(handle)
        no_new_privileges()
        return bool(syscall(LANDLOCK_RESTRICT_SELF, fd, 0) == 0)
    finally:
        os.close(fd)
