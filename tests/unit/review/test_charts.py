"""The dashboard's SVG charts and its percentiles: pure functions, no database."""

from apps.review import charts
from apps.review.dashboard import percentiles


def test_axes_use_round_whole_steps_for_counts():
    assert charts.nice_axis(0) == 4
    assert charts.nice_axis(4) == 4
    assert charts.nice_axis(11) == 12
    assert charts.nice_axis(20) == 20
    assert charts.nice_axis(950) == 1200
    assert round(charts.nice_axis(0.3, whole=False), 6) == 0.32


def test_column_chart_escapes_labels_and_titles_every_mark():
    svg = charts.column_chart(
        label="Per <queue>",
        categories=["<script>", "b"],
        series=[charts.Series("Done & dusted", "auto", [3, 0])],
        line=charts.Series("Rate", "rate", [0.5, None]),
    )
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert 'aria-label="Per &lt;queue&gt;"' in svg
    assert "<title>&lt;script&gt; · Done &amp; dusted: 3</title>" in svg
    assert svg.count("<rect") == 1  # a zero value draws nothing
    assert "Rate: 50%" in svg and "<polyline" not in svg  # one point is no line


def test_bar_list_scales_rows_together_and_says_when_empty():
    rows = [
        charts.BarRow("A", [charts.Segment(2, "waiting", "2")], "2"),
        charts.BarRow("B", [charts.Segment(1, "waiting", "1")], "1"),
    ]
    html = charts.bar_list(label="Depth", rows=rows)
    assert 'width="100.00"' in html and 'width="50.00"' in html
    assert "Nothing to show" in charts.bar_list(label="Depth", rows=[])


def test_latency_text():
    assert [charts.seconds_text(v) for v in (0.25, 4.25, 42, 150, 7200, 172800)] == [
        "250 ms", "4.2 s", "42 s", "2.5 min", "2.0 h", "2.0 d",
    ]  # fmt: skip


def test_percentiles_are_values_that_occurred():
    result = percentiles([5.0, 1.0, 3.0, 2.0, 4.0])
    assert (result.count, result.p50, result.p90, result.p99) == (5, 3.0, 5.0, 5.0)
    assert percentiles([]).p50 is None
