"""The worker process that runs a student's file: ``python -m plyground.ai.student_code.child``.

It reads its orders as JSON lines on its standard input and answers on its standard
output (`ai.student_code.messages`); both are moved to private descriptors first, and the
descriptors 0, 1 and 2 the student's code sees lead to the null device.  Before the
student's file is loaded it caps its own memory (soft and hard, so the code cannot lift
it) and, where the OS counts them, its processes.  The parent (`ai.student_code.worker`)
trusts nothing it says.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import os
import signal
import sys
from pathlib import Path
from typing import IO, Any

from plyground.ai.student_code.confinement import (
    empty_bounding_set,
    install_signal_guard,
    restrict,
)
from plyground.ai.student_code.messages import (
    MessageError,
    decode,
    decode_state,
    encode,
    move_text,
)
from plyground.ai.student_code.sandbox import REFERENCE_MODULES, REFERENCE_PACKAGES

REFERENCE = (*REFERENCE_PACKAGES, *REFERENCE_MODULES)
"""Plyground's own search reference: what a graded search is compared with.  A worker
never loads it, a student's code may not import it (`hide_reference`), and its files are
not there to read (`sandbox.reference_paths`)."""
EXTRA_PROCESSES = 32
"""Processes the student's code may start beyond those its user already runs (Linux)."""
FILE_BYTES = 64 << 20
"""The largest file the student's code may write (its scratch folder may be a tmpfs, whose
files are memory that no process's resident size counts)."""


class _Channel:
    """The private pipes to the parent."""

    def __init__(self, reader: IO[bytes], writer: IO[bytes]) -> None:
        self.reader = reader
        self.writer = writer

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode(message))
        self.writer.flush()

    def receive(self) -> dict[str, Any] | None:
        line = self.reader.readline()
        if not line:
            return None
        return decode(line)


def _private_channel() -> _Channel:
    """Move the protocol off descriptors 0 and 1, and point 0, 1 and 2 at the null device."""
    reader = os.fdopen(os.dup(0), "rb")
    writer = os.fdopen(os.dup(1), "wb")
    null_in = os.open(os.devnull, os.O_RDONLY)
    null_out = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null_in, 0)
    os.dup2(null_out, 1)
    os.dup2(null_out, 2)
    return _Channel(reader, writer)


def _user_processes() -> int | None:
    """How many processes this user runs now (Linux), or None where /proc does not say."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    uid, count = os.getuid(), 0
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                count += entry.stat().st_uid == uid
            except OSError:
                continue
    return count


def cap_resources(memory: int) -> None:
    """Hard caps where the OS offers them (POSIX): address space, file size, processes,
    core files."""
    try:
        import resource  # POSIX only: imported here, never at import time
    except ImportError:
        return
    caps: list[tuple[int, int]] = [(resource.RLIMIT_CORE, 0)]
    if memory > 0:
        caps.append((resource.RLIMIT_AS, memory))
        caps.append((resource.RLIMIT_FSIZE, min(memory, FILE_BYTES)))  # a tmpfs file is memory
    running = _user_processes()
    if running is not None and hasattr(resource, "RLIMIT_NPROC"):
        caps.append((resource.RLIMIT_NPROC, running + EXTRA_PROCESSES))
    for kind, limit in caps:
        try:
            _, hard = resource.getrlimit(kind)
            cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
            resource.setrlimit(kind, (cap, cap))
        except (ValueError, OSError):
            pass  # some systems refuse: the time limit and the process group still hold


def drop_capabilities() -> None:
    """As root on Linux, give up every capability (the user stays root): the code then
    cannot raise its hard limits again.  Elsewhere, or when it fails, nothing changes."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return
    import ctypes  # Linux only: loaded here, never at import time

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [
            ("effective", ctypes.c_uint32),
            ("permitted", ctypes.c_uint32),
            ("inheritable", ctypes.c_uint32),
        ]

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two data words
        libc.capset(ctypes.byref(header), (Data * 2)())
    except (OSError, AttributeError):
        pass


