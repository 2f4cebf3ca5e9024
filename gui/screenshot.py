"""Render any scene to a PNG without a window (SDL's dummy video driver).

`render("play", game_name, moves, "out.png")`; scenes: menu, setup, play, gameover,
analysis (play with the analysis panel and the values on the board), review (the game
reviewed in-process, showing the position after its first marked move), resume (the menu
offering the game `moves` as the last game in progress), series (the cross table after a
series of AI-vs-AI games, played for real in-process: options "games", default 12).  Options:
players (two of "human" or a preset name), any option of the game by name, seed, hover
(a move to point at), point_at ("analysis": the pointer over the analysis), hint (bool),
show_analysis (bool), finish (bool: play the game out for gameover), at (review: the
position after this move).  The views: explorer
(the search tree of the position: algorithm, depth, heuristic, step; MCTS: iterations,
mcts_seed, exploration), lesson (the lessons: lesson 1-4 (4: MCTS), 5 practice, 6 your own
tree with tree text; variant, step, algorithm, iterations, mcts_seed, exploration), compare
(every algorithm on the position: depth) and policy (the game's reference policy around the
decision).  A step is counted from 1, as the explorer's panel counts it; without one the
search is shown finished.
"""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, Any

from plyground.games.base import Game, State

if TYPE_CHECKING:
    from plyground.gui.app import App
    from plyground.gui.play.scene import PlayScene
    from plyground.gui.storage.settings import SideSetup

SCENES = (
    "menu",
    "setup",
    "play",
    "gameover",
    "analysis",
    "review",
    "resume",
    "series",
    "explorer",
    "lesson",
    "compare",
    "policy",
)
VIEWS = ("explorer", "lesson", "compare", "policy")
"""Scenes opened over the menu on a position (or, for lesson, on the textbook trees)."""
VIEW_SECONDS = 300.0
"""How long a view may take to finish its work (a trace, a comparison) before it is drawn."""


def _sides(game_name: str, players: list[str]) -> list[SideSetup]:
    from plyground.gui.storage.settings import AI, CUSTOM, FROM_FILE, HUMAN, default_sides

    sides = default_sides(game_name)
    for side, text in zip(sides, players, strict=False):
        if text.lower() == HUMAN:
            side.kind = HUMAN
        elif text.endswith(".py"):  # the player's own agent, from its file
            side.kind, side.preset, side.agent = AI, FROM_FILE, text
        else:
            side.kind = AI
            side.preset = text.capitalize() if text.lower() != "custom" else CUSTOM
    return sides


def _finish(scene: PlayScene) -> None:
    """Play the game to its end in-process with a quick AI (for the game-over picture)."""
    from plyground import ai
    from plyground.ai.players import players as ai_players
    from plyground.games.base import CHANCE

    game, history = scene.controller.game, scene.controller.history
    presets = ai.DIFFICULTIES[scene.game_name]
    config = list(presets.values())[min(1, len(presets) - 1)]
    player = ai_players.AIPlayer(config, game)
    while not history.state.is_terminal():
        state = history.state
        move = history.sample_chance() if state.to_move == CHANCE else player.choose(state)
        history.play(move)


def _analyse(scene: PlayScene) -> None:
    """Run the analysis the panel shows, in-process: a hint for a human, else the AI's view."""
    from plyground.ai.players.players import SearchPlayer, search_with
    from plyground.games.base import CHANCE
    from plyground.gui.play.search_jobs import Analysis

    controller = scene.controller
    state = controller.history.state
    if state.is_terminal() or state.to_move == CHANCE:
        return
    player = state.to_move
    side = controller.sides[player]
    entries = len(controller.history.entries)
    branching = len(state.legal_moves())
    if not side.is_ai:  # a hint: what the window's Hint runs (ai.advice.advisor)
        from plyground.ai.advice.advisor import advise
        from plyground.gui.play.search_jobs import BoardValues

        result, title = advise(controller.game, state)
        record = Analysis(result, "hint", player, branching, advice=title, entries=entries)
        controller.show_search(record)
        controller.jobs.board = BoardValues.of(entries, result, result.move)
        controller.hint = result.move
        return
    config = side.config_for(scene.game_name)
    if not isinstance(config, SearchPlayer):  # a random player or an agent shows no search
        return
    result = search_with(state, config, time_limit=config.time_limit or 2.0, seed=0)
    controller.show_search(Analysis(result, "ai", player, branching, entries=entries))


