"""The play panel gives text room. No panel text is cut short or wider than the
panel, the move list keeps six lines with the analysis shown, a bigger window shows more (not
only bigger letters), rows a short window has no room for show while pointed at, and Pig's
move list is a turn log."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from driving import pump

from plyground.gui import screenshot
from plyground.gui.play import analysis_panel, browse_view, side_panel
from plyground.gui.widgets import drawing

SIZES = [(800, 600), (1280, 800), (1366, 768), (1920, 1080)]
GAMES = [("connect4", "4453443"), ("tictactoe", "5193"), ("pig", "r4r6hr3r1r5r2h")]


def played(size: tuple[int, int], game: str, moves: str, analysis: bool, players: Any = None):
    """A headless app with `moves` played and (when `analysis`) analysed, as the screenshots."""
    from plyground.gui.app import App
    from plyground.gui.scenes.menu import MenuScene

    app = App(size, headless=True, use_saved_settings=False)
    app.settings.show_analysis = analysis
    app.settings.sides[game] = screenshot._sides(game, players or ["human", "Medium"])
    app.push(MenuScene(app))
    screenshot._push_play(app, "analysis" if analysis else "play", game, moves, {})
    pump(app, 2)
    return app, app.scene


def drawn_texts(monkeypatch: pytest.MonkeyPatch, app: Any) -> list[tuple[str, pygame.Rect]]:
    """Every text the next frame draws, with the rectangle it takes."""
    texts: list[tuple[str, pygame.Rect]] = []
    real = drawing.draw_text

    def spy(surface: Any, text: str, pos: Any, size: int, *args: Any, **kw: Any) -> Any:
        weight = kw.get("weight", args[1] if len(args) > 1 else "regular")
        anchor = kw.get("anchor", args[2] if len(args) > 2 else "topleft")
        rect = pygame.Rect((0, 0), drawing.text_size(text, size, weight))
        setattr(rect, anchor, (round(pos[0]), round(pos[1])))
        texts.append((text, rect))
        return real(surface, text, pos, size, *args, **kw)

    monkeypatch.setattr(drawing, "draw_text", spy)
    app.request_frame()
    app.draw()
    monkeypatch.setattr(drawing, "draw_text", real)
    return texts


def sources(play: Any) -> list[str]:
    """The texts the panel shows, whole: a drawn piece may end in … only if its text does."""
    controller = play.controller
    rows = list(play.model.kit_rows.get(controller, play.view))
    record = side_panel.as_analysis(controller.browse.shown_analysis())
    if record is not None:
        rows += analysis_panel.summary_lines(record, controller.game)
    return [text for _, text in rows] + ["Waiting for the AI…"]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "moves"), GAMES)
@pytest.mark.parametrize("analysis", [True, False])
def test_no_panel_text_is_cut_short_or_wider_than_the_panel(
    monkeypatch: pytest.MonkeyPatch, size: Any, game: str, moves: str, analysis: bool
) -> None:
    app, play = played(size, game, moves, analysis)
    try:
        panel = play.panel_rect()
        whole = sources(play)
        texts = [(t, r) for t, r in drawn_texts(monkeypatch, app) if panel.collidepoint(r.center)]
        assert len(texts) > 10
        for text, rect in texts:
            assert panel.contains(rect), (text, rect, panel)
            if "…" in text:
                assert any(text in source for source in whole), text
        window = browse_view.window(play.model, play.screen())
        assert window is not None and window.room >= side_panel.MOVE_ROWS
    finally:
        app.quit(save=False)


def test_the_move_list_keeps_six_lines_in_ai_vs_ai_at_800x600() -> None:
    app, play = played((800, 600), "connect4", "4453443", True, ["Hard", "Medium"])
    try:
        window = browse_view.window(play.model, play.screen())
        assert window is not None and window.room >= side_panel.MOVE_ROWS
        widgets = [w.rect for w in play.widgets if play.panel_rect().contains(w.rect)]
        assert all(rect.bottom <= window.rect.y for rect in widgets)
    finally:
        app.quit(save=False)


def test_a_bigger_window_shows_more_lines_not_only_bigger_letters() -> None:
    rooms, sizes = [], []
    for size in ((1280, 800), (1920, 1080)):
        app, play = played(size, "connect4", "4453443", True)
        try:
            window = browse_view.window(play.model, play.screen())
            assert window is not None
            rooms.append(window.room)
            sizes.append(window.size)
            assert play.panel_rect().width >= round(size[0] * 0.3)
        finally:
            app.quit(save=False)
    assert rooms[1] > rooms[0] + 3
    assert sizes[1] <= round(sizes[0] * 1.2)  # the text grows a little, the room a lot


def test_rows_with_no_room_show_over_the_buttons_while_pointed_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, play = played((800, 600), "pig", "r4r6hr3r1r5r2h", True)
    try:
        before = drawn_texts(monkeypatch, app)
        assert play.model.analysis_hidden > 0
        assert any("point here" in text for text, _ in before)
        analysis = side_panel.layout(play.model, play.screen())[0]
        assert analysis is not None
        app.mouse_override = analysis.center
        after = [text for text, _ in drawn_texts(monkeypatch, app)]
        record = side_panel.as_analysis(play.controller.browse.shown_analysis())
        labels = [label for label, _ in analysis_panel.summary_lines(record, play.controller.game)]
        labels += [label for label, _ in play.model.kit_rows.get(play.controller, play.view)]
        assert [label for label in labels if label not in after] == []
        expanded = side_panel.expanded_rect(play.model, play.screen())
        assert expanded is not None and expanded.height > analysis.height
        assert expanded.top >= play.panel_rect().top
        app.mouse_override = (5, 5)
        assert side_panel.expanded_rect(play.model, play.screen()) is None
    finally:
        app.quit(save=False)


def test_pigs_move_list_is_a_turn_log_with_the_ais_turns_too() -> None:
    app, play = played((1280, 800), "pig", "r4r6hr3r1r5r2hr2r6", False)
    try:
        rows = play.model.move_rows.get(play.controller, play.view)
        assert rows == [
            (0, "rolled 4 6 · held 10 → 10"),
            (1, "rolled 3 1 · wiped out, 3 lost"),
            (0, "rolled 5 2 · held 7 → 17"),
            (1, "rolled 2 6 · 8 at stake"),
        ]
        window = browse_view.window(play.model, play.screen())
        assert window is not None and [p[1] for _, parts in window.shown for p in parts] == [
            text for _, text in rows
        ]
    finally:
        app.quit(save=False)


def test_games_without_words_keep_their_notation_in_the_move_list() -> None:
    app, play = played((1280, 800), "connect4", "4453", False)
    try:
        rows = play.model.move_rows.get(play.controller, play.view)
        assert rows == [(0, "4"), (1, "4"), (0, "5"), (1, "3")]
    finally:
        app.quit(save=False)


def test_v_shows_all_of_the_analysis_until_the_next_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from driving import press

    app, play = played((800, 600), "pig", "r4r6hr3r1r5r2h", True)
    try:
        drawn_texts(monkeypatch, app)
        assert play.model.analysis_hidden > 0
        app.mouse_override = (5, 5)  # the pointer away from the panel
        assert side_panel.expanded_rect(play.model, play.screen()) is None
        press(app, pygame.K_v, "v")
        assert (
            play.model.analysis_pinned
            and side_panel.expanded_rect(play.model, play.screen()) is not None
        )
        after = [text for text, _ in drawn_texts(monkeypatch, app)]
        record = side_panel.as_analysis(play.controller.browse.shown_analysis())
        labels = [label for label, _ in analysis_panel.summary_lines(record, play.controller.game)]
        assert [label for label in labels if label not in after] == []
        press(app, pygame.K_PAGEUP)
        assert (
            not play.model.analysis_pinned
            and side_panel.expanded_rect(play.model, play.screen()) is None
        )
        from plyground.gui.play import keyboard

        assert any(b.action == "whole_analysis" and b.help for b in keyboard.PLAY_KEYS)
    finally:
        app.quit(save=False)


def test_esc_closes_the_whole_analysis_and_stays_in_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from driving import press

    app, play = played((800, 600), "pig", "r4r6hr3r1r5r2h", True)
    try:
        drawn_texts(monkeypatch, app)
        app.mouse_override = (5, 5)
        press(app, pygame.K_v, "v")
        assert play.model.analysis_pinned
        press(app, pygame.K_ESCAPE)
        assert not play.model.analysis_pinned
        assert app.scene is play  # still in the game, not back at set-up
    finally:
        app.quit(save=False)


def test_advice_left_from_before_the_end_does_not_promise_more() -> None:
    from plyground import games
    from plyground.ai.advice.advisor import advise
    from plyground.gui.play.search_jobs import Analysis

    game = games.get_game("tictactoe")
    earlier = game.replay(game.parse_moves("5193"))
    result, title = advise(game, earlier)
    record = Analysis(result, "hint", 0, 5, advice=title, entries=4)
    playing = side_panel.as_analysis(record, 6)
    over = side_panel.as_analysis(record, 7, game_over=True)
    assert playing is not None and over is not None
    rows = dict(analysis_panel.summary_lines(playing, game))
    assert rows["For"] == "an earlier position: this one's advice is on its way"
    rows = dict(analysis_panel.summary_lines(over, game))
    assert rows["For"] == "an earlier position (the game is over)"
