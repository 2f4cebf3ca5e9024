"""The game review card under the board (while browsing, and after a game): the evaluation
graph (click a point to see that position), the engine lines of the position shown, why its
last move is marked, and "Copy position".  The review itself is `gui.play.game_review`; the
best move on the board is the kit's `draw_best_move`.  Drawing reads the model, changes
nothing."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import pygame
import pygame_gui

from plyground.ai.advice.game_review import (
    Line,
    MoveReview,
    PositionReview,
    evaluation_text,
    findings_text,
    line_value_text,
    unmarked_text,
    win_chance,
)
from plyground.ai.advice.report import statistics_text
from plyground.ai.evaluation.provenance import Evaluation, Kind
from plyground.ai.evaluation.wording import PLAYOUT_MARK, board_text
from plyground.gui import theme
from plyground.gui.play import browse_view, move_list
from plyground.gui.play.controls import Widget
from plyground.gui.play.search_jobs import Purpose
from plyground.gui.theme import Colour, Metrics
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.gui.play.model import PlayModel
    from plyground.gui.play.screen import PlayScreen

Toast = Callable[[str, Colour, float], None]
"""Shows a line over the board: text, colour, seconds."""

COPY = (
    "copy",
    "Copy position",
    "Copy the moves up to the position shown, in the game's notation (Ctrl+C)",
)


def height(m: Any) -> int:
    """The card's height."""
    return int(m.px(188))


def reserved(model: PlayModel, m: Metrics) -> int:
    """How much height the board gives up for the card (0 when it is not shown)."""
    return height(m) + m.gap if shown(model) else 0


def shown(model: PlayModel) -> bool:
    """Whether the card is up (see `GameReviewing.review_card_shown`)."""
    return bool(model.controller.review.review_card_shown())


def card_rect(screen: PlayScreen) -> pygame.Rect:
    """Under the board, as wide as it."""
    m = screen.metrics
    board = screen.board
    return pygame.Rect(board.x, board.bottom + m.gap, board.width, height(m))


def parts(screen: PlayScreen) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
    """(title row, graph, lines, the judgement row) inside the card."""
    m = screen.metrics
    inner = card_rect(screen).inflate(-2 * m.gap, -2 * m.px(8))
    title = pygame.Rect(inner.x, inner.y, inner.width, m.px(30))
    verdict = pygame.Rect(inner.x, inner.bottom - m.px(22), inner.width, m.px(22))
    body = pygame.Rect(
        inner.x, title.bottom + m.px(4), inner.width, verdict.y - title.bottom - m.px(10)
    )
    graph = pygame.Rect(body.x, body.y, round(body.width * 0.56), body.height)
    lines = pygame.Rect(graph.right + m.gap, body.y, body.right - graph.right - m.gap, body.height)
    return title, graph, lines, verdict


# -- the button and clicks -------------------------------------------------------------------


def build_button(m: Metrics, manager: pygame_gui.UIManager) -> Widget:
    """The "Copy position" button (placed and shown with the card by `refresh`)."""
    _, label, tip = COPY
    width = drawing.text_size(label, m.font_size(14), "semibold")[0] + m.px(28)
    rect = pygame.Rect(0, 0, width, m.px(30))
    return pygame_gui.elements.UIButton(rect, label, manager, tool_tip_text=tip)


def refresh(button: Widget, model: PlayModel, measure: Callable[[], PlayScreen]) -> None:
    """Show the button exactly with the card, at the card's top right (`measure`: the
    screen now, asked for only while the card is up)."""
    if not shown(model):
        if button.visible:
            button.hide()
        return
    title = parts(measure())[0]
    where = (title.right - button.relative_rect.width, title.y)
    if button.relative_rect.topleft != where:
        button.set_relative_position(where)
    if not button.visible:
        button.show()


class CardAreas(NamedTuple):
    """Where `draw` put the review card and its graph (what a click on the card hits)."""

    card: pygame.Rect
    graph: pygame.Rect