def render(
    scene: str,
    game: str,
    moves: str,
    out: str,
    size: tuple[int, int] = (1280, 800),
    options: dict[str, Any] | None = None,
) -> None:
    """Draw `scene` of `game` after `moves` (the game's notation) into the PNG `out`."""
    app = open_scene(scene, game, moves, size, options)
    try:
        _save_png(app.screen, out)
    finally:
        app.quit(save=False)


def open_scene(
    scene: str,
    game: str,
    moves: str,
    size: tuple[int, int] = (1280, 800),
    options: dict[str, Any] | None = None,
) -> Any:
    """A headless app showing `scene` of `game` after `moves`, drawn once (the caller quits it)."""
    if scene not in SCENES:
        raise ValueError(f"unknown scene {scene!r}; choose one of: {', '.join(SCENES)}")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    options = dict(options or {})

    from plyground import games
    from plyground.gui.app import App

    game = games.resolve(game)  # a game from a file is loaded here
    from plyground.gui.scenes.menu import MenuScene
    from plyground.gui.storage import settings as settings_module

    app = App(size, headless=True, use_saved_settings=False)
    try:
        app.settings = settings_module.Settings()
        app.settings.last_game = game
        for option in settings_module.game_class(game).options:
            if option.name in options:
                app.settings.set_option(game, option.name, int(options[option.name]))
        app.settings.seed = int(options.get("seed", 0))
        app.settings.show_analysis = bool(options.get("show_analysis", scene == "analysis"))
        default_players = ["ai", "ai"] if scene == "gameover" and not moves else ["human", "medium"]
        players = [
            p if p.lower() != "ai" else "Hard" for p in options.get("players", default_players)
        ]
        app.settings.sides[game] = _sides(game, players)
        app.set_palette(str(options.get("palette", "standard")))
        menu = MenuScene(app)
        app.push(menu)
        if scene == "resume":
            _offer_resume(app, menu, game, moves, players)
        if scene == "series":
            _series(app, game, int(options.get("games", 12)), players)
        if scene in ("setup", "play", "gameover", "analysis", "review"):
            from plyground.gui.setup.scene import SetupScene

            app.push(SetupScene(app, game))
        if scene in ("play", "gameover", "analysis", "review"):
            _push_play(app, scene, game, moves, options)
        if scene in VIEWS:
            _push_view(app, scene, game, moves, options)
        if options.get("mouse") is not None:
            app.mouse_override = tuple(options["mouse"])
        for _ in range(3):
            app.step(1 / 60)
        app.now += 2.0
        app.request_frame()
        app.step(1 / 60)
    except BaseException:
        app.quit(save=False)
        raise
    return app


def _push_play(app: App, scene: str, game: str, moves: str, options: dict[str, Any]) -> None:
    """The play scene after `moves` (finished or analysed as `scene` asks), on top."""
    from plyground.gui.play.scene import PlayScene

    play = PlayScene(app, game, animate=False)
    play.controller.ai_enabled = False
    parsed = play.controller.game.parse_moves(moves) if moves else []
    for move in parsed:
        play.controller.history.play(move)
    if scene == "gameover" and options.get("finish", True):
        _finish(play)
    play.reset_effects()
    if scene == "analysis" or options.get("hint"):
        _analyse(play)
    if scene == "review" or options.get("review"):
        at = options.get("at")
        _review(play, float(options.get("seconds", 0.3)), scene == "review", at)
    app.push(play)
    hover = options.get("hover")
    if hover is not None:
        app.mouse_override = _point_at(play, hover)
    if options.get("point_at") == "analysis":  # the panel's whole analysis, as on hover
        from plyground.gui.play import side_panel

        analysis = side_panel.layout(play.model, play.screen())[0]
        if analysis is not None:
            app.mouse_override = analysis.center


