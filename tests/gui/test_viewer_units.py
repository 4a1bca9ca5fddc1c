"""The viewer's Qt-free parts: layout, tiles, cache, history, selection, find results."""

from __future__ import annotations

import pytest

from pdfdesk.gui.viewer.cache import ByteBudgetCache
from pdfdesk.gui.viewer.find import FindResults
from pdfdesk.gui.viewer.history import NavigationHistory, Position
from pdfdesk.gui.viewer.layout import MARGIN, PAGE_GAP, PageLayout
from pdfdesk.gui.viewer.zoom import MAX_ZOOM, MIN_ZOOM, clamp_zoom, step_zoom
from pdfdesk.gui.viewer.page_data import PageWords
from pdfdesk.gui.viewer.selection import SelectionEnd, TextSelection, caret_at
from pdfdesk.gui.viewer import tiles


# --- layout -------------------------------------------------------------------------------------------
def test_layout_stacks_pages_with_gaps_and_centres_them():
    layout = PageLayout()
    layout.reset(3, (600.0, 800.0))
    layout.set_viewport_width(1000)
    layout.set_zoom(0.5)
    first, second = layout.page_rect(0), layout.page_rect(1)
    assert first.y == MARGIN and first.height == 400 and first.width == 300
    assert second.y == pytest.approx(first.bottom + PAGE_GAP)
    assert first.x == pytest.approx((1000 - 300) / 2)
    width, height = layout.document_size()
    assert height == pytest.approx(MARGIN * 2 + 3 * 400 + 2 * PAGE_GAP)
    assert width == pytest.approx(300 + 2 * MARGIN)


def test_unknown_sizes_use_the_first_page_until_known():
    layout = PageLayout()
    layout.reset(4, (600.0, 800.0))
    assert layout.page_size(3) == (600.0, 800.0)
    assert not layout.set_sizes(1, [(600.0, 800.0)]), "same size: nothing moves"
    assert layout.set_sizes(2, [(800.0, 600.0)])
    assert layout.page_size(2) == (800.0, 600.0)
    assert layout.sizes_known == 3
    layout.set_zoom(1.0)
    assert layout.page_rect(3).y == pytest.approx(MARGIN + 800 * 2 + 600 + 3 * PAGE_GAP)


def test_hostile_sizes_are_tamed():
    layout = PageLayout()
    layout.reset(2, (0.0, float("nan")))
    assert layout.page_size(0) == (612.0, 792.0)
    layout.set_sizes(1, [(1e9, -5.0)])
    assert layout.page_size(1) == (14400.0, 792.0)


def test_pages_between_and_page_at():
    layout = PageLayout()
    layout.reset(100, (100.0, 100.0))
    layout.set_zoom(1.0)
    top = layout.page_rect(10).y
    assert list(layout.pages_between(top + 1, top + 150)) == [10, 11]
    gap_top = layout.page_rect(10).bottom + 1
    assert list(layout.pages_between(gap_top, gap_top + 2)) in ([10, 11], [11]), "a band inside a gap"
    assert layout.page_at(top + 50) == 10
    assert layout.page_at(layout.page_rect(10).bottom + 2) == 10, "upper half of the gap: page above"
    assert layout.page_at(layout.page_rect(11).y - 1) == 11, "lower half: page below"
    assert layout.page_at(1e9) == 99 and layout.page_at(-50) == 0


def test_point_round_trip_and_fit_zooms():
    layout = PageLayout()
    layout.reset(2, (500.0, 1000.0))
    layout.set_viewport_width(800)
    layout.set_zoom(1.5)
    x, y = layout.strip_point(1, 100.0, 200.0)
    assert layout.page_point(1, x, y) == pytest.approx((100.0, 200.0))
    assert layout.fit_width_zoom(0, 800) == pytest.approx((800 - 2 * MARGIN) / 500)
    assert layout.fit_page_zoom(0, 800, 600) == pytest.approx((600 - 2 * PAGE_GAP) / 1000)


def test_zoom_steps_and_clamps():
    assert step_zoom(1.0, +1) == 1.1 and step_zoom(1.0, -1) == 0.9
    assert step_zoom(1.05, +1) == 1.1 and step_zoom(1.05, -1) == 1.0
    assert step_zoom(MAX_ZOOM, +1) == MAX_ZOOM and step_zoom(MIN_ZOOM, -1) == MIN_ZOOM
    assert clamp_zoom(100) == MAX_ZOOM and clamp_zoom(0) == MIN_ZOOM and clamp_zoom(float("inf")) == 1.0


# --- tiles ---------------------------------------------------------------------------------------------
def test_small_pages_are_one_image():
    assert not tiles.is_tiled((612, 792), 1.5)
    only = tiles.tiles_in(0, (612, 792), 1.5, (0, 0, 612, 792))
    assert len(only) == 1 and only[0].clip is None
    assert only[0].px == (0, 0, 918, 1188)