def point_at(
    model: PlayModel, screen: PlayScreen, pos: tuple[int, int], graph: pygame.Rect | None = None
) -> int | None:
    """The review point (its entries count) whose column of the graph holds `pos` (`graph`:
    where it was drawn; by default where it goes on `screen`)."""
    graph = parts(screen)[1] if graph is None else graph
    if not graph.collidepoint(pos):
        return None
    points = model.controller.review.review_points()
    ordinal = round((pos[0] - graph.x - _inset(screen)) / _step(screen, graph, len(points)))
    return int(points[max(0, min(len(points) - 1, ordinal))][0])


def on_mouse(
    model: PlayModel, screen: PlayScreen, event: pygame.event.Event, drawn: CardAreas | None
) -> bool:
    """A click on the graph `draw` drew (`drawn`) shows that position."""
    if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1 or not shown(model):
        return False
    if drawn is None:
        return False  # no card on screen yet: nothing to click
    index = point_at(model, screen, event.pos, drawn.graph)
    if index is None:
        return drawn.card.collidepoint(event.pos)  # the card takes its clicks
    model.controller.browse.browse_to(index)
    return True


def copy_position(model: PlayModel, toast: Toast) -> str:
    """Copy the moves up to the position shown to the clipboard; `toast` says what (or why
    not). Returns the text."""
    text = str(model.controller.review.copy_text())
    model.copied = text
    if not text:
        toast("Nothing to copy yet: no moves before this position", theme.WARNING, 3.0)
        return text
    try:
        pygame.scrap.put_text(text)
    except (pygame.error, AttributeError) as error:  # no clipboard here (headless, old SDL)
        toast(f"No clipboard ({error}); the moves: {text}", theme.WARNING, 8.0)
        return text
    toast(f"Copied {text} to the clipboard", theme.SUCCESS, 3.0)
    return text


# -- drawing -----------------------------------------------------------------------------------


