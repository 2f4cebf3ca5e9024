"""What a worker gives up before a student's file loads, on Linux (elsewhere nothing here runs).

- **No new privileges** (``PR_SET_NO_NEW_PRIVS``): nothing it executes gains rights, a
  set-user-ID program included.
- **An empty capability bounding set** as root (``PR_CAPBSET_DROP``), before every
  capability is dropped (`drop_capabilities`): a program it executes does not get them back.
- **A signal guard** (a seccomp filter): the code may signal only itself and its own process
  group, and may not trace, read or write another process's memory or take its descriptors.
  So another player's worker, the supervisor and the app are out of its reach, and a worker
  that dies by a signal did it to itself: that game is its forfeit, never another's.

The filter is written for x86-64 and AArch64 (their system call numbers); any other
architecture's calls (32-bit ones on a 64-bit kernel, x32) are refused outright.  Where the
kernel refuses the filter, `confine` says so and the app treats a signal death as it must
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
    # and the calls refused outright (ptrace, process_vm_readv, process_vm_writev,
    # pidfd_send_signal, pidfd_getfd)
    "x86_64": (0xC000003E, (62, 200, 234, 129, 297), (101, 310, 311, 424, 438)),
    "aarch64": (0xC00000B7, (129, 130, 131, 138, 240), (117, 270, 271, 424, 438)),
}
"""The system call numbers the guard looks at, per machine."""

LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
NR, ARCH, ARG0 = 0, 4, 16
"""Offsets in `struct seccomp_data`: the call's number, its architecture, its first
argument's low 32 bits (little-endian)."""


def _program(machine: str, pid: int) -> list[tuple[int, int, int, int]]:
    """The guard as classic BPF: (code, jump if true, jump if false, constant) each."""
    arch, signalling, refused = ARCHITECTURES[machine]
    kill, *to_self = signalling
    code: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, arch),
        (RET_K, 0, 0, RET_EPERM),  # another architecture's calls: refused
        (LD_W_ABS, 0, 0, NR),
    ]
    if machine == "x86_64":
        code += [(JGE_K, 0, 1, X32_BIT), (RET_K, 0, 0, RET_EPERM)]
    for number in refused:
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