def test_big_pages_are_tiled_without_gaps_or_overlaps():
    size, scale = (612.0, 792.0), 8.0
    assert tiles.is_tiled(size, scale)
    cols, rows = tiles.grid(size, scale)
    width, height = tiles.page_pixels(size, scale)
    everything = tiles.tiles_in(0, size, scale, (0, 0, 612, 792))
    assert len(everything) == cols * rows
    assert sum((t.px[2] - t.px[0]) * (t.px[3] - t.px[1]) for t in everything) == width * height
    assert all(t.px[2] - t.px[0] <= tiles.TILE_PIXELS and t.px[3] - t.px[1] <= tiles.TILE_PIXELS for t in everything)
    corner = tiles.tiles_in(0, size, scale, (0, 0, 10, 10))
    assert [(t.key.col, t.key.row) for t in corner] == [(0, 0)]
    assert corner[0].clip == pytest.approx((0, 0, 128, 128))
    assert corner[0].page_rect_pt() == pytest.approx((0, 0, 128, 128))


def test_tiles_compose_into_the_whole_page(text_pdf):
    """Rendering tile by tile through the shared render path gives the pixels of one whole render."""
    import pymupdf

    from pdfdesk.core.render import render_pixmap

    with pymupdf.open(text_pdf) as doc:
        page = doc[0]
        size = (page.rect.width, page.rect.height)
        scale = 2.4  # an A4 page at 2.4x is past the single-image limit: a 2 x 2 grid
        assert tiles.grid(size, scale) == (2, 2)
        whole = render_pixmap(page, tiles.normalized(scale))
        width, height = tiles.page_pixels(size, scale)
        assert abs(whole.width - width) <= 1 and abs(whole.height - height) <= 1
        inked = 0
        for tile in tiles.tiles_in(0, size, scale, (0, 0, *size)):
            part = render_pixmap(page, tile.scale, clip=pymupdf.Rect(tile.clip))
            x0, y0, x1, y1 = tile.px
            assert abs(part.width - (x1 - x0)) <= 1 and abs(part.height - (y1 - y0)) <= 1
            for x in range(2, min(part.width, whole.width - x0) - 2, 37):
                for y in range(2, min(part.height, whole.height - y0) - 2, 41):
                    expected = whole.pixel(x0 + x, y0 + y)
                    got = part.pixel(x, y)
                    assert max(abs(a - b) for a, b in zip(got, expected, strict=False)) <= 60, (tile.key, x, y)
                    inked += min(expected) < 128
        assert inked > 10, "the comparison covered text, not only white paper"


# --- cache ---------------------------------------------------------------------------------------------
def test_cache_evicts_least_recently_used_within_the_byte_budget():
    cache: ByteBudgetCache[tuple[int, int], bytes] = ByteBudgetCache(len, lambda key: key[0], budget=100)
    cache.put((1, 1), b"x" * 40)
    cache.put((2, 1), b"x" * 40)
    assert cache.get((1, 1)) is not None  # page 1 is now the most recent
    cache.put((3, 1), b"x" * 40)
    assert (2, 1) not in cache and (1, 1) in cache and (3, 1) in cache
    assert cache.bytes_used == 80
    assert cache.for_page(1) == [(1, 1)] and cache.pages() == {1, 3}
    cache.put((1, 2), b"x" * 10)
    assert sorted(cache.for_page(1)) == [(1, 1), (1, 2)]
    cache.discard((1, 1))
    assert cache.for_page(1) == [(1, 2)] and cache.bytes_used == 50


def test_an_image_bigger_than_the_budget_is_kept_alone():
    cache: ByteBudgetCache[int, bytes] = ByteBudgetCache(len, int, budget=10)
    cache.put(1, b"small")
    cache.put(2, b"x" * 50)
    assert list(cache.keys()) == [2] and cache.bytes_used == 50
    cache.set_budget(100)
    cache.put(3, b"y" * 40)
    assert set(cache.keys()) == {2, 3}
    cache.clear()
    assert len(cache) == 0 and cache.bytes_used == 0 and cache.pages() == set()


# --- history ---------------------------------------------------------------------------------------------
def test_history_back_forward_and_branching():
    history = NavigationHistory(limit=3)
    here = [Position(i, 0.0, 0.0) for i in range(6)]
    history.record(here[0])
    history.record(here[1])
    assert history.back(here[2]) == here[1]
    assert history.back(here[1]) == here[0]
    assert history.back(here[0]) is None
    assert history.forward(here[0]) == here[1]
    history.record(here[3])  # a new jump drops the forward branch
    assert not history.can_go_forward
    for p in here:
        history.record(p)
    assert sum(1 for _ in iter(lambda: history.back(here[0]), None)) == 3, "bounded"


def test_history_does_not_record_the_same_place_twice():
    history = NavigationHistory()
    history.record(Position(4, 10.0, 20.0))
    history.record(Position(4, 10.5, 20.5))
    assert history.back(Position(9, 0, 0)) == Position(4, 10.0, 20.0)
    assert not history.can_go_back