def _confine_files(rules: Any) -> None:
    """Landlock: signals and abstract sockets kept within the worker's own processes, no TCP
    (where the kernel has them, inside bubblewrap too); outside bubblewrap on Linux also
    write only in the run's scratch folder (also its home, its temporary folder and where it
    runs) and read only what `rules` lists, the search reference left out."""
    if not isinstance(rules, dict) or not isinstance(rules.get("scratch"), str):
        restrict(None)
        return
    scratch = rules["scratch"]
    for name in ("HOME", "TMPDIR", "TEMP", "TMP"):
        os.environ[name] = scratch
    with contextlib.suppress(OSError):
        os.chdir(scratch)
    lists = {
        key: [str(path) for path in rules.get(key, []) if isinstance(path, str)]
        for key in ("readable", "writable", "hidden")
    }
    restrict(lists)


class _ReferenceBlocker:
    """A meta path finder that refuses Plyground's search reference (`REFERENCE`)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if any(name == hidden or name.startswith(hidden + ".") for hidden in REFERENCE):
            raise ImportError(f"{name} is Plyground's reference search: write your own")
        return None


def hide_reference() -> None:
    """Keep the reference out of the student's reach: not loaded here (a worker needs none
    of it), and its import refused.  Inside bubblewrap its files are not even there."""
    for name in [name for name in sys.modules if name.startswith(REFERENCE)]:
        del sys.modules[name]
    sys.meta_path.insert(0, _ReferenceBlocker())


def _leave_with_parent() -> None:
    """End this process when its parent is gone, however busy the student's code keeps it."""
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


# --------------------------------------------------------------------------- hosts


def _kaggle_arguments(function: Any) -> int:
    """How many of (observation, configuration) Kaggle passes: as many as the agent takes."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return 2
    count = 0
    for parameter in parameters:
        if parameter.kind == parameter.VAR_POSITIONAL:
            return 2
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            count += 1
    return min(count, 2)


class AgentHost:
    """Answers a state with a move in the game's notation (plain or Kaggle agent)."""

    def __init__(self, order: dict[str, Any]) -> None:
        from plyground.ai.student_code.worker import Refusal, load_module

        module = load_module(Path(order["path"]))
        self.kaggle = bool(order.get("kaggle"))
        if self.kaggle:
            functions = [value for value in vars(module).values() if callable(value)]
            if not functions:
                raise Refusal("defines no function")
            self.function = functions[-1]
            self.name = f"{getattr(self.function, '__name__', 'agent')}()"
            self.arguments = _kaggle_arguments(self.function)
            self.configuration = dict(order.get("configuration") or {})
        else:
            name = order.get("function") or "choose"
            function = getattr(module, name, None)
            if not callable(function):
                raise Refusal(f"has no function {name}()")
            self.function, self.name = function, f"{name}()"

    def __call__(self, request: dict[str, Any], channel: _Channel, number: int) -> Any:
        from plyground.ai.student_code.agents import Struct, legal_move

        state = decode_state(request["state"])
        if self.kaggle:
            game = state.game
            configuration = Struct(self.configuration or game.kaggle_configuration())
            observation = Struct(state.kaggle_observation())
            observation.setdefault("step", state.ply)
            observation["remainingOverageTime"] = request.get("overage", 0.0)
            arguments = (observation, configuration)[: self.arguments]
            move = self.function(*arguments)
        else:
            move = self.function(state)
        return move_text(state.game, legal_move(state, move, self.name))


class HeuristicHost:
    """Answers a state with the file's evaluate(state) (the parent checks the bound)."""

    def __init__(self, order: dict[str, Any]) -> None:
        from plyground.ai.student_code.worker import Refusal, load_module

        module = load_module(Path(order["path"]))
        self.function = getattr(module, "evaluate", None)
        if not callable(self.function):
            raise Refusal("has no function evaluate()")

    def __call__(self, request: dict[str, Any], channel: _Channel, number: int) -> Any:
        from plyground.ai.student_code.worker import check_number

        assert self.function is not None
        value = self.function(decode_state(request["state"]))
        if isinstance(value, float) and not math.isfinite(value):
            return value  # the parent names it
        return check_number(value, "evaluate()")