def draw(surface: pygame.Surface, model: PlayModel, screen: PlayScreen) -> CardAreas | None:
    """The card, and the best move on the board of the position shown; where the card and
    its graph went (None: no card)."""
    controller = model.controller
    if not shown(model):
        return None
    position = controller.review.shown_position_review()
    if controller.browse.browsing and position is not None and position.best_move is not None:
        model.kit.draw_best_move(
            surface, screen.board, controller.browse.shown_state(), position.best_move
        )
    m = screen.metrics
    card = card_rect(screen)
    drawing.shadow(surface, card, m.radius, spread=m.px(12))
    drawing.rounded_rect(surface, card, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
    title, graph, lines, verdict = parts(screen)
    review = controller.review.game_review()
    _draw_title(surface, title, m, model, screen, review)
    _draw_graph(surface, graph, m, model, screen, review)
    _draw_lines(surface, lines, m, model, screen, position)
    _draw_verdict(surface, verdict, m, model, screen)
    return CardAreas(card, graph)


def _draw_title(
    surface: pygame.Surface,
    rect: pygame.Rect,
    m: Any,
    model: PlayModel,
    screen: PlayScreen,
    review: Any,
) -> None:
    """GAME REVIEW, how far it got (once done, what it found), and the legend."""
    controller = model.controller
    small = m.font_size(12)
    y = rect.centery
    x = drawing.draw_text(
        surface, "GAME REVIEW", (rect.x, y), small, theme.TEXT_FAINT, "semibold", anchor="midleft"
    ).right
    done = len(review.positions)
    room = rect.right - x - m.gap * 2 - _button_width(screen)
    legend = graph_legend_parts(review.positions, controller.colour_names()[0])
    if review.complete:  # what the review found, in the words of `review`'s last line
        whole = findings_text(review.moves)
        beside = drawing.text_size(legend[0], small)[0] + m.gap  # the legend's first mark
        found = drawing.fit_parts(whole.split(": "), ": ", room - beside, small)
        if found:
            x = drawing.draw_text(
                surface, found, (x + m.gap, y), small, theme.TEXT, anchor="midleft"
            ).right
    else:
        busy = controller.jobs.job is not None and controller.jobs.job.kind == Purpose.GAME_REVIEW
        state = (
            f"evaluating {done + 1} of {review.total}…"
            if busy
            else f"{done} of {review.total} evaluated"
        )
        x = drawing.draw_text(
            surface, state, (x + m.gap, y), small, theme.ACCENT, anchor="midleft"
        ).right
    room = rect.right - x - m.gap * 2 - _button_width(screen)
    if room > m.px(60):
        drawing.draw_text(
            surface,
            drawing.fit_parts(legend, LEGEND_GAP, room, small),
            (x + m.gap, y),
            small,
            theme.TEXT_DIM,
            anchor="midleft",
        )


POINT_MARKS = {
    Kind.EXACT: ("●", "exact"),
    Kind.LOWER: ("▲", "at least"),
    Kind.UPPER: ("▼", "at most"),
    Kind.ESTIMATE: ("○", "estimate"),
}
"""How the graph marks a point of each kind, and the legend's word for it: a proven bound
is a triangle pointing the way the true value may lie (for the first player)."""


LEGEND_GAP = "   "
"""Between the parts of the graph's legend."""


def graph_legend_parts(positions: Sequence[PositionReview], first: str) -> tuple[str, ...]:
    """The graph's legend in parts: the marks of the kinds of point on show, then which way is
    whose (a narrow card drops whole parts from the end)."""
    kinds = {position.graph.kind for position in positions}
    marks = [f"{mark} {word}" for kind, (mark, word) in POINT_MARKS.items() if kind in kinds]
    return (*marks, f"up: {first} ahead")


def graph_legend(positions: Sequence[PositionReview], first: str) -> str:
    """The graph's legend whole ('● exact   ▼ at most   up: Red ahead')."""
    return LEGEND_GAP.join(graph_legend_parts(positions, first))


def point_shape(
    evaluation: Evaluation, centre: tuple[float, float], radius: float
) -> list[tuple[float, float]]:
    """The outline of a bound's triangle around `centre` (pointing up for a lower bound,
    down for an upper bound, from the first player's view), or [] for a round point."""
    x, y = centre
    if evaluation.kind is Kind.LOWER:
        return [
            (x, y - radius * 1.3),
            (x + radius * 1.2, y + radius),
            (x - radius * 1.2, y + radius),
        ]
    if evaluation.kind is Kind.UPPER:
        return [
            (x, y + radius * 1.3),
            (x + radius * 1.2, y - radius),
            (x - radius * 1.2, y - radius),
        ]
    return []


def _draw_point(
    surface: pygame.Surface, evaluation: Evaluation, centre: tuple[float, float], radius: float
) -> None:
    """One graph point marked by its kind (`POINT_MARKS`): exact filled, estimate hollow, a
    bound a triangle."""
    triangle = point_shape(evaluation, centre, radius)
    if triangle:
        drawing.polygon(surface, theme.TEXT, triangle)
        return
    drawing.circle(surface, theme.TEXT, centre, radius, 0 if evaluation.is_exact else 1)


def _button_width(screen: PlayScreen) -> int:
    button = screen.buttons.get(COPY[0])
    return int(button.width) if button is not None else 0


def _inset(screen: PlayScreen) -> int:
    return int(screen.metrics.px(10))


def _step(screen: PlayScreen, graph: pygame.Rect, count: int) -> float:
    return max(1.0, (graph.width - 2 * _inset(screen)) / max(1, count - 1))


def _draw_graph(
    surface: pygame.Surface,
    rect: pygame.Rect,
    m: Any,
    model: PlayModel,
    screen: PlayScreen,
    review: Any,
) -> None:
    """The first player's win chance position by position: exact points filled and joined by
    solid lines, estimates hollow and bounds triangles (`POINT_MARKS`), both dashed; marked
    moves ringed; the position shown lit."""
    controller = model.controller
    drawing.rounded_rect(surface, rect, theme.mix(theme.PANEL, (0, 0, 0), 0.25), m.px(8))
    stochastic = bool(controller.game.stochastic)
    step = _step(screen, rect, review.total)
    half = rect.height / 2 - m.px(8)
    points = [
        (
            rect.x + _inset(screen) + k * step,
            rect.centery - win_chance(p.graph, stochastic) * half,
            p,
        )
        for k, p in enumerate(review.positions)
    ]
    pygame.draw.line(
        surface, theme.PANEL_BORDER, (rect.x + 4, rect.centery), (rect.right - 4, rect.centery)
    )
    _fill(surface, rect, [(x, y) for x, y, _ in points])
    for (x1, y1, a), (x2, y2, b) in itertools.pairwise(points):
        if a.graph.is_exact and b.graph.is_exact:
            drawing.thick_line(surface, theme.TEXT_DIM, (x1, y1), (x2, y2), 2)
        else:
            _dashed(surface, (x1, y1), (x2, y2), m.px(5))
    shown = controller.browse.shown_index()
    everywhere = [index for index, _ in controller.review.review_points()]
    mouse = screen.mouse
    hovered = point_at(model, screen, mouse) if mouse is not None else None
    if hovered in everywhere:  # the point under the mouse: a faint guide
        x = rect.x + _inset(screen) + everywhere.index(hovered) * step
        pygame.draw.line(surface, theme.TEXT_FAINT, (x, rect.y + 4), (x, rect.bottom - 4), 1)
    if shown in everywhere:  # the position shown, evaluated yet or not
        x = rect.x + _inset(screen) + everywhere.index(shown) * step
        pygame.draw.line(surface, theme.ACCENT, (x, rect.y + 4), (x, rect.bottom - 4), 2)
    for x, y, p in points:
        radius = max(2.0, min(m.px(3.5), step / 2.6))  # smaller where points crowd
        _draw_point(surface, p.graph, (x, y), radius)
    ordinals = {p.index: k for k, p in enumerate(review.positions)}
    for move in review.moves:
        k = _next_ordinal(ordinals, move.index)
        if move.judgement is not None and k is not None:
            x, y, _ = points[k]
            drawing.circle(surface, move_list.mark_colour(move.judgement), (x, y), m.px(6), 2)


def _next_ordinal(ordinals: dict[int, int], index: int) -> int | None:
    """The graph point right after the decision at entry `index` (its result)."""
    later = [k for i, k in ordinals.items() if i > index]
    return min(later) if later else None


def _fill(surface: pygame.Surface, rect: pygame.Rect, points: list[tuple[float, float]]) -> None:
    """The area between the curve and the middle, in each side's colour."""
    if len(points) < 2:
        return
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    shape = [(points[0][0] - rect.x, rect.height / 2)]
    shape += [(x - rect.x, y - rect.y) for x, y in points]
    shape.append((points[-1][0] - rect.x, rect.height / 2))
    for player, clip in (
        (0, (0, 0, rect.width, rect.height // 2)),
        (1, (0, rect.height // 2, rect.width, rect.height)),
    ):
        layer.set_clip(pygame.Rect(clip))
        pygame.draw.polygon(layer, (*theme.PLAYER_COLOURS[player], 56), shape)
    surface.blit(layer, rect.topleft)


def _dashed(
    surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float], dash: int
) -> None:
    """A dashed line: a value that rests on an estimate."""
    (x1, y1), (x2, y2) = start, end
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    steps = max(1, int(length // dash))
    for i in range(0, steps, 2):
        a, b = i / steps, min(1.0, (i + 1) / steps)
        drawing.thick_line(
            surface,
            theme.TEXT_DIM,
            (x1 + (x2 - x1) * a, y1 + (y2 - y1) * a),
            (x1 + (x2 - x1) * b, y1 + (y2 - y1) * b),
            2,
        )


def _draw_lines(
    surface: pygame.Surface,
    rect: pygame.Rect,
    m: Any,
    model: PlayModel,
    screen: PlayScreen,
    position: Any,
) -> None:
    """ENGINE LINES of the position shown: moves, then the value with its kind."""
    controller = model.controller
    game = controller.game
    small, size = m.font_size(12), m.font_size(13)
    drawing.draw_text(
        surface, "ENGINE LINES", (rect.x, rect.y), small, theme.TEXT_FAINT, "semibold"
    )
    y = rect.y + round(small * 1.7)
    state = controller.browse.shown_state()
    if state.is_terminal():
        winner = state.winner()
        text = "A draw" if winner is None else f"{controller.colour_names()[winner]} won"
        drawing.draw_text(surface, f"The game is over: {text}", (rect.x, y), size, theme.TEXT_DIM)
        return
    if position is None:
        drawing.draw_text(surface, "Evaluating this position…", (rect.x, y), size, theme.TEXT_DIM)
        return
    if not position.lines:
        drawing.draw_text(surface, "A die decides here", (rect.x, y), size, theme.TEXT_DIM)
        return
    mover = controller.colour_names()[position.player]
    heading = drawing.text_size("ENGINE LINES", small, "semibold")[0] + m.gap
    drawing.draw_text(
        surface,
        drawing.fit_parts((f"for {mover}", "best first"), ", ", rect.width - heading, small),
        (rect.right, rect.y),
        small,
        theme.TEXT_FAINT,
        anchor="topright",
    )
    stochastic = bool(game.stochastic)
    row_h = round(size * 1.45)
    for number, line in enumerate(position.lines[:3], start=1):
        value = fitted_value(line, stochastic, round(rect.width * 0.6), small)
        colour = _value_colour(line.evaluation)
        value_w = drawing.text_size(value, small)[0]
        moves = [game.format_move(move) for move in line.moves]
        room = rect.width - value_w - m.gap
        weight = "semibold" if number == 1 else "regular"
        drawing.draw_text(
            surface,
            fitted_line(number, moves, room, size, weight),
            (rect.x, y),
            size,
            theme.TEXT if number == 1 else theme.TEXT_DIM,
            weight,
        )
        drawing.draw_text(
            surface, value, (rect.right, y + size * 0.1), small, colour, anchor="topright"
        )
        y += row_h
        if y + row_h > rect.bottom + row_h * 0.2:
            break


def fitted_value(line: Line, stochastic: bool, room: int, size: int) -> str:
    """A line's value in `room` pixels: with Monte Carlo figures, all of them where they fit
    ('○ 0.62 estimate · N 1,204 · 60.2% · UCB 0.112'), else its mean and visits ('○ 0.62 ·
    N 1,204'), else the board's label alone; never drawn over the graph."""
    full = line_value_text(line, stochastic)
    statistics = line.statistics
    if statistics is None or drawing.text_size(full, size)[0] <= room:
        return full
    label = board_text(line.evaluation, stochastic)
    shorter = f"{label} · N {statistics.visits:,}"
    return shorter if drawing.text_size(shorter, size)[0] <= room else label


def fitted_line(number: int, moves: list[str], room: int, size: int, weight: str) -> str:
    """'1. 4 4 5 3' in `room` pixels: as many whole moves as fit, then how many more ('+3')."""
    whole = f"{number}. {' '.join(moves)}"
    if drawing.text_size(whole, size, weight)[0] <= room:
        return whole
    for count in range(len(moves) - 1, 0, -1):
        text = f"{number}. {' '.join(moves[:count])} +{len(moves) - count}"
        if drawing.text_size(text, size, weight)[0] <= room:
            return text
    return drawing.ellipsize(whole, room, size, weight)


def _value_colour(evaluation: Any) -> theme.Colour:
    if evaluation.kind is Kind.ESTIMATE:
        return theme.TEXT_FAINT
    if evaluation.value > 0.02:
        return theme.SUCCESS
    return theme.DANGER if evaluation.value < -0.02 else theme.TEXT_DIM


def verdict_text(model: PlayModel, screen: PlayScreen) -> tuple[str, theme.Colour]:
    """Why the hovered move in the list, or the last move before the position shown, is
    marked (or that it is fine)."""
    controller = model.controller
    point = _hovered_point(model, screen)
    if point is not None:
        return point, theme.TEXT
    move = _hovered_move(model, screen) or controller.review.shown_move_review()
    if move is None:
        return "The start · click the graph or use ← → to step through the game", theme.TEXT_DIM
    game = controller.game
    row = controller.review.row_of(move.index)
    name = controller.colour_names()[move.player]
    if row is not None:  # the move list's number: a turn a line with dice, else a pair
        players = [player for player, _ in controller.history.history_rows()]
        name = f"{move_list.move_number(row, bool(game.stochastic), players)}. {name}"
    played = game.format_move(move.move)
    best = "" if move.best_move is None else game.format_move(move.best_move)
    figures = played_figures(model, move, played)
    figures = f" · {figures}" if figures else ""
    if move.judgement is None:
        what = unmarked_text(move, played, best, bool(game.stochastic))
        return f"{name} {played}: {what}{figures}", theme.TEXT_DIM
    tail = f" · best was {best}" if best and best != played else ""
    tail += figures
    text = f"{name} {played} {move.mark} {move.judgement.value}: {move.reason}{tail}"
    return text, move_list.mark_colour(move.judgement)


def played_figures(model: PlayModel, move: MoveReview, played: str) -> str:
    """A move's Monte Carlo figures, where it has them: the review's search ('5: N 96 · 16.6%
    · UCB 0.364'), else the search of the AI that played it ('5 in its own MCTS: ○ 0.62 · N
    ...'); '' when no Monte Carlo search valued it."""
    if move.statistics is not None:
        return f"{played}: {statistics_text(move.statistics)}"
    controller = model.controller
    before = controller.history.state_after(move.index)
    own = controller.jobs.own_figures.get((before, move.move))
    if own is None:
        return ""
    return f"{played} in its own MCTS: {PLAYOUT_MARK} {own.mean:.2f} · {statistics_text(own)}"


def _hovered_point(model: PlayModel, screen: PlayScreen) -> str | None:
    """What the graph says at the point under the mouse ('After move 7: for Red, +0.31
    (estimate, depth 9) · click to see it'), or None."""
    mouse = screen.mouse
    index = point_at(model, screen, mouse) if mouse is not None else None
    if index is None:
        return None
    controller = model.controller
    decisions = sum(not entry.chance for entry in controller.history.entries[:index])
    where = "The start" if decisions == 0 else f"After move {decisions}"
    position = next(
        (p for p in controller.review.game_review().positions if p.index == index), None
    )
    if position is None:
        return f"{where}: not evaluated yet · click to see it"
    first = controller.colour_names()[0]
    value = evaluation_text(position.graph, bool(controller.game.stochastic))
    return f"{where}: for {first}, {value} · click to see it"


def _hovered_move(model: PlayModel, screen: PlayScreen) -> Any:
    """The marked move under the mouse in the move list, if any."""
    mouse = screen.mouse
    shown_list = browse_view.window(model, screen) if mouse is not None else None
    if shown_list is None or mouse is None:
        return None
    row = shown_list.row_at(mouse)
    return None if row is None else model.controller.review.row_marks().get(row)


def _draw_verdict(
    surface: pygame.Surface, rect: pygame.Rect, m: Metrics, model: PlayModel, screen: PlayScreen
) -> None:
    text, colour = verdict_text(model, screen)
    size = m.font_size(13)
    drawing.draw_text(
        surface,
        drawing.ellipsize(text, rect.width, size, "semibold"),
        (rect.x, rect.centery),
        size,
        colour,
        "semibold",
        anchor="midleft",
    )