# --- selection ---------------------------------------------------------------------------------------------
def two_lines() -> PageWords:
    """Line 1: "alpha beta gamma" at y 10-20; line 2: "delta epsilon" at y 30-40."""
    return PageWords.from_tuples([
        ((10, 10, 40, 20), "alpha", 0, 0), ((50, 10, 80, 20), "beta", 0, 0), ((90, 10, 130, 20), "gamma", 0, 0),
        ((10, 30, 40, 40), "delta", 0, 1), ((50, 30, 100, 40), "epsilon", 0, 1),
    ])


def test_caret_positions():
    words = two_lines()
    assert caret_at(words, 20, 15) == 0.5  # inside alpha
    assert caret_at(words, 45, 15) == 1.0  # the gap before beta
    assert caret_at(words, 5, 15) == 0.0  # left of the line
    assert caret_at(words, 200, 15) == 3.0  # right of the line: after gamma
    assert caret_at(words, 60, 25) == 3.0  # between the lines: before delta
    assert caret_at(words, 60, 0) == 0.0  # above everything
    assert caret_at(words, 60, 99) == 5.0  # below everything
    assert caret_at(PageWords(), 1, 1) == 0.0


def test_selection_text_ranges_and_rects():
    words = two_lines()
    selection = TextSelection()
    selection.start(SelectionEnd(0, 60, 15))  # middle of beta
    selection.extend(SelectionEnd(0, 20, 35))  # middle of delta
    words_of = {0: words}.get
    assert selection.ranges(words_of) == {0: (1, 4)}
    assert selection.text(words_of) == "beta gamma\ndelta"
    assert selection.rects(0, words_of) == [(50, 10, 130, 20), (10, 30, 40, 40)]
    selection.start(SelectionEnd(0, 20, 35))  # dragging backwards gives the same words
    selection.extend(SelectionEnd(0, 60, 15))
    assert selection.text(words_of) == "beta gamma\ndelta"


def test_selection_across_pages_and_missing_words():
    words_of = {0: two_lines(), 2: two_lines()}.get
    selection = TextSelection()
    selection.start(SelectionEnd(0, 100, 35))  # inside epsilon on page 1
    selection.extend(SelectionEnd(2, 60, 15))  # inside beta on page 3; page 2 not loaded
    assert selection.ranges(words_of) == {0: (4, 5), 2: (0, 2)}
    assert selection.text(words_of) == "epsilon\nalpha beta"


def test_word_mode_snaps_to_whole_words():
    words_of = {0: two_lines()}.get
    selection = TextSelection()
    end = SelectionEnd(0, 60, 15)
    selection.start(end, word_mode=True)
    selection.extend(end)
    assert selection.text(words_of) == "beta"
    selection.clear()
    assert not selection.active and selection.text(words_of) == ""


# --- find results ---------------------------------------------------------------------------------------
def test_find_results_order_count_and_wrap():
    results = FindResults("x", 1)
    results.add({5: [(0, 0, 1, 1), (0, 5, 1, 6)]}, searched=3, total_pages=10)  # search began on page 5
    assert not results.done and results.count() == 2
    results.add({9: [(1, 1, 2, 2)], 1: [(2, 2, 3, 3)]}, searched=10, total_pages=10)
    assert results.done and results.count() == 4
    results.current = results.first_from(5)
    assert results.current == (5, 0) and results.current_number() == 2  # page 1's hit comes first
    assert results.step(+1, 0) == (5, 1)
    assert results.step(+1, 0) == (9, 0) and results.current_number() == 4
    assert results.step(+1, 0) == (1, 0) and results.current_number() == 1, "wraps to the start"
    assert results.step(-1, 0) == (9, 0), "and back to the end"
    assert results.current_rect() == (1, 1, 2, 2)


def test_find_results_without_current_pick_from_the_page():
    results = FindResults("x")
    results.add({2: [(0, 0, 1, 1)], 7: [(0, 0, 1, 1), (1, 1, 2, 2)]}, 10, 10)
    assert results.step(-1, 5) == (2, 0), "previous from page 6: the last hit before it"
    results.current = None
    assert results.step(+1, 5) == (7, 0)
    results.current = None
    assert results.step(+1, 8) == (2, 0), "nothing after page 9: wrap"
    assert FindResults("x").step(+1, 0) is None


def test_pinned_entries_survive_eviction():
    cache: ByteBudgetCache[int, bytes] = ByteBudgetCache(len, int, budget=100)
    cache.put(1, b"x" * 60)
    cache.pinned = {1}
    cache.put(2, b"y" * 60)  # over budget and 1 is pinned: the newcomer goes (the screen wins)
    assert 1 in cache and 2 not in cache
    cache.put(3, b"z" * 30)
    assert 1 in cache and 2 not in cache and 3 in cache
    cache.pinned = set()
    cache.put(4, b"w" * 60)
    assert 1 not in cache and set(cache.keys()) == {3, 4}