class ExerciseHost:
    """Runs the student's search; every question about the tree is asked of the parent."""

    def __init__(self, order: dict[str, Any]) -> None:
        from plyground.ai.student_code.worker import Refusal, load_module

        self.function_name = str(order["function"])
        module = load_module(Path(order["path"]))
        self.search = getattr(module, self.function_name, None)
        if not callable(self.search):
            raise Refusal(f"has no function {self.function_name}()")

    def __call__(self, request: dict[str, Any], channel: _Channel, number: int) -> Any:
        from plyground.ai.student_code.exercise_game import RemoteGame
        from plyground.ai.student_code.worker import Refusal, check_number, short_repr

        game = RemoteGame(lambda question: _ask(channel, number, question))
        root = game.position(request["root"])
        assert self.search is not None
        answer = self.search(game, root, int(request["depth"]))
        what = f"{self.function_name}()"
        if not isinstance(answer, (tuple, list)) or len(answer) != 2:
            raise Refusal(f"{what} returned {short_repr(answer)}, not (move, value)")
        move, value = answer
        if not _plain(move):
            raise Refusal(f"{what} returned the move {short_repr(move)}, not one of the game's")
        return {"move": move, "value": check_number(value, what)}


class MctsExerciseHost:
    """Runs the student's MCTS with the seeded random stream, watching its `select` to read
    the root's counts after every iteration (`ai.student_code.mcts_watch`)."""

    def __init__(self, order: dict[str, Any]) -> None:
        from plyground.ai.student_code.exercise_game import MCTS_FUNCTION, MCTS_WATCHED
        from plyground.ai.student_code.worker import Refusal, load_module

        self.path = str(order["path"])
        self.module = load_module(Path(self.path))
        for name in (MCTS_FUNCTION, MCTS_WATCHED):
            if not callable(getattr(self.module, name, None)):
                raise Refusal(f"has no function {name}()")

    def __call__(self, request: dict[str, Any], channel: _Channel, number: int) -> Any:
        import random

        from plyground.ai.student_code.exercise_game import (
            MCTS_FUNCTION,
            MCTS_WATCHED,
            RemoteGame,
        )
        from plyground.ai.student_code.mcts_watch import (
            SelectWatch,
            move_of,
            root_counts,
            tree_rows,
        )
        from plyground.ai.student_code.worker import Refusal, short_repr

        game = RemoteGame(lambda question: _ask(channel, number, question))
        root = game.position(request["root"])
        iterations = int(request["iterations"])
        rng = random.Random(int(request["seed"]))
        select = getattr(self.module, MCTS_WATCHED)
        watch = SelectWatch(select, iterations)
        setattr(self.module, MCTS_WATCHED, watch)  # the loop finds select in the file's globals
        try:
            search = getattr(self.module, MCTS_FUNCTION)
            answer = search(game, root, iterations, rng, float(request["c"]))
        except Refusal:  # the grader refused a question (a move not in the game): as it says
            raise
        except Exception as error:  # the counts so far may say why: the parent looks first
            from plyground.ai.student_code.worker import describe_exception, user_frames

            return {
                "failed": describe_exception(error),
                "details": list(user_frames(error, self.path)),
                "rounds": watch.rounds,
            }
        finally:
            setattr(self.module, MCTS_WATCHED, select)
        what = f"{MCTS_FUNCTION}()"
        if not isinstance(answer, (tuple, list)) or len(answer) != 2:
            raise Refusal(f"{what} returned {short_repr(answer)}, not (move, root node)")
        move, tree = answer
        if not _plain(move):
            raise Refusal(f"{what} returned the move {short_repr(move)}, not one of the game's")
        if watch.root is not None and tree is not watch.root:
            raise Refusal(f"{what} returned a node that is not the root it searched from")
        move_of(tree)  # a root whose fields cannot be read fails here, with their name
        return {
            "move": move,
            "rounds": [*watch.rounds, root_counts(tree)],
            "tree": tree_rows(tree, iterations + 1),
        }


def _plain(move: Any) -> bool:
    """Whether `move` can travel to the parent as the game's moves do (None: no move)."""
    if move is None or isinstance(move, (bool, int, float, str)):
        return True
    return isinstance(move, (tuple, list)) and all(_plain(item) for item in move)


def _ask(channel: _Channel, number: int, question: list[Any]) -> Any:
    """Ask the parent a question during call `number`; its reply, or a Refusal."""
    from plyground.ai.student_code.worker import Refusal

    channel.send({"ask": question, "n": number})
    while True:
        message = channel.receive()
        if message is None:
            os._exit(0)  # the parent is gone
        if message.get("n") != number or "call" in message:
            continue
        if "refuse" in message:
            raise Refusal(str(message["refuse"]))
        return message.get("reply")