def _review(play: Any, seconds: float, step: bool = True, at: int | None = None) -> None:
    """Browse the game in-process (what the worker does in the window) and (`step`) show the
    position after move `at` (counted from 1), else after its first marked move (else the
    last one)."""
    from plyground.ai.advice.game_review import review_game
    from plyground.ai.advice.review_evaluator import default_evaluator

    controller = play.controller
    evaluate = default_evaluator(controller.game, seconds)
    known = controller.review.evaluations

    def keep(state: State[Any]) -> Any:
        known[state] = evaluate(state)
        return known[state]

    review = review_game(controller.history.initial, controller.history.moves, keep)
    if not step:
        return
    marked = [move for move in review.moves if move.judgement is not None]
    entries = len(controller.history.entries)
    if at is not None:
        controller.browse.browse_to(max(0, min(int(at), entries - 1)))
        _browsed_values(play)
        return
    controller.browse.browse_to(marked[0].index + 1 if marked else max(0, entries - 1))


def _browsed_values(play: Any) -> None:
    """With the analysis shown, the browsed position's advice (what the worker searches)."""
    from plyground.ai.advice.advisor import advise
    from plyground.games.base import CHANCE
    from plyground.gui.play.search_jobs import Analysis

    controller = play.controller
    state = controller.browse.shown_state()
    if not controller.settings.show_analysis or state.is_terminal() or state.to_move == CHANCE:
        return
    result, title = advise(controller.game, state)
    branching = len(state.legal_moves())
    record = Analysis(result, "browse", state.to_move, branching, advice=title)
    controller.browse.records[state] = record


def _push_view(app: App, scene: str, game: str, moves: str, options: dict[str, Any]) -> None:
    """The explorer, a lesson, Compare or the policy view on top, its work done."""
    import time

    from plyground import games

    names = {option.name for option in getattr(games.GAMES[game], "options", ())}
    made = games.get_game(game, **{k: int(v) for k, v in options.items() if k in names})
    state = made.replay(made.parse_moves(moves)) if moves else made.initial_state()
    view = _make_view(app, scene, made, state, options)
    app.push(view)
    deadline = time.monotonic() + VIEW_SECONDS
    while view.animating() and time.monotonic() < deadline:
        app.step(1 / 60)
        time.sleep(0.01)
    step = options.get("step")
    model = getattr(view, "model", None)
    if model is not None and model.ready and step is not None:
        view.go_to(int(step) - 1)
        view.rebuild()


