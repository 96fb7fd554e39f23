import pytest
from sources_files import manifest, text_pdf

from aieco.errors import InputError
from aieco.records import Role
from aieco.sources.manifest import load_manifest, parse_pages


def entry(**kw):
    base = {"path": "a.pdf", "title": "T", "publisher": "P", "publication_date": "2024-01-31", "role": "generation"}
    return base | kw


def test_paths_are_relative_to_the_manifest_and_overrides_and_series_are_kept(tmp_path):
    (tmp_path / "docs").mkdir()
    text_pdf(tmp_path / "docs" / "a.pdf", [["x"]])
    override = {"pages": "2-3, 5", "role": "development"}
    m = manifest(tmp_path / "m.toml", [entry(path="docs/a.pdf", role_override=[override])])
    with open(m, "a") as fh:
        fh.write('  [source.series]\n  variable = "real_gdp"\n  frequency = "Q"\n')
    (e,) = load_manifest(m)
    assert e.file == (tmp_path / "docs" / "a.pdf").resolve()
    assert e.role_overrides[0].pages == [2, 3, 5] and e.role_for_page(3) is Role.development
    assert e.role_for_page(4) is None
    assert e.series == {"variable": "real_gdp", "frequency": "Q"}


def test_unknown_role_names_file_entry_field_and_fix(tmp_path):
    m = manifest(tmp_path / "m.toml", [entry(), entry(path="b.pdf", role="training")])
    with pytest.raises(InputError) as err:
        load_manifest(m)
    text = str(err.value)
    assert str(m) in text and "source #2 (b.pdf)" in text and "'role'" in text and "generation" in text


@pytest.mark.parametrize("value", ['"2024-13-01"', '"31/12/2024"', '"soon"'])
def test_malformed_date_is_refused(tmp_path, value):
    m = manifest(tmp_path / "m.toml", [entry(publication_date=value)])
    with pytest.raises(InputError, match=r"source #1 \(a.pdf\): field 'publication_date'"):
        load_manifest(m)


def test_invalid_toml_date_literal_names_the_manifest(tmp_path):
    m = tmp_path / "m.toml"
    m.write_text('[[source]]\npath = "a.pdf"\npublication_date = 2024-13-01\n')
    with pytest.raises(InputError, match="not valid TOML"):
        load_manifest(m)


def test_unknown_date_is_allowed_and_kept_as_none(tmp_path):
    (e,) = load_manifest(manifest(tmp_path / "m.toml", [entry(publication_date='"unknown"')]))
    assert e.publication_date is None


def test_every_problem_is_listed_at_once(tmp_path):
    m = manifest(
        tmp_path / "m.toml",
        [entry(role="x"), {"path": "c.doc", "title": "T", "publisher": "P", "role": "generation", "colour": "red"}],
    )
    with pytest.raises(InputError) as err:
        load_manifest(m)
    text = str(err.value)
    assert "source #1" in text and "'colour' is unknown" in text and "not supported" in text


def test_role_override_needs_pages_or_sheets(tmp_path):
    m = manifest(tmp_path / "m.toml", [entry(role_override=[{"role": "development"}])])
    with pytest.raises(InputError, match="role_override #1"):
        load_manifest(m)


@pytest.mark.parametrize(("spec", "pages"), [("12-14", [12, 13, 14]), ("3", [3]), (7, [7]), ("1,4-5", [1, 4, 5])])
def test_parse_pages(spec, pages):
    assert parse_pages(spec) == pages


@pytest.mark.parametrize("spec", ["0", "5-3", "a-b", ""])
def test_parse_pages_refuses_bad_ranges(spec):
    with pytest.raises(ValueError):
        parse_pages(spec)


def test_missing_manifest(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_manifest(tmp_path / "nope.toml")