class InspectHost:
    """Reads a file without running it: the functions it defines at its top level.

    The parse happens here, in the worker, never in the app: a pathological file (a hundred
    thousand nested signs) costs this process, not the app's memory or stack.  With no
    file, it answers the sandbox's self-test: the worker started and can answer.
    """

    def __init__(self, order: dict[str, Any]) -> None:
        self.path = str(order.get("path") or "")

    def __call__(self, request: dict[str, Any], channel: _Channel, number: int) -> Any:
        import ast

        from plyground.ai.student_code.worker import Refusal, source_text
        from plyground.file_reader import FileProblem

        if not self.path:
            return "ready"
        try:
            tree = ast.parse(source_text(Path(self.path)), filename=self.path)
        except SyntaxError as error:
            raise Refusal(f"syntax error on line {error.lineno}: {error.msg}") from None
        except (MemoryError, RecursionError):
            raise Refusal("is too deeply nested for Python to parse") from None
        except FileProblem as problem:
            raise Refusal(str(problem)) from None
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
        return [node.name for node in tree.body if isinstance(node, kinds)]


Host = AgentHost | HeuristicHost | ExerciseHost | MctsExerciseHost | InspectHost
"""What a worker serves."""
HOSTS: dict[str, type[Host]] = {
    "agent": AgentHost,
    "heuristic": HeuristicHost,
    "exercise": ExerciseHost,
    "mcts_exercise": MctsExerciseHost,
    "inspect": InspectHost,
}


def _failure(error: BaseException, path: str, output: Any) -> dict[str, Any]:
    """The message about a failure of the student's code: reason and the student's lines."""
    from plyground.ai.student_code.worker import (
        Refusal,
        describe_exception,
        user_frames,
    )

    if isinstance(error, Refusal):
        return {"error": str(error), "details": list(output.last_lines())}
    if isinstance(error, MessageError):
        return {"error": f"was given a bad request ({error})", "details": []}
    frames = user_frames(error, path) if path else ()
    return {"error": describe_exception(error), "details": [*frames, *output.last_lines()]}


def _register_games(order: dict[str, Any]) -> None:
    """The app's games, a module game's folder importable only while they load (in the
    sandbox that folder holds the game's module alone)."""
    from plyground.games.spawned import register_games

    roots = [root for root in order.get("game_roots", []) if isinstance(root, str)]
    roots = [root for root in roots if root not in sys.path]
    sys.path += roots
    try:
        register_games(tuple(tuple(pair) for pair in order.get("games", [])))
    finally:
        for root in roots:
            sys.path.remove(root)


def serve() -> None:
    """The worker: limits, the student's output kept aside, then request after request."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    channel = _private_channel()
    order = channel.receive()
    if order is None:
        return
    for folder in order.get("sys_path", []):
        if isinstance(folder, str) and folder not in sys.path:
            sys.path.append(folder)
    from plyground.ai.student_code.worker import KeptOutput, allow_user_code

    _register_games(order)
    _leave_with_parent()
    allow_user_code()
    cap_resources(int(order.get("memory", 0)))
    empty_bounding_set()
    drop_capabilities()
    _confine_files(order.get("files"))
    guarded = install_signal_guard()
    hide_reference()
    # Plyground's part is up and confined: what fails from here on is the file's.
    channel.send({"started": True, "guarded": guarded})
    output = KeptOutput()
    sys.stdout = sys.stderr = output
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3000))
    path = str(order.get("path", ""))
    host: Host
    try:
        host = HOSTS[str(order["kind"])](order)
        channel.send({"ready": True})
    except BaseException as error:
        channel.send(_failure(error, path, output))
        return
    while True:
        message = channel.receive()
        if message is None or "stop" in message:
            return
        if "call" not in message:
            continue  # a reply to a question the student's code did not wait for
        number = message.get("n")
        try:
            answer = host(message["call"], channel, int(number or 0))
        except BaseException as error:
            reply = _failure(error, path, output)
        else:
            reply = {"ok": answer}
        reply["n"] = number
        try:
            channel.send(reply)
        except (TypeError, ValueError):
            channel.send({"error": "answered with something that cannot be sent", "n": number})


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError, MessageError, KeyboardInterrupt):
        serve()
