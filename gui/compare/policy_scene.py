"""The policy view: a game's reference policy drawn around the current decision.

`PolicyScene(app, game, state, chosen)` draws `game.policy_picture(state, chosen)` (e.g. a
dice game's hold boundary and its win-probability surface) as charts side by side, stacked
when the window is narrow.  The play scene pushes it with `app.push(...)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.games.base import Game, PolicyPicture, State
from plyground.gui import chart, theme
from plyground.gui.compare.charts import policy_charts
from plyground.gui.compare.view_heading import draw_card, draw_heading
from plyground.gui.scenes.base import Scene
from plyground.gui.widgets import drawing

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App

WAIT_SECONDS = 0.5
"""The longest the window waits for a policy to be built (it is built in the drawing loop)."""


def too_costly_to_draw(game: Game[Any]) -> str:
    """Why the window does not build this game's policy now ("" when it may): what the
    game's options make it build (`Game.option_cost`) takes more than `WAIT_SECONDS`."""
    from plyground.ai.engine import cost

    options = game.option_values() if hasattr(game, "option_values") else {}
    refusal = cost.option_refusal(type(game), options)
    if refusal is not None:
        return f"Not drawn: {refusal}."
    estimate = cost.option_cost(type(game), options)
    if estimate is None or estimate.seconds <= WAIT_SECONDS:
        return ""
    return (
        f"Not drawn here: {estimate.what} takes about "
        f"{cost.format_duration(estimate.seconds)} to build, too long for the window to wait "
        "(the terminal's policy command draws it)."
    )


class PolicyScene(Scene):
    """A game's reference policy around the current decision, in two panels."""

    title = "policy"

    def __init__(self, app: App, game: Game[Any], state: State[Any], chosen: Any = None) -> None:
        super().__init__(app)
        self.game = game
        self.state = state
        self.picture: dict[str, Any] | None = None
        self.problem = ""
        describe_policy = game.policy_picture if isinstance(game, PolicyPicture) else None
        if describe_policy is None:
            self.problem = f"{game.title} has no reference policy to draw."
        elif state.is_terminal():
            self.problem = "The game is over: there is no decision to draw."
        elif state.to_move not in (0, 1):
            self.problem = "The dice are rolling: the picture shows a player's decision."
        else:
            self.problem = too_costly_to_draw(game)
        if describe_policy is not None and not self.problem:
            self.picture = describe_policy(state, chosen)
        self.charts = policy_charts(self.picture) if self.picture else []
        self.back_button: Any = None
        self._cache: tuple[Any, pygame.Surface] | None = None

    def build(self) -> None:
        """The Back button."""
        m = self.app.metrics
        rect = pygame.Rect(0, 0, m.px(140), m.button_h)
        rect.topright = (self.app.size[0] - m.pad, m.pad)
        self.back_button = self.add_back_button(rect)

    def keys_help(self) -> list[tuple[str, str]]:
        """The picture's one key."""
        return [("Esc", "back")]

    def handle(self, event: pygame.event.Event) -> bool:
        """Back or Esc."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back_button:
            self.app.pop()
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Title, note, the panels side by side (stacked when the window is narrow)."""
        m = self.app.metrics
        title = self.picture["title"] if self.picture else "Policy"
        y = draw_heading(
            surface, self.app, title, self.picture.get("note", "") if self.picture else ""
        )
        w, h = self.app.size
        card = pygame.Rect(m.pad, y + m.px(4), w - 2 * m.pad, h - m.pad - y - m.px(4))
        draw_card(surface, card, m.radius)
        if self.problem:
            size = m.font_size(16)
            lines = drawing.wrap(self.problem, card.width - 4 * m.pad, size, "regular")
            top = card.centery - len(lines) * size * 1.4 / 2
            for index, line in enumerate(lines):
                centre = (card.centerx, round(top + (index + 0.5) * size * 1.4))
                drawing.draw_text(surface, line, centre, size, theme.TEXT_DIM, anchor="center")
            return
        key = (card.size, m.scale)
        if self._cache is None or self._cache[0] != key:
            image = pygame.Surface(card.size, pygame.SRCALPHA)
            inner = image.get_rect().inflate(-2 * m.pad, -2 * m.px(16))
            count = len(self.charts)
            gap = m.pad
            side = inner.width >= 900 or count < 2
            for index, figure in enumerate(self.charts):
                if side:
                    part = (inner.width - gap * (count - 1)) // count
                    rect = pygame.Rect(
                        inner.left + index * (part + gap), inner.top, part, inner.height
                    )
                else:
                    part = (inner.height - gap * (count - 1)) // count
                    rect = pygame.Rect(
                        inner.left, inner.top + index * (part + gap), inner.width, part
                    )
                chart.draw(image, rect, figure, m.scale)
            self._cache = (key, image)
        surface.blit(self._cache[1], card)
