"""Report figures as PNG images: drawn from the runs' stored tables, with units, captions naming the run,
and a stamp on every image built on synthetic or illustrative inputs."""

from __future__ import annotations

import io
import re

import pytest
from dashboard_demo import demo_workspace
from PIL import Image

from aieco.records import ModelRun, Report
from aieco.reporting import figures
from aieco.reporting.export import FanChart, FanPanel, export_report, report_view
from aieco.store import Store

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_workspace(tmp_path_factory)


def test_axis_titles_say_what_is_measured_and_in_which_unit():
    assert figures.measure("%", "annual_growth") == "annual growth, %"
    assert figures.measure("pp", "") == "percentage points"
    assert figures.measure("%", "some_new_rule") == "some new rule, %"  # unknown rules in words, never blank


@pytest.mark.parametrize(
    ("label", "stamped"),
    [("observed", ""), ("real", ""), ("synthetic", "SYNTHETIC"), ("illustrative", "ILLUSTRATIVE"), ("", "UNRECORDED")],
)
def test_every_image_not_built_on_published_data_carries_a_stamp(label, stamped):
    said = figures._stamp(label, figures.PROVENANCE_STAMP)
    assert (said == "") if not stamped else stamped in said


def test_a_fan_panel_is_a_png_of_a_readable_size():
    panel = FanPanel(
        "real_gdp", "%", ["2025", "2026"], [-1.0, -2.0], [1.0, 1.2], [-2.5, -3.0], [2.5, 3.5], "annual_growth"
    )
    png = figures.fan_panel_png(FanChart("run_x", [panel], "synthetic"), panel)
    with Image.open(io.BytesIO(png)) as im:
        assert im.format == "PNG" and im.size[0] >= 500 and im.size[1] >= 350
    # drawn once per process: the HTML and the PDF of one report reuse the image; other data, another image
    assert figures.fan_panel_png(FanChart("run_x", [panel], "synthetic"), panel) is png
    other = FanPanel("real_gdp", "%", ["2025", "2026"], [-1.0, -2.5], [1.0, 1.2], [-2.5, -3.0], [2.5, 3.5])
    assert figures.fan_panel_png(FanChart("run_x", [other], "synthetic"), other) != png
    assert figures.fan_panel_png(FanChart("run_x", [panel], "observed"), panel) != png  # no stamp on it
    assert figures.fan_panel_alt(FanChart("run_x", [panel], "synthetic"), panel) == (
        "Fan chart of real GDP (annual growth, %), 2025–2026, run run_x"
    )


def test_the_demo_report_exports_its_fan_and_bank_charts_as_images_from_the_runs_tables(demo):
    with Store(demo) as store:
        report = next(r for r in store.find(Report) if r.status == "passed")
        view = report_view(store, report.report_id)
        [bank] = view.bank_charts
        run = store.require(ModelRun, bank.run_id)
        per_bank = store.get_tables(run.output_digest)["depletion"]
        # the bars are the run's own per-bank medians, most depleted first; the headroom its start minus threshold
        order = per_bank.assign(d=per_bank["p50"].astype(float)).sort_values("d", ascending=False, kind="stable")
        assert bank.depletion == pytest.approx(list(order["d"]))
        assert sorted(bank.banks) == sorted(str(b) for b in per_bank.index)
        start = dict(zip(per_bank.index.astype(str), per_bank["start_ratio"].astype(float), strict=True))
        assert bank.headroom == pytest.approx([start[b] - bank.threshold for b in bank.banks])
        assert bank.provenance == "synthetic" and "synthetic banks" in figures.bank_caption(bank)
        assert bank.run_id in figures.bank_caption(bank)
        page = export_report(store, report.report_id, "html").decode()
        pdf = export_report(store, report.report_id, "pdf")
    imgs = re.findall(r'<img src="data:image/png;base64,[^"]+" alt="([^"]+)">', page)
    panels = sum(len(c.panels) for c in view.charts)
    assert len(imgs) == panels + 1 and any("CET1 depletion" in a for a in imgs)
    assert f'id="bank-{bank.run_id}"' in page and "synthetic inputs" in page  # the fan caption says so too
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert sum(len(p.images) for p in doc.pages) == panels + 1
        text = "\n".join(p.extract_text() or "" for p in doc.pages)
    assert "synthetic banks" in text and "percentage points" in text
