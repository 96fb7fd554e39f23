"""EBA readers: encodings, dictionaries, items resolved by label, ObservedValues, the bundled extracts."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.cli import main
from aieco.errors import InputError
from aieco.models.bank.eba import eba_bank_outcomes, load_eba_csv, observed_values
from aieco.models.bank.eba_extract import bundled_exercises
from aieco.models.bank.eba_items import (
    CORE_CONCEPTS,
    DictionaryItem,
    EbaDictionary,
    concept,
    decode_text,
    read_dictionary,
)
from aieco.records import Provenance, ReleaseRule

HEADER = "LEI_code,Country_code,Bank_name,Period,Item,Scenario,Amount\n"


def _mini_exercise(tmp_path, *, name="Banco Comercial Português", encoding="latin-1", codes=(11, 12, 13)):
    """A tiny stress-test file with its own dictionary (codes chosen freely) and scenario lookup."""
    cap, rea, ratio = codes
    folder = tmp_path / "ex"
    folder.mkdir(exist_ok=True)
    pd.DataFrame(
        {
            "Collection": ["STX"] * 3,
            "Item": [cap, rea, ratio],
            "Template": ["TRA_CAP"] * 3,
            "Label": [
                "COMMON EQUITY TIER 1 CAPITAL (net of deductions and after applying transitional adjustments)",
                "TOTAL RISK EXPOSURE AMOUNT",
                "Common Equity Tier 1 Capital ratio (transitional)",
            ],
        }
    ).to_csv(folder / "x_data_dictionary.csv", index=False)
    (folder / "x_lookup_scenarios.csv").write_text(
        "Scenario,Label\n1,Actual figures\n2,Baseline scenario\n3,Adverse scenario\n"
    )
    rows = []
    for lei, c0 in (("LEIA", 10.0), ("LEIB", 20.0)):
        rows += [
            f"{lei},PT,{name},202012,{cap},1,{c0}",
            f"{lei},PT,{name},202012,{rea},1,100",
            f"{lei},PT,{name},202012,{ratio},1,{c0 / 100}",
        ]
        for sc, c1 in ((2, c0 + 1), (3, c0 - 4)):
            rows += [
                f"{lei},PT,{name},202112,{cap},{sc},{c1}",
                f"{lei},PT,{name},202112,{rea},{sc},100",
                f"{lei},PT,{name},202112,{ratio},{sc},{c1 / 100}",
            ]
    path = folder / "st.csv"
    path.write_bytes((HEADER + "\n".join(rows) + "\n").encode(encoding))
    return path


def test_detects_latin1_and_reads_accents(tmp_path):
    data = load_eba_csv(_mini_exercise(tmp_path))
    assert data.attrs["encoding"] in ("latin-1", "iso8859-1", "cp1252")
    assert set(data["bank_name"]) == {"Banco Comercial Português"}


def test_declared_utf8_on_latin1_file_is_input_error(tmp_path):
    path = _mini_exercise(tmp_path)
    with pytest.raises(InputError, match=r"not valid utf-8: byte 0xea"):
        load_eba_csv(path, encoding="utf-8")


def test_declared_latin1_on_utf8_file_is_input_error(tmp_path):
    path = _mini_exercise(tmp_path, encoding="utf-8")
    with pytest.raises(InputError, match="declared latin-1 but is UTF-8"):
        load_eba_csv(path, encoding="latin-1")
    with pytest.raises(InputError, match="unknown text encoding"):
        load_eba_csv(path, encoding="no-such-codec")


def test_utf16_declared_wrongly_gives_garbled_header_error(tmp_path):
    path = _mini_exercise(tmp_path, name="Plain Bank", encoding="utf-8")
    with pytest.raises(InputError):
        load_eba_csv(path, encoding="utf-16-le")


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x24F), min_size=1, max_size=40))
@settings(max_examples=60, deadline=None)
def test_detection_round_trip(text):
    for enc in ("utf-8", "utf-8-sig"):
        decoded, _ = decode_text(text.encode(enc), name="x")
        assert decoded.lstrip("\ufeff") == text
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return
    decoded, used = decode_text(raw, name="x")
    if used == "latin-1":
        assert decoded == text


def test_cli_wrong_encoding_is_json_error_not_traceback(tmp_path):
    path = _mini_exercise(tmp_path)
    out = CliRunner().invoke(
        main, ["-w", str(tmp_path / "ws"), "bank", "validate", "--eba", str(path), "--encoding", "utf-8", "--json"]
    )
    assert out.exit_code != 0
    body = json.loads(out.stdout)
    assert body["error"] == "InputError" and "not valid utf-8" in body["detail"]
    assert "Traceback" not in out.output


@given(st.lists(st.integers(1, 10**7), min_size=3, max_size=3, unique=True))
@settings(max_examples=15, deadline=None)
def test_items_resolved_by_label_whatever_the_codes(tmp_path_factory, codes):
    path = _mini_exercise(tmp_path_factory.mktemp("codes"), codes=tuple(codes))
    out = eba_bank_outcomes(load_eba_csv(path))
    assert out.loc["LEIA", "start_ratio"] == pytest.approx(10.0)
    assert out.loc["LEIA", "adverse_ratio_2021"] == pytest.approx(6.0)
    assert out.loc["LEIB", "official_depletion"] == pytest.approx(4.0)
    assert out.loc["LEIB", "baseline_depletion"] == pytest.approx(-1.0)


def test_ambiguous_or_missing_label_is_input_error():
    two = EbaDictionary(
        "d",
        "X",
        {
            1: DictionaryItem(1, "Net interest income", "TRA_P&L"),
            2: DictionaryItem(2, "Net interest  income ", "TRA_P&L"),
        },
    )
    with pytest.raises(InputError, match="matches 2 items"):
        two.resolve(concept("net_interest_income"))
    none = EbaDictionary("d", "X", {1: DictionaryItem(1, "Net interest income", "TRA_SUM")})
    with pytest.raises(InputError, match="no item labelled like net_interest_income"):
        none.resolve(concept("net_interest_income"))  # the summary template is not the P&L


def test_dictionary_bad_file(tmp_path):
    bad = tmp_path / "d.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not an EBA data dictionary"):
        read_dictionary(bad)
    with pytest.raises(InputError, match="does not exist"):
        read_dictionary(tmp_path / "none.xlsx")


def test_three_published_dictionaries_resolve_the_items(shared_data):
    banks = shared_data / "banks"
    expected = {  # label-resolved codes, read off each dictionary
        "eba_2016_data_dictionary.xlsx": {
            "cet1_capital": [1690802],
            "cet1_ratio": [1690847],
            "net_interest_income": [1690701],
            "operating_expenses": [1690711],
        },
        "eba_2021_stress_test/Data_Dictionary.xlsx": {
            "cet1_capital": [213702],
            "cet1_ratio": [213761],
            "net_interest_income": [213601],
            "profit": [213615],
        },
        "eba_transparency_SDD.xlsx": {
            "cet1_capital": [2420102],
            "total_risk_exposure_amount": [2420138],
            "net_interest_income": [2420301, 2420304],
            "operating_expenses": [2420317, 2420318],
        },
    }
    for rel, want in expected.items():
        book = read_dictionary(banks / rel)
        got = book.resolve_all(CORE_CONCEPTS)
        assert set(got) == set(CORE_CONCEPTS)
        for name, codes in want.items():
            assert [t.code for t in got[name]] == codes, (rel, name)
    sdd = read_dictionary(banks / "eba_transparency_SDD.xlsx")
    assert [t.sign for t in sdd.resolve(concept("net_interest_income"))] == [1, -1]
    assert sdd.current(1620102) == 2420102


def test_real_2021_file_detected_and_observed_values(shared_data):
    data = load_eba_csv(shared_data / "banks" / "eba_2021_stress_test" / "TRA_OTH.csv")
    assert data.attrs["encoding"] == "cp1252"  # Latin-1 plus 0x97 (em dash) in a bank name
    assert any("—" in n for n in data["bank_name"].unique())
    values = observed_values(data)
    assert {v.variable for v in values} == set(CORE_CONCEPTS)
    v = next(
        v
        for v in values
        if v.variable == "cet1_ratio"
        and v.entity == "9ZHRYM6F437SQJ6OUG95"
        and v.scenario == "adverse"
        and v.reference_period == "2023"
    )
    assert v.value == pytest.approx(0.090295, abs=1e-6)
    assert v.provenance == Provenance.real and v.release_rule == ReleaseRule.file
    assert str(v.release_date) == "2021-07-29"
    file, line = v.location_id.split(":")
    raw = (shared_data / "banks" / "eba_2021_stress_test" / "TRA_OTH.csv").read_bytes().decode("cp1252")
    cells = raw.splitlines()[int(line) - 1].split(",")
    assert file == "TRA_OTH.csv" and cells[1] == v.entity and float(cells[-1]) == pytest.approx(v.value)
    assert v.series_key == "ST2021:" + cells[4]


@pytest.mark.parametrize(
    "name,full", [("st2016", "eba_2016_stress_test_TR_OTH.csv"), ("st2021", "eba_2021_stress_test/TRA_OTH.csv")]
)
def test_bundled_extract_equals_the_published_file(shared_data, name, full):
    a = eba_bank_outcomes(load_eba_csv(bundled_exercises()[name]))
    b = eba_bank_outcomes(load_eba_csv(shared_data / "banks" / full))
    pd.testing.assert_frame_equal(a, b)
    assert len(a) in (50, 51)


def test_bundled_extracts_without_shared_data():
    ex = bundled_exercises()
    assert set(ex) == {"st2016", "st2021"}
    for path in ex.values():
        data = load_eba_csv(path)
        assert data.attrs["release_date"] is not None
        out = eba_bank_outcomes(data)
        assert (out["official_depletion"] > -5).all() and out["start_ratio"].between(5, 50).all()


# ----------------------------------------------------------------------------- accounting recursion (B)


def test_accounting_paths_hand_example():
    from aieco.models.bank.accounting import accounting_paths

    comps = {
        "n": np.array([[2.0, 1.0]]),
        "l": np.array([[1.0, 3.0]]),
        "o": np.array([[0.5, 0.0]]),
        "a": np.array([[0.5, -1.0]]),
        "g": np.array([[0.0, 100 * np.log(1.1)]]),
    }
    cap, rwa, ratio = accounting_paths(np.array([10.0]), np.array([100.0]), comps)
    # C1 = 10 + (2 - 1 - 0.5 + 0.5)/100 * 100 = 11; C2 = 11 + (1 - 3 - 0 - 1)/100 * 100 = 8; RWA2 = 110
    assert cap[0].tolist() == pytest.approx([10.0, 11.0, 8.0])
    assert rwa[0].tolist() == pytest.approx([100.0, 100.0, 110.0])
    assert ratio[0, -1] == pytest.approx(800 / 110)
    with pytest.raises(InputError, match="lacks components"):
        accounting_paths(np.array([1.0]), np.array([1.0]), {"n": comps["n"]})


def _identity_panel(rng, banks=6, years=3):
    """A stress-test panel whose official capital follows the full recursion exactly."""
    rows = []
    for b in range(banks):
        cap, rea, oci, trans = 10 + rng.uniform(0, 5), 100 + rng.uniform(0, 50), rng.normal(), rng.normal()
        rows.append((f"B{b}", "actual", 2020, cap, rea, oci, trans, *(np.nan,) * 6))
        for sc in ("baseline", "adverse"):
            c, r, oc, tr = cap, rea, oci, trans
            for y in range(2021, 2021 + years):
                toi, opex, imp = rng.uniform(2, 4), -rng.uniform(1, 2), -rng.uniform(0, 3)
                pbt = toi + opex + imp
                tax = -0.3 * pbt  # an expense on profits, a credit on losses
                profit = pbt + tax
                attrib = profit - (0.2 * profit if profit > 0 else 0)
                d_oci, d_tr = rng.normal(scale=0.3), rng.normal(scale=0.2)
                kept_tax = max(-tax, 0.0)  # tax expense only: credits create deducted DTAs
                c = c + pbt - kept_tax - (profit - attrib) + d_oci + d_tr
                oc, tr = oc + d_oci, tr + d_tr
                r = r * np.exp(rng.normal(scale=0.03))
                rows.append((f"B{b}", sc, y, c, r, oc, tr, toi, opex, imp, pbt, profit, attrib))
    cols = [
        "bank_id",
        "scenario_kind",
        "year",
        "cet1_capital",
        "total_risk_exposure_amount",
        "accumulated_oci",
        "transitional_adjustments",
        "total_operating_income",
        "operating_expenses",
        "impairments",
        "profit_before_tax",
        "profit",
        "attributable_net_of_dividends",
    ]
    panel = pd.DataFrame(rows, columns=cols)
    panel["cet1_ratio"] = panel["cet1_capital"] / panel["total_risk_exposure_amount"]
    return panel.set_index(["bank_id", "scenario_kind", "year"])


def test_accounting_check_is_exact_when_official_capital_follows_the_identity():
    from aieco.models.bank.eba_accounting import validate_accounting

    summary, banks = validate_accounting(_identity_panel(np.random.default_rng(3)), exercise="synthetic")
    last = summary[summary["step"] == "transitional"]
    assert last["mae_end"].max() < 1e-9 and last["mean_residual_pct_rea"].abs().max() < 1e-9
    first = summary[summary["step"] == "pre_tax"]
    assert (first["mae_end"] > 0.01).all()  # leaving out tax and the rest misses the official ratio
    assert set(banks["scenario"]) == {"baseline", "adverse"} and len(banks) == 12


def test_accounting_check_on_both_real_exercises():
    """The measured table of docs/bank-validation.md (bundled real extracts)."""
    from aieco.models.bank.eba import exercise_panel
    from aieco.models.bank.eba_accounting import validate_accounting

    measured = {}
    for name, path in bundled_exercises().items():
        summary, _ = validate_accounting(exercise_panel(load_eba_csv(path)), exercise=name)
        row = summary.set_index(["scenario", "step"]).loc[("adverse", "transitional")]
        measured[name] = (row["n_banks"], round(row["mae_end"], 3), row["worst_bank_name"])
        pre = summary.set_index(["scenario", "step"]).loc[("adverse", "pre_tax"), "mae_end"]
        assert row["mae_end"] < pre  # every documented item brings the recursion closer
    assert measured["st2016"] == (51, 0.564, "The Royal Bank of Scotland Group Public Limited Company")
    assert measured["st2021"] == (50, 0.52, "Banca Monte dei Paschi di Siena S.p.A.")


# ----------------------------------------------------------------------------- real-data component models (C)


def _linear_sample(rng, n=30, H=3, noise=0.0):
    from aieco.models.bank.eba_models import BankSample

    start_rates = {c: rng.uniform(0, 3, n) for c in ("n", "l", "o")}
    ratio0 = rng.uniform(10, 20, n)
    comps = {}
    for k, c in enumerate(("n", "l", "o", "a", "g")):
        own = start_rates.get(c, np.zeros(n))
        comps[c] = np.column_stack(
            [0.1 * (k + 1) + 0.5 * own + 0.01 * h * ratio0 + noise * rng.normal(size=n) for h in range(H)]
        )
    return BankSample(
        "x",
        [f"B{i}" for i in range(n)],
        np.array(["AT", "DE", "FR"] * (n // 3)),
        ratio0 * 10,
        np.full(n, 1000.0),
        ratio0,
        start_rates,
        comps,
        rng.uniform(1, 5, n),
    )


def test_component_fit_recovers_exact_linear_relations():
    from aieco.models.bank.accounting import accounting_paths
    from aieco.models.bank.eba_models import fit_components, predict_depletion

    sample = _linear_sample(np.random.default_rng(0))
    fit = fit_components(sample)
    assert fit.params["n"][:, 1] == pytest.approx([0.1, 0.5, 0.01])  # intercept, own start rate, start ratio
    assert fit.params["g"][:, 2] == pytest.approx([0.5, 0.02])  # no own start rate for g
    assert np.abs(fit.residuals["l"]).max() < 1e-9
    pred = predict_depletion(fit, sample, draws=20)
    _, _, ratio = accounting_paths(sample.start_capital, sample.start_rea, sample.comps)
    assert pred["predicted"].to_numpy() == pytest.approx(ratio[:, 0] - ratio[:, 1:].min(axis=1))
    assert (pred["lower"] <= pred["predicted"]).all() and (pred["predicted"] <= pred["upper"]).all()


def test_component_fit_needs_enough_banks():
    from aieco.models.bank.eba_models import fit_components

    with pytest.raises(InputError, match="only 3 banks"):
        fit_components(_linear_sample(np.random.default_rng(1), n=3))


def test_bank_clustered_cv_never_trains_on_a_held_out_bank(monkeypatch):
    from aieco.models.bank import eba_models

    rng = np.random.default_rng(2)
    a, b = _linear_sample(rng, noise=0.1), _linear_sample(rng, noise=0.1)
    # half of exercise y's banks are exercise x's banks (the same LEI in both exercises)
    b = eba_models.BankSample(
        "y",
        a.banks[:15] + [f"C{i}" for i in range(15)],
        b.country,
        b.start_capital,
        b.start_rea,
        b.start_ratio,
        b.start_rates,
        b.comps,
        b.official_depletion,
    )
    trained, tested = [], []
    real_fit, real_predict = eba_models.fit_components, eba_models.predict_depletion

    def fit_spy(sample):
        trained.append(set(sample.banks))
        return real_fit(sample)

    def predict_spy(fit, sample, **kw):
        tested.append(set(sample.banks))
        return real_predict(fit, sample, **kw)

    monkeypatch.setattr(eba_models, "fit_components", fit_spy)
    monkeypatch.setattr(eba_models, "predict_depletion", predict_spy)
    out = eba_models.bank_clustered_cv([a, b], folds=5, draws=10)
    assert len(out) == 60 and sorted(out["exercise"].unique()) == ["x", "y"]
    assert len(trained) == len(tested) == 5
    for train, test in zip(trained, tested, strict=True):
        assert train.isdisjoint(test)
    assert set().union(*tested) == set(a.banks) | set(b.banks)


def test_bench_bank_real_figures_with_peers():
    from aieco.benchmarks import SECTIONS, bank_real

    assert "aieco.benchmarks.bank_real" in SECTIONS["bank"].split(",")
    figures = {f.name: f for f in bank_real.run(quick=True)}
    names = list(figures)
    assert any(n.startswith("eba_load_st2016_") and n.endswith("rows") for n in names)
    assert "eba_load_st2021_peer_pandas_read_csv" in names
    assert any(n.endswith("peer_statsmodels_ols") for n in names) and any(n.endswith("_peer_loop") for n in names)
    assert any(n.startswith("eba_depletion_fit_predict_") and n.endswith("_peer_statsmodels_ols") for n in names)
    assert all(f.value > 0 for f in figures.values())


def test_transparency_file_through_the_sdd(tmp_path, shared_data):
    """A transparency tr_oth layout with 2016 item codes, resolved through the SDD's labels."""
    rows = ["Lei_code,NSA,Period,Item,Label,Portfolio,Amount"]
    values = {
        1620102: 100,
        1620138: 1000,
        1620301: 30,
        1620304: 12,
        1620309: 7,
        1620324: 6,
        1620335: 9,
        1620317: 15,
        1620318: 5,
    }
    for item, v in values.items():
        rows.append(f"LEI1,DE,201612,{item},x,0,{v}")
    rows.append("LEI1,DE,201612,1620301,x,1,999")  # a breakdown row, not the total
    path = tmp_path / "tr_oth.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    data = load_eba_csv(path, dictionary=shared_data / "banks" / "eba_transparency_SDD.xlsx")
    values_by = {v.variable: v for v in observed_values(data)}
    assert values_by["net_interest_income"].value == 30 - 12  # interest income minus interest expenses
    assert values_by["net_interest_income"].series_key == "TR:2420301+2420304"
    assert values_by["operating_expenses"].value == 15 + 5
    assert values_by["cet1_capital"].reference_period == "2016H2" and values_by["cet1_capital"].frequency == "H"
    assert values_by["cet1_capital"].scenario is None and values_by["cet1_capital"].entity == "LEI1"
    assert set(values_by) == set(CORE_CONCEPTS) - {"cet1_ratio"}  # no ratio row in this file
