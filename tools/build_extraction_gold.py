"""Build aieco/data/extraction_gold.jsonl from the shared PDFs and the hand labels below.

Run by the labeller (issue 15): ``python3 tools/build_extraction_gold.py [SELECTION.json]``. The
sentences were read from ``../shared/data/docs`` (pdfplumber page text, whitespace-normalised, split
by the candidate screen's splitter); the labels below are the labeller's reading of each sentence
(docs/labelling-guide.md) and the only hand-made part.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "aieco" / "data" / "extraction_gold.jsonl"
#: The sentence selection: a JSON list of {id, doc, page, text} (the labeller's screen of the PDFs:
#: every sentence naming two vocabulary variables, plus sentences naming one with a causal cue, plus
#: a seeded sample of other sentences). Without an argument the selection is re-read from the
#: current gold file, so a label change is re-applied to the same sentences.
SELECTION = Path(sys.argv[1]) if len(sys.argv) > 1 else None

# id → "src>dst:sign[:h]" relations separated by ";" — or "NEG:<type>" for a sentence that states
# no channel between vocabulary variables. ":h" marks a hedged statement (could/may/might).
LABELS = {
    "g001": "NEG:list",
    "g002": "risk_premia>confidence:-",
    "g003": "NEG:level",
    "g004": "uncertainty>risk_premia:+:h;risk_premia>equity_prices:-:h",
    "g005": "NEG:other",
    "g006": "uncertainty>confidence:-:h;volatility>confidence:-:h",
    "g007": "tariffs>global_demand:-",
    "g008": "global_demand>energy_prices:+",
    "g009": "global_demand>real_gdp:+",
    "g010": "NEG:outside_vocabulary",
    "g011": "real_gdp>corporate_defaults:-;corporate_bond_yields>corporate_defaults:+",
    "g012": "corporate_bond_yields>investment:-",
    "g013": "long_term_rate>sovereign_stress:+;global_demand>sovereign_stress:-;sovereign_stress>long_term_rate:+",
    "g014": "fire_sales>asset_prices:-",
    "g015": "NEG:outside_vocabulary",
    "g016": "NEG:list",
    "g017": "NEG:other",
    "g018": "uncertainty>global_demand:-",
    "g019": "asset_prices>real_gdp:+;financing_conditions>real_gdp:-;confidence>real_gdp:+",
    "g020": "NEG:level",
    "g021": "global_demand>energy_prices:+",
    "g022": "confidence>consumption:+;confidence>investment:+",
    "g023": "NEG:outside_vocabulary",
    "g024": "confidence>real_gdp:+",
    "g025": "NEG:cross_section",
    "g026": "NEG:cross_section",
    "g027": "NEG:table",
    "g028": "inflation>financing_conditions:+",
    "g029": "confidence>equity_prices:+",
    "g030": "NEG:other",
    "g031": "NEG:level",
    "g032": "inflation>long_term_rate:+",
    "g033": "NEG:co-movement",
    "g034": "NEG:negation",
    "g035": "policy_rate>long_term_rate:+",
    "g036": "NEG:list",
    "g037": "NEG:other",
    "g038": "NEG:other",
    "g039": "NEG:volatility_not_level",
    "g040": "NEG:level",
    "g041": "NEG:co-movement",
    "g042": "NEG:other",
    "g043": "uncertainty>volatility:+",
    "g044": "NEG:other",
    "g045": "NEG:definition",
    "g046": "NEG:co-movement",
    "g047": "NEG:outside_vocabulary",
    "g048": "NEG:negation",
    "g049": "NEG:other",
    "g050": "NEG:definition",
    "g051": "geopolitical_risk>uncertainty:+",
    "g052": "NEG:other",
    "g053": "NEG:other",
    "g054": "NEG:other",
    "g055": "NEG:citation",
    "g056": "NEG:other",
    "g057": "policy_rate>equity_prices:-;corporate_earnings>confidence:+",
    "g058": "NEG:table",
    "g059": "NEG:co-movement",
    "g060": "NEG:other",
    "g061": "NEG:table",
    "g062": "NEG:co-movement",
    "g063": "confidence>equity_prices:+",
    "g064": "NEG:table",
    "g065": "NEG:definition",
    "g066": "NEG:question",
    "g067": "policy_rate>real_gdp:-:h",
    "g068": "NEG:definition",
    "g069": "NEG:list",
    "g070": "NEG:definition",
    "g071": "NEG:outside_vocabulary",
    "g072": "NEG:definition",
    "g073": "NEG:list",
    "g074": "real_gdp>investment:+",
    "g075": "risk_aversion>investment:-",
    "g076": "NEG:other",
    "g077": "NEG:other",
    "g078": "NEG:definition",
    "g079": "NEG:list",
    "g080": "NEG:definition",
    "g081": "NEG:definition",
    "g082": "NEG:table",
    "g083": "NEG:other",
    "g084": "NEG:definition",
    "g085": "real_gdp>investment:+",
    "g086": "NEG:table",
    "g087": "NEG:table",
    "g088": "NEG:citation",
    "g089": "NEG:citation",
    "g090": "NEG:definition",
    "g091": "NEG:other",
    "g092": "NEG:other",
    "g093": "house_prices>inflation:+",
    "g094": "NEG:co-movement",
    "g095": "NEG:other",
    "g096": "energy_prices>inflation:+",
    "g097": "NEG:table",
    "g098": "energy_prices>inflation:+",
    "g099": "NEG:table",
    "g100": "NEG:other",
    "g101": "NEG:table",
    "g102": "NEG:other",
    "g103": "inflation>wages:+:h",
    "g104": "productivity>inflation:-",
    "g105": "NEG:other",
    "g106": "NEG:table",
    "g107": "NEG:co-movement",
    "g108": "NEG:citation",
    "g109": "NEG:other",
    "g110": "NEG:definition",
    "g111": "NEG:definition",
    "g112": "NEG:outside_vocabulary",
    "g113": "NEG:level",
    "g114": "NEG:other",
    "g115": "NEG:list",
    "g116": "NEG:definition",
    "g117": "NEG:table",
    "g118": "NEG:other",
    "g119": "energy_prices>market_liquidity:+",
    "g120": "NEG:level",
    "g121": "NEG:other",
    "g122": "NEG:other",
    "g123": "NEG:co-movement",
    "g124": "NEG:other",
    "g125": "NEG:table",
    "g126": "NEG:table",
    "g127": "NEG:definition",
    "g128": "NEG:other",
    "g129": "NEG:other",
    "g130": "NEG:citation",
    "g131": "NEG:citation",
    "g132": "NEG:list",
    "g133": "NEG:list",
    "g134": "NEG:other",
    "g135": "NEG:other",
    "g136": "NEG:cross_section",
    "g137": "NEG:other",
    "g138": "real_gdp>unemployment:-",
    "g139": "real_gdp>house_prices:+",
    "g140": "NEG:negation",
    "g141": "corporate_defaults>non_performing_loans:+",
    "g142": "real_gdp>lending_rates:+",
    "g143": "NEG:outside_vocabulary",
    "g144": "NEG:other",
    "g145": "NEG:outside_vocabulary",
    "g146": "NEG:other",
    "g147": "NEG:other",
    "g148": "NEG:level",
    "g149": "fire_sales>equity_prices:-",
    "g150": "risk_premia>long_term_rate:+",
    "g151": "NEG:cross_section",
    "g152": "NEG:level",
    "g153": "NEG:other",
    "g154": "NEG:other",
    "g155": "NEG:other",
    "g156": "NEG:other",
    "g157": "NEG:level",
    "g158": "NEG:other",
    "g159": "NEG:other",
    "g160": "NEG:level",
    "g161": "NEG:level",
    "g162": "NEG:other",
    "g163": "real_gdp>unemployment:-",
    "g164": "NEG:level",
    "g165": "NEG:other",
    "g166": "NEG:other",
    "g167": "NEG:other",
    "g168": "NEG:other",
    "g169": "policy_rate>financing_conditions:+",
    "g170": "NEG:other",
    "g171": "NEG:other",
    "g172": "NEG:outside_vocabulary",
    "g173": "NEG:other",
    "g174": "NEG:other",
    "g175": "NEG:other",
    "g176": "NEG:other",
    "g177": "NEG:other",
    "g178": "NEG:definition",
    "g179": "NEG:hypothetical",
    "g180": "NEG:other",
    "g181": "NEG:hypothetical",
    "g182": "NEG:co-movement",
    "g183": "NEG:co-movement",
    "g184": "NEG:other",
    "g185": "NEG:other",
    "g186": "NEG:other",
    "g187": "NEG:other",
    "g188": "NEG:other",
    "g189": "NEG:definition",
    "g190": "NEG:outside_vocabulary",
    "g191": "NEG:outside_vocabulary",
    "g192": "NEG:outside_vocabulary",
    "g193": "NEG:other",
    "g194": "NEG:definition",
    "g195": "NEG:outside_vocabulary",
    "g196": "NEG:outside_vocabulary",
    "g197": "NEG:definition",
    "g198": "NEG:definition",
    "g199": "NEG:definition",
    "g200": "NEG:outside_vocabulary",
    "g201": "NEG:other",
    "g202": "NEG:other",
    "g203": "NEG:outside_vocabulary",
    "g204": "NEG:outside_vocabulary",
    "g205": "NEG:hypothetical",
    "g206": "NEG:outside_vocabulary",
    "g207": "NEG:hypothetical",
    "g208": "NEG:outside_vocabulary",
    "g209": "NEG:other",
    "g210": "NEG:other",
    "g211": "NEG:outside_vocabulary",
    "g212": "NEG:other",
    "g213": "NEG:hypothetical",
    "g214": "policy_rate>productivity:-:h",
    "g215": "NEG:other",
    "g216": "NEG:other",
    "g217": "NEG:outside_vocabulary",
    "g218": "NEG:outside_vocabulary",
    "g219": "NEG:hypothetical",
    "g220": "NEG:other",
    "g221": "NEG:other",
    "g222": "NEG:other",
    "g223": "NEG:other",
    "g224": "NEG:other",
    "g225": "policy_rate>house_prices:-",
    "g226": "NEG:definition",
    "g227": "NEG:other",
    "g228": "NEG:other",
    "g229": "NEG:other",
    "g230": "NEG:other",
    "g231": "NEG:other",
    "g232": "NEG:hypothetical",
    "g233": "NEG:hypothetical",
    "g234": "NEG:other",
    "g235": "NEG:hypothetical",
    "g236": "NEG:other",
    "g237": "NEG:other",
    "g238": "NEG:other",
    "g239": "NEG:other",
    "g240": "NEG:outside_vocabulary",
    "g241": "NEG:definition",
    "g242": "NEG:definition",
    "g243": "NEG:definition",
    "g244": "NEG:definition",
    "g245": "NEG:other",
    "g246": "NEG:other",
    "g247": "NEG:other",
    "g248": "NEG:definition",
    "g249": "NEG:other",
    "g250": "risk_premia>sovereign_spreads:+",
    "g251": "NEG:other",
    "g252": "NEG:other",
    "g253": "NEG:other",
    "g254": "NEG:level",
}


def parse(label: str) -> dict:
    if label.startswith("NEG:"):
        return {"relations": [], "negative": label[4:]}
    rels = []
    for part in label.split(";"):
        pair, sign, *flags = part.split(":")
        src, dst = pair.split(">")
        rels.append({"src": src, "dst": dst, "sign": sign, "hedged": "h" in flags})
    return {"relations": rels, "negative": None}


#: Documents (split unit). The BIS Quarterly Review's special features have their own authors and
#: page ranges; each is one document.
BIS_PARTS = [
    (1, 28, "bis-qr-2024-03-markets"),
    (29, 42, "bis-qr-2024-03-natural-rate"),
    (43, 56, "bis-qr-2024-03-fast-payments"),
    (57, 70, "bis-qr-2024-03-services-inflation"),
    (71, 86, "bis-qr-2024-03-eme-liquidity"),
    (87, 102, "bis-qr-2024-03-residence"),
]
HELD_BACK = {
    "bis-qr-2024-03-services-inflation",
    "bis-qr-2024-03-fast-payments",
    "bis-qr-2024-03-residence",
    "eba-transparency-2024-csv-guide",
}


def document(pdf: str, page: int) -> str:
    if pdf.startswith("bis"):
        return next(name for lo, hi, name in BIS_PARTS if lo <= page <= hi)
    return pdf


def main() -> None:
    if SELECTION is not None:
        rows = json.loads(SELECTION.read_text())
    else:
        rows = [
            {"id": g["id"], "doc": g["file"].removesuffix(".pdf"), "page": g["page"], "text": g["text"]}
            for g in map(json.loads, OUT.read_text(encoding="utf-8").splitlines())
        ]
    with OUT.open("w", encoding="utf-8") as fh:
        for r in rows:
            doc = document(r["doc"], r["page"])
            label = LABELS.get(r["id"], "NEG:other")
            fh.write(
                json.dumps(
                    {
                        "id": r["id"],
                        "file": f"{r['doc']}.pdf",
                        "page": r["page"],
                        "document": doc,
                        "split": "held_back" if doc in HELD_BACK else "dev",
                        "text": r["text"],
                        **parse(label),
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )


if __name__ == "__main__":
    main()