def _make_view(
    app: App, scene: str, game: Game[Any], state: State[Any], options: dict[str, Any]
) -> Any:
    """The view scene, built as its entrance builds it."""
    if scene == "compare":
        from plyground.gui.compare.scene import CompareScene

        depth = int(options.get("depth") or 3)
        heuristic = options.get("heuristic")
        return CompareScene(app, game, state, depth=depth, heuristic=heuristic, curve=True)
    if scene == "policy":
        from plyground.gui.compare.policy_scene import PolicyScene

        return PolicyScene(app, game, state)
    from plyground.ai.textbook.mcts_trace import DEFAULT_ITERATIONS
    from plyground.gui.explorer.model import MCTS_C
    from plyground.gui.explorer.practice import EDITOR
    from plyground.gui.explorer.scene import ExplorerScene

    mcts_seed = int(options.get("mcts_seed") or 0)
    iterations = int(options.get("iterations") or DEFAULT_ITERATIONS)
    exploration = float(options.get("exploration") or MCTS_C)
    if scene == "explorer":
        return ExplorerScene(
            app,
            state,
            options.get("algorithm"),
            options.get("depth"),
            options.get("heuristic"),
            iterations=iterations,
            mcts_seed=mcts_seed,
            exploration=exploration,
        )
    index = int(options.get("lesson") or 1) - 1
    view = ExplorerScene.lessons(app, index)
    model = view.model
    tree = options.get("tree")
    names = ("variant", "algorithm", "iterations", "mcts_seed", "exploration")
    asked = [options.get(name) for name in names]
    if any(a is not None and a is not False for a in asked) or (tree and index == EDITOR):
        model.variant = bool(options.get("variant"))
        if tree and index == EDITOR:
            model.editor_text = str(tree)
        model.load_lesson(index)
        if options.get("algorithm") in model.algorithms():
            model.algorithm = str(options["algorithm"])
        if options.get("iterations"):
            model.iterations = iterations
        if options.get("mcts_seed") is not None:
            model.mcts_seed = mcts_seed
        if options.get("exploration") is not None:
            model.exploration = exploration
        view.retrace()
    return view


def _save_png(surface: Any, out: str) -> None:
    """Write `surface` to the PNG `out`."""
    import pygame

    # Save beside the target, then rename: a reader never sees half a PNG.
    folder = os.path.dirname(os.path.abspath(out))
    handle, temp = tempfile.mkstemp(suffix=".png", dir=folder)
    os.close(handle)
    try:
        pygame.image.save(surface, temp)
        os.chmod(temp, 0o644)
        os.replace(temp, out)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def _offer_resume(app: App, menu: Any, game: str, moves: str, players: list[str]) -> None:
    """Show the menu's 'Resume last game' bar for `moves` (no file is read or written)."""
    from plyground.gui.play.sides import side_to_player
    from plyground.gui.storage import savefile

    sides = [side_to_player(side, game) for side in app.settings.sides[game]]
    options = app.settings.options_for(game)
    menu.resume = savefile.check(savefile.to_json(game, options, sides, 0, moves), "screenshot")
    menu.clear()
    menu.build()


def _series(app: App, game: str, count: int, players: list[str]) -> None:
    """A play scene after `count` real AI-vs-AI games (alternating who starts), then the table."""
    from plyground.ai.players.match import MatchSetup, play_game
    from plyground.gui.play.scene import PlayScene
    from plyground.gui.scenes.series_results import SeriesScene
    from plyground.gui.setup.scene import SetupScene

    for side, preset in zip(app.settings.sides[game], ("Hard", "Medium"), strict=False):
        if not side.is_ai:
            side.kind, side.preset = "ai", preset
    app.push(SetupScene(app, game))
    play = PlayScene(app, game, animate=False)
    play.controller.ai_enabled = False
    labels = play.controller.side_labels()
    if labels[0] == labels[1]:
        labels = [f"{labels[0]} #1", f"{labels[1]} #2"]
    specs = tuple(side.preset.lower() for side in play.controller.sides)
    options = tuple(app.settings.options_for(game).items())
    setup = MatchSetup(game=game, options=options, specs=(specs[0], specs[1]), seed=1, swap=True)
    for index in range(count):
        record = play_game(setup, index)
        first, second = labels[record.first], labels[1 - record.first]
        seat_winner = None if record.winner is None else int(record.winner != record.first)
        play.controller.series.add(first, second, seat_winner)
    app.push(play)
    app.push(SeriesScene(app, play.controller))


def _point_at(play: Any, move: Any) -> tuple[int, int]:
    """A pointer position over `move` on the board (for hover previews)."""
    rect = play.board_rect()
    for x in range(rect.x, rect.right, 6):
        for y in range(rect.y, rect.bottom, 6):
            if play.view.move_at(rect, play.controller.history.state, (x, y)) == move:
                return (x + 10, y + 30)
    return (rect.centerx, rect.centery)
