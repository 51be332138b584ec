"""Data catalogue, loaders and file readers (credal.datasets, credal._readers).

Expected sizes come from data/raw/MANIFEST.csv (counted independently when the
files were collected) and from the papers' published tables in data/published/,
never from this code's own output.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import re
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credal import datasets
from credal._readers import natural_sort, parse_arff, parse_delimited, parse_tab

ROOT = Path(__file__).resolve().parents[1] / "data"
RAW = ROOT / "raw"
ADDED = ROOT / "added"  # papers' versions found after the shared copies (its README)
CONFORMANCE = Path(__file__).resolve().parent / "conformance" / "data"  # copy of ../shared
CATALOGUE = tomllib.loads((ROOT / "catalogue.toml").read_text())
SPECS = CATALOGUE["datasets"]
GROUP_SIZES = {
    # 40: Table 2's second "ecoli" row is spambase in the authors' archived results
    "corani-antonucci": 40,
    "antonucci-lncc": 9,
    "ramoni-sebastiani": 19,
    "moral-trees": 11,
}


@pytest.fixture(scope="module")
def loaded():
    """Every data set, loaded once for the module (the readers cache files)."""
    return {name: datasets.load(name) for name in datasets.names()}


# ---------------------------------------------------------------------------
# MANIFEST.csv: the independent counts
# ---------------------------------------------------------------------------


def _manifest() -> dict[str, dict]:
    rows = {}
    for folder in (RAW, ADDED):
        with open(folder / "MANIFEST.csv", newline="") as fh:
            rows.update({row["file"]: row for row in csv.DictReader(fh)})
    return rows


MANIFEST = _manifest()


def _first_int(text: str) -> int:
    return int(re.match(r"\s*(\d+)", text).group(1))


def _classes(text: str, target: str | None = None) -> tuple[int, int]:
    """(observed, declared) from MANIFEST forms '2', '5 (declared 6)', 'C:3;M:4;X:2'."""
    if target is not None:
        parts = dict(p.split(":") for p in text.split(";"))
        k = int(parts[target])
        return k, k
    m = re.fullmatch(r"\s*(\d+)\s*(?:\(declared (\d+)\))?\s*", text)
    observed = int(m.group(1))
    return observed, int(m.group(2) or observed)


# In MANIFEST the attribute count of these files includes the id column that
# the catalogue drops ('17 (16 + animal name)'; bridges' 12 = 13 columns - class,
# IDENTIF included; colic.ORIG's 27 = 28 columns - class). For yeast ('8 (+
# sequence-name id)') and echocardiogram (10 of 12 non-class columns) it does not.
IDS_COUNTED_IN_MANIFEST = {"zoo": 1, "bridges_v1": 1, "bridges_v2": 1, "horse_colic_orig": 1}


def _expected(name: str) -> dict:
    """Rows, features, classes and missing cells expected for an entry."""
    spec = SPECS[name]
    rows = [MANIFEST[f] for f in spec["files"]]
    first = rows[0]
    target = None
    if name.startswith("solarflare_"):
        target = name[-1]  # MANIFEST 'C:3;M:4;X:2'
    observed, declared = _classes(first["classes"], target)
    return {
        "n_rows": sum(int(r["rows"]) for r in rows),
        # joined files (monks, hayes-roth, adult) share the same attributes
        "n_features": _first_int(first["attributes"])
        - IDS_COUNTED_IN_MANIFEST.get(name, 0)
        # '10 (+3 flare-count targets)' already leaves the targets out
        - (0 if target else len(spec.get("drop", []))),
        "n_observed_classes": observed,
        "n_classes": declared,
        # MANIFEST counts missing class cells too (echocardiogram: 52 + 58 = 110)
        "missing": sum(int(r["missing_cells"]) for r in rows),
    }


@pytest.mark.parametrize("name", sorted(SPECS))
def test_entry_matches_manifest(name, loaded):
    ds = loaded[name]
    exp = _expected(name)
    assert ds.n_rows == exp["n_rows"]
    assert ds.n_features == exp["n_features"]
    # declared classes that no row has are dropped (and recorded)
    assert ds.n_classes == exp["n_observed_classes"]
    assert len(ds.dropped_classes) == exp["n_classes"] - exp["n_observed_classes"]
    assert set(ds.dropped_classes).isdisjoint(ds.y.cat.categories)
    missing = int(ds.X.isna().to_numpy().sum()) + int(ds.y.isna().sum())
    if SPECS[name].get("drop"):
        # dropped columns take their missing cells with them: checked below
        assert missing <= exp["missing"]
    else:
        assert missing == exp["missing"]
    assert ds.missing_fraction == pytest.approx(
        ds.X.isna().to_numpy().sum() / (ds.n_rows * ds.n_features)
    )


def test_manifest_notes_for_joined_entries(loaded):
    # figures quoted in MANIFEST's notes for the joined files
    assert loaded["monks1"].n_rows == 556
    assert loaded["monks2"].n_rows == 601
    assert loaded["monks3"].n_rows == 554
    assert loaded["hayes_roth"].n_rows == 160
    assert loaded["adult"].n_rows == 48842


@pytest.mark.parametrize(
    "name, parent",
    [("vote1", "vote"), ("heart_c_nominal", "heart_c"),
     ("solarflare_C", "solarflare_M"), ("solarflare_X", "solarflare_M")],
)
def test_derived_entries_are_column_subsets(name, parent, loaded):
    child, base = loaded[name], loaded[parent]
    for c in child.X.columns:
        pd.testing.assert_series_equal(child.X[c], base.X[c])
    dropped = set(base.X.columns) - set(child.X.columns)
    if name.startswith("solarflare"):
        assert dropped == set()
        assert child.y.name != base.y.name
    else:
        assert dropped == set(SPECS[name]["drop"])
        pd.testing.assert_series_equal(child.y, base.y)


def test_heart_c_nominal_keeps_exactly_the_nominal_columns(loaded):
    base, nom = loaded["heart_c"], loaded["heart_c_nominal"]
    nominal = [c for c in base.X.columns if isinstance(base.X[c].dtype, pd.CategoricalDtype)]
    assert list(nom.X.columns) == nominal


# ---------------------------------------------------------------------------
# groups and the papers' own figures
# ---------------------------------------------------------------------------


def test_group_sizes_and_names():
    allnames = datasets.names()
    assert allnames == sorted(allnames)
    assert 60 <= len(allnames) <= 64
    for group, size in GROUP_SIZES.items():
        members = datasets.names(group)
        assert len(members) == size, group
        assert members == sorted(members)
        assert set(members) <= set(allnames)
    assert set(datasets.groups()) == set(GROUP_SIZES)


def test_unknown_group_lists_groups():
    with pytest.raises(KeyError) as err:
        datasets.names("corani")
    for group in GROUP_SIZES:
        assert group in str(err.value)


def test_unknown_name_lists_known_names_and_suggests():
    with pytest.raises(KeyError) as err:
        datasets.load("breast-w")
    msg = str(err.value)
    assert "'breast_w'" in msg.split("Known")[0]  # the close-match hint
    for name in ("adult", "zoo", "kr_vs_kp", "solarflare_C"):
        assert name in msg
    with pytest.raises(KeyError, match="Known data sets"):
        datasets.load("no_such_data")
    # case-insensitive suggestions, the exact match first
    for typed, first in (("IRIS", "'iris'"), ("Vote", "'vote'"), ("HEART_C", "'heart_c'")):
        with pytest.raises(KeyError) as err:
            datasets.load(typed)
        hint = str(err.value).split("Known")[0]
        assert hint.split("Did you mean ")[1].startswith(first), hint


def test_papers_tables_agree_with_catalogue():
    for name, spec in SPECS.items():
        assert set(spec["groups"]) == set(spec.get("papers", {})), name


def test_corani_table2(loaded):
    table = datasets.published("corani_table2_datasets")
    published = {
        (r.dataset, int(r.n), int(r.k), int(r.classes)) for r in table.itertuples()
    }
    ours = {
        (p["name"], p["n"], p["k"], p["classes"])
        for s in SPECS.values()
        if (p := s.get("papers", {}).get("corani-antonucci")) and "n" in p
    }
    assert ours == published
    assert len(published) == 39  # ecoli printed twice: its second row is spambase
    assert "n" not in SPECS["spambase"]["papers"]["corani-antonucci"]
    for name in datasets.names("corani-antonucci"):
        p = SPECS[name]["papers"]["corani-antonucci"]
        ds = loaded[name]
        assert p["name"] == name
        if name == "spambase":
            continue
        assert ds.n_rows == p["n"], name
        # the authors' rule: number of classes = largest observed class code + 1
        declared = list(datasets.read_arff(RAW / ds.files[0])[0][ds.y.name].cat.categories) \
            if ds.files[0].endswith(".arff") else list(ds.y.cat.categories)
        top = max(declared.index(c) for c in ds.y.cat.categories)
        assert p["classes"] == top + 1, name
        # k counts features left after discretisation: never more than ours
        assert p["k"] <= ds.n_features, name


# Ramoni & Sebastiani used fewer rows than these files hold (MANIFEST: partly/near)
RAMONI_FEWER_ROWS = {
    "audiology": 226,  # 200 training cases; file = train + 26 test
    "sick": 3772,  # 2800 training cases; file = train + 972 test
    "cylinder_bands": 540,  # UCI names and paper: 512
    "bridges_v2": 107,  # paper 105, UCI names 108
    "echocardiogram": 132,  # paper 131
    "credit_a": 690,  # paper's Table 2: 598
}


def test_ramoni_table(loaded):
    table = datasets.published("ramoni_table2_residual")
    published = {(r.dataset, int(r.size)) for r in table.itertuples()}
    ours = {
        (p["name"], p["n"])
        for s in SPECS.values()
        if (p := s.get("papers", {}).get("ramoni-sebastiani"))
    }
    assert published - ours == {("KDD99", 4704)}  # not public
    assert ours <= published
    for name in datasets.names("ramoni-sebastiani"):
        n_paper = SPECS[name]["papers"]["ramoni-sebastiani"]["n"]
        ds = loaded[name]
        if name == "anneal_orig":
            # the paper's 798 = the anneal.data part, marked as split == 'train'
            assert (ds.split == "train").sum() == n_paper
        elif name in RAMONI_FEWER_ROWS:
            assert ds.n_rows == RAMONI_FEWER_ROWS[name] > n_paper
        else:
            assert ds.n_rows == n_paper, name


def _complete_rows(ds) -> int:
    return int(ds.X.notna().all(axis=1).sum())


def test_moral_table(loaded):
    table = datasets.published("moral_uci_datasets")
    published = {
        (r.dataset, int(r.n_train), int(r.n_test), int(r.n_variables), int(r.n_classes))
        for r in table.itertuples()
    }
    ours = {
        (p["name"], p["n_train"], p["n_test"], p["n_variables"], p["n_classes"])
        for s in SPECS.values()
        if (p := s.get("papers", {}).get("moral-trees"))
    }
    assert ours == published
    info = {n: SPECS[n]["papers"]["moral-trees"] for n in datasets.names("moral-trees")}
    for name, p in info.items():
        assert p["n"] == p["n_train"] + p["n_test"]
    # Moral's sizes are the rows without missing values where the file has any
    for name in ("breast_w", "breast_cancer", "hepatitis", "heart_c5", "heart_c5_nominal",
                 "heart_statlog", "diabetes", "australian", "soybean_small"):
        assert _complete_rows(loaded[name]) == info[name]["n"], name
    # fixed split of monks1
    split = loaded["monks1"].split
    assert (split == "train").sum() == info["monks1"]["n_train"]
    assert (split == "test").sum() == info["monks1"]["n_test"]
    # variable counts that the paper's figures determine
    assert loaded["vote1"].n_features == info["vote1"]["n_variables"]
    assert loaded["vote1"].n_rows == info["vote1"]["n"]
    assert loaded["heart_c5_nominal"].n_features == info["heart_c5_nominal"]["n_variables"]
    for name in ("heart_c5", "heart_c5_nominal"):  # the 5 diagnosis grades, all observed
        assert loaded[name].n_classes == info[name]["n_classes"], name
    soy = loaded["soybean_small"].X
    informative = sum(soy[c].nunique() > 1 for c in soy.columns)
    assert informative == info["soybean_small"]["n_variables"]
    for name in ("heart_statlog", "hepatitis", "diabetes", "australian", "breast_cancer"):
        assert loaded[name].n_features == info[name]["n_variables"], name


def test_antonucci_selection(loaded):
    members = datasets.names("antonucci-lncc")
    candidates = {
        f_row["name"].split(" ")[0]
        for f_row in MANIFEST.values()
        if "D" in f_row["paper_group"].split(";")
    }
    assert set(members) <= candidates
    for name in members:
        assert loaded[name].n_classes == 2
    rows = [loaded[n].n_rows for n in members]
    feats = [loaded[n].n_features for n in members]
    # the paper: 57 to about 3000 instances, 8 to 60 features (haberman: 3)
    assert min(rows) == 57 and 3000 <= max(rows) <= 3300
    assert max(feats) == 60
    assert min(f for n, f in zip(members, feats) if n != "haberman") == 8
    named = set(datasets.published("antonucci_table2_uci")["dataset"])
    ours = {
        SPECS[n]["papers"]["antonucci-lncc"].get("name") for n in members
    } - {None}
    assert ours == named


# ---------------------------------------------------------------------------
# catalogue coverage and provenance
# ---------------------------------------------------------------------------


def test_every_raw_file_is_used_by_some_entry():
    used = set()
    for section in ("datasets", "networks"):
        for spec in CATALOGUE.get(section, {}).values():
            used.update(spec["files"])
            for f in spec["files"]:
                assert (RAW / f).is_file() or (ADDED / f).is_file(), f
    docs = set(CATALOGUE["catalogue"]["documentation"])
    for f in docs:
        assert (RAW / f).is_file(), f
    present = {p.name for p in RAW.iterdir() if p.is_file()}
    not_names = {f for f in docs if not f.endswith(".names")}
    assert not_names <= {"README.md", "MANIFEST.csv"}
    assert present - used - docs == set()


def test_copies_match_manifest():
    for section in ("datasets", "networks"):
        for name, spec in CATALOGUE.get(section, {}).items():
            copies = {c["file"]: c for c in spec["copies"]}
            assert set(copies) == set(spec["files"]), name
            for f, c in copies.items():
                row = MANIFEST[f]
                assert (c["repo"], c["path"], c["commit"]) == (
                    row["source_repo"], row["source_path"], row["source_commit"]
                ), (name, f)


def test_dataset_fields(loaded):
    for name, ds in loaded.items():
        spec = SPECS[name]
        assert ds.name == name
        assert ds.files == tuple(spec["files"])
        assert ds.groups == tuple(spec["groups"])
        assert ds.licence and ds.title
        assert spec["class"] not in ds.X.columns
        assert ds.y.name == spec["class"]
        assert isinstance(ds.y.dtype, pd.CategoricalDtype)
        for c in ds.X.columns:
            dt = ds.X[c].dtype
            assert isinstance(dt, pd.CategoricalDtype) or dt == np.float64, (name, c)
        for c in spec.get("ids", []) + spec.get("drop", []):
            assert c not in ds.X.columns
        assert isinstance(ds.X.index, pd.RangeIndex) and ds.y.index.equals(ds.X.index)
        assert ds.y.value_counts().min() > 0 or ds.n_rows == 0  # every class occurs
        for commit in (c["commit"] for c in spec["copies"]):
            assert commit[:12] in ds.source
        if spec.get("uci"):
            assert "CC BY 4.0" in ds.licence


def test_unobserved_feature_categories_kept_unobserved_classes_dropped(loaded):
    # a feature keeps its declared categories; a class no row has is dropped
    aus = loaded["australian"].X["d5"]
    assert list(aus.cat.categories) == [str(i) for i in range(1, 10)]
    assert (aus == "6").sum() == 0
    glass = loaded["glass"]
    assert "vehic wind non-float" not in list(glass.y.cat.categories)
    assert glass.dropped_classes == ("vehic wind non-float",)
    raw, _ = datasets.read_arff(RAW / "glass.arff")
    assert (raw["Type"] == "vehic wind non-float").sum() == 0  # the file declares it
    for name in ("heart_c", "heart_h"):
        assert list(loaded[name].y.cat.categories) == ["<50", ">50_1"]
        assert loaded[name].dropped_classes == (">50_2", ">50_3", ">50_4")
    assert loaded["anneal"].dropped_classes == ("4",)
    assert loaded["vote"].dropped_classes == ()
    # the codes still point at the same labels
    assert (loaded["glass"].y.astype(str).to_numpy() == raw["Type"].astype(str).to_numpy()).all()


def test_class_with_missing_values(loaded):
    echo = loaded["echocardiogram"]
    assert echo.y.isna().sum() == 58
    assert echo.n_classes == 2 and echo.dropped_classes == ()
    assert {"name", "group"}.isdisjoint(echo.X.columns)


def test_adult_header_row_and_label_suffix(loaded):
    adult = loaded["adult"]
    assert list(adult.y.cat.categories) == [">50K", "<=50K"]
    for part in ("train", "test"):
        y = adult.y[adult.split == part]
        assert y.notna().all()
        assert set(y.unique()) == {">50K", "<=50K"}
    assert adult.X["age"].dtype == np.float64
    assert adult.X["age"].notna().all()
    # '?' entries are missing, not a category
    assert "?" not in list(adult.X["workclass"].cat.categories)


def test_anneal_question_mark_is_a_value_only_in_weka_version(loaded):
    weka, orig = loaded["anneal"].X, loaded["anneal_orig"].X
    assert "?" in list(weka["family"].cat.categories)
    assert weka.isna().to_numpy().sum() == 0
    assert ((weka["family"] == "?").to_numpy() == orig["family"].isna().to_numpy()).all()


def test_wine_class_is_first_attribute(loaded):
    raw, _ = datasets.read_arff(RAW / "wine.arff")
    assert raw.columns[0] == "class"
    pd.testing.assert_series_equal(loaded["wine"].y, raw["class"])


# ---------------------------------------------------------------------------
# fixed splits
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, n_train, n_test",
    [("monks1", 124, 432), ("monks2", 169, 432), ("monks3", 122, 432),
     ("hayes_roth", 132, 28), ("adult", 32561, 16281), ("anneal_orig", 798, 100),
     ("sick", 2800, 972)],
)
def test_split_sizes(name, n_train, n_test, loaded):
    split = loaded[name].split
    assert split.index.equals(loaded[name].X.index)
    assert (split == "train").sum() == n_train
    assert (split == "test").sum() == n_test
    # the training part comes first
    assert (split.iloc[:n_train] == "train").all()


def test_split_none_without_fixed_split(loaded):
    assert loaded["vote"].split is None
    assert loaded["audiology"].split is None  # 200 + 26, order inside the file unknown


def test_sick_training_rows_are_ucis_training_file(loaded):
    """data/added/README.md: an independent copy of UCI's sick.data holds 2799 of the first
    2800 rows of sick.arff, in order; the first row's values and the class counts of the
    training part (171 sick) are UCI's."""
    ds = loaded["sick"]
    train = ds.y[ds.split == "train"]
    assert train.value_counts().to_dict() == {"negative": 2629, "sick": 171}
    assert ds.X.loc[0, "age"] == 41 and ds.X.loc[0, "referral source"] == "SVHC"


def test_added_files_have_their_provenance():
    """Every file in data/added is used, listed in its MANIFEST with a second copy it was
    checked against, and has a checksum (the loader verifies it)."""
    files = {p.name for p in ADDED.iterdir() if p.is_file()} - {"README.md", "MANIFEST.csv"}
    with open(ADDED / "MANIFEST.csv", newline="") as fh:
        rows = {r["file"]: r for r in csv.DictReader(fh)}
    assert files == set(rows)
    sums = (ROOT / "SHA256SUMS").read_text()
    for f, row in rows.items():
        assert row["verified_against"].strip(), f
        assert f"  {f}\n" in sums, f


def test_monks_split_rows_are_the_files_rows(loaded):
    train, _ = datasets.read_arff(RAW / "monks-problems-1_train.arff")
    test, _ = datasets.read_arff(RAW / "monks-problems-1_test.arff")
    ds = loaded["monks1"]
    both = pd.concat([train, test], ignore_index=True)
    pd.testing.assert_frame_equal(
        ds.X.astype(str), both.drop(columns="class").astype(str)
    )


def test_anneal_orig_split_matches_file_comments():
    """The 798/100 split comes from the comment lines inside the @data section."""
    lines = (RAW / "anneal.ORIG.arff").read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().lower() == "@data")
    counts, part = {}, None
    for line in lines[start + 1:]:
        m = re.search(r"instances from file: anneal-(\w+)\.arff", line)
        if m:
            part = m.group(1)
        elif line.strip() and not line.lstrip().startswith("%"):
            counts[part] = counts.get(part, 0) + 1
    assert counts == SPECS["anneal_orig"]["split_rows"]


# ---------------------------------------------------------------------------
# cross-check against the conformance files (written by other tools)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["iris", "vote", "zoo"])
def test_conformance_files_are_our_rows(name, loaded):
    if not CONFORMANCE.is_dir():
        pytest.skip("conformance data not available")
    split = json.loads((CONFORMANCE / f"{name}_split.json").read_text())
    cuts = json.loads((CONFORMANCE / f"{name}_cuts.json").read_text())["cuts"]
    ds = loaded[name]
    for part in ("train", "test"):
        ref, _ = datasets.read_arff(CONFORMANCE / f"{name}_{part}.arff")
        rows = split[f"{part}_rows_0based"]
        ours = ds.X.iloc[rows].reset_index(drop=True)
        assert list(ref.columns[:-1]) == list(ours.columns)
        for c in ours.columns:
            if c in cuts:
                # the reference discretised with these cuts: same interval?
                assert list(ref[c].cat.categories) == cuts[c]["labels"]
                interval = np.searchsorted(cuts[c]["cuts"], ours[c].to_numpy(), side="left")
                np.testing.assert_array_equal(interval, ref[c].cat.codes.to_numpy())
            else:
                assert list(ref[c].cat.categories) == list(ours[c].cat.categories)
                np.testing.assert_array_equal(
                    ref[c].cat.codes.to_numpy(), ours[c].cat.codes.to_numpy()
                )
        np.testing.assert_array_equal(
            ref.iloc[:, -1].cat.codes.to_numpy(),
            ds.y.iloc[rows].cat.codes.to_numpy(),
        )


# ---------------------------------------------------------------------------
# loading leaves data/raw alone and returns independent copies
# ---------------------------------------------------------------------------


def _fingerprint():
    return {
        p.name: (
            p.stat().st_mtime_ns,
            p.stat().st_size,
            hashlib.sha256(p.read_bytes()).hexdigest(),
        )
        for p in sorted(RAW.iterdir())
    }


def test_loading_never_modifies_raw():
    before = _fingerprint()
    for name in datasets.names():
        datasets.load(name)
    table = datasets.catalogue()
    assert _fingerprint() == before
    assert len(table) == len(datasets.names())


def test_loads_are_independent_copies():
    a = datasets.load("vote")
    a.X.iloc[0, 0] = np.nan
    del a.X[a.X.columns[1]]
    b = datasets.load("vote")
    assert b.n_features == 16
    assert b.X.iloc[0, 0] == "n"


# ---------------------------------------------------------------------------
# catalogue(), published(), data_dir()
# ---------------------------------------------------------------------------


def test_catalogue_table(loaded):
    table = datasets.catalogue()
    assert list(table["name"]) == datasets.names()
    for col in ("title", "files", "groups", "n_rows", "n_features", "n_classes",
                "dropped_classes", "pct_missing", "source", "licence"):
        assert col in table.columns
    for group in GROUP_SIZES:
        assert table[f"{group}:name"].notna().sum() >= (
            GROUP_SIZES[group] if group != "antonucci-lncc" else 3
        )
    row = table.set_index("name").loc["hepatitis"]
    assert row["n_rows"] == 155 and row["n_features"] == 19
    assert row["ramoni-sebastiani:name"] == "Hepatitis"
    assert row["moral-trees:n"] == 80
    assert row["pct_missing"] == pytest.approx(100 * 167 / (155 * 19), abs=0.01)
    by_name = table.set_index("name")
    for name, ds in loaded.items():
        assert by_name.loc[name, "n_rows"] == ds.n_rows


def test_published_tables():
    t = datasets.published("corani_table2_datasets")
    assert len(t) == 40 and "dataset" in t.columns
    pd.testing.assert_frame_equal(datasets.published("corani_table2_datasets.csv"), t)
    with pytest.raises(KeyError, match="corani_table2_datasets"):
        datasets.published("corani_table3")


def test_data_dir_env(monkeypatch, tmp_path):
    monkeypatch.delenv("CREDAL_DATA", raising=False)
    assert datasets.data_dir() == ROOT
    monkeypatch.setenv("CREDAL_DATA", str(tmp_path))
    assert datasets.data_dir() == tmp_path
    monkeypatch.setenv("CREDAL_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="CREDAL_DATA"):
        datasets.data_dir()


def _private_catalogue(tmp_path, monkeypatch, entry: str):
    (tmp_path / "raw").mkdir()
    sums = dict(line.split()[::-1] for line in (ROOT / "SHA256SUMS").read_text().splitlines())
    files = ("iris.arff", "monks-problems-1_train.arff", "monks-problems-1_test.arff")
    for f in files:
        (tmp_path / "raw" / f).write_bytes((RAW / f).read_bytes())
    (tmp_path / "SHA256SUMS").write_text("".join(f"{sums[f]}  {f}\n" for f in files))
    (tmp_path / "catalogue.toml").write_text(
        '[groups.g]\ntitle = "g"\n\n[datasets.d]\ntitle = "d"\ngroups = ["g"]\n' + entry
    )
    monkeypatch.setenv("CREDAL_DATA", str(tmp_path))


@pytest.mark.parametrize(
    "entry, what",
    [
        ('files = ["iris.arff"]\nclass = "Class"\n', "not found"),
        ('files = ["iris.arff"]\nclass = "sepallength"\n', "not nominal"),
        ('files = ["iris.arff"]\nclass = "class"\nids = ["id"]\n', "id columns"),
        ('files = ["iris.arff"]\nclass = "class"\nsplit_rows = {train = 100, test = 49}\n',
         "does not add up"),
        ('files = ["iris.arff"]\nclass = "class"\nformat = "xls"\n', "unknown format"),
        ('files = ["monks-problems-1_train.arff", "monks-problems-1_test.arff"]\n'
         'class = "class"\nsplit = ["train"]\n', "per file"),
    ],
)
def test_inconsistent_catalogue_entry_is_an_error(tmp_path, monkeypatch, entry, what):
    _private_catalogue(tmp_path, monkeypatch, entry)
    assert datasets.names() == ["d"] and datasets.names("g") == ["d"]
    with pytest.raises(ValueError, match=what):
        datasets.load("d")


def test_private_catalogue_loads(tmp_path, monkeypatch):
    _private_catalogue(
        tmp_path, monkeypatch,
        'files = ["monks-problems-1_train.arff", "monks-problems-1_test.arff"]\n'
        'class = "class"\nsplit = ["train", "test"]\ndrop = ["attr6"]\n',
    )
    ds = datasets.load("d")
    assert ds.n_rows == 556 and ds.n_features == 5 and ds.groups == ("g",)
    assert (ds.split == "train").sum() == 124


# ---------------------------------------------------------------------------
# readers: malformed input
# ---------------------------------------------------------------------------

ARFF_HEAD = "@relation r\n@attribute a {x,y}\n@attribute b numeric\n@data\n"

# wordings after the move to liac-arff (parse errors are liac-arff's, with
# the file, the line and a plain-words lead)
BAD_ARFF = [
    (ARFF_HEAD + "x,1\ny\n", 6, "wrong number of values"),
    (ARFF_HEAD + "x,1\nx,1,2\n", 6, "wrong number of values"),
    (ARFF_HEAD + "z,1\n", 5, "not among its declared categories"),
    (ARFF_HEAD + "x,1\n%c\ny,abc\n", 7, "non-numeric value in a numeric column in 'y,abc'"),
    (ARFF_HEAD + "x,nan\n", 5, "not a finite number in 'x,nan'"),
    (ARFF_HEAD + "x,1\ny,inf\n", 6, "not a finite number in 'y,inf'"),
    (ARFF_HEAD + "x,-Infinity\n", 5, "not a finite number"),
    (ARFF_HEAD + "x,1e400\n", 5, "not a finite number in 'x,1e400'"),
    ("@relation r\n@attribute a blob\n@data\n", 2, "unknown attribute type"),
    ("@relation r\n@attribute a {x,y\n@data\n", 2, "malformed declaration"),
    ("@relation r\n@attribute a {x,x}\n@data\n", 2, "twice"),
    ("@relation r\n@attribute a {x}\n@attribute a {y}\n@data\n", 3, "already declared"),
    (ARFF_HEAD + "{0 x, 1 2}\n", 5, "sparse"),
    (ARFF_HEAD + "'x,1\n", 5, "malformed line"),
    (ARFF_HEAD + "x,,\n", 5, "wrong number of values"),
    (ARFF_HEAD + "x y,1\n", 5, "malformed line"),
    ("@relation r\n\n@attribute a {x}\nhello\n@data\n", 4, "unexpected line"),
    ("% c\n@attribute a {x}\n@data\n", 2, "out of order"),
    ("@relation r\n@attribute a relational\n@data\n", 2, "not supported"),
    ("@relation r\n@attribute a {}\n@data\n", 2, "no values"),
    ("% c\n@relation   % no name\n@attribute a {x}\n@data\n", 2, "without a name"),
]


@pytest.mark.parametrize("text, line, what", BAD_ARFF)
def test_malformed_arff_names_file_and_line(tmp_path, text, line, what):
    path = tmp_path / "bad.arff"
    path.write_bytes(text.replace("\n", "\r\n").encode())
    with pytest.raises(ValueError) as err:
        datasets.read_arff(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}, line {line}:"), msg
    assert what in msg


def test_arff_without_data_section(tmp_path):
    path = tmp_path / "nodata.arff"
    path.write_text("@relation r\n@attribute a {x}\n")
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*no @data"):
        datasets.read_arff(path)


TAB_HEAD = "a\tb\tc\nd\tc\td\n\t\tclass\n"
BAD_TAB = [
    (TAB_HEAD + "x\t1\ty\nx\t2\n", 5, "wrong number of values"),
    (TAB_HEAD + "x\t1\ty\nx\tfoo\ty\n", 5, "value 'foo' of numeric column 'b' is not"),
    ("a\tb\nd\tq\n\t\n1\t2\n", 2, "unknown type"),
    ("a\tb\nd\td\n\tcls\n1\t2\n", 3, "unknown flag"),
    ("a\tb\nd\td\tc\n\t\n1\t2\n", 2, "3 types for 2 columns"),
    ("a\tb\n0 1\td\n\t\n2\t2\n", 4, "not among its declared categories"),
]


@pytest.mark.parametrize("text, line, what", BAD_TAB)
def test_malformed_tab_names_file_and_line(tmp_path, text, line, what):
    path = tmp_path / "bad.tab"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        datasets.read_tab(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}, line {line}:"), msg
    assert what in msg


def test_malformed_delimited_names_file_and_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,x\n2,y\n\n3\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}, line 5: wrong number")):
        datasets.read_delimited(path, header=True)
    path.write_text("1, x\n2, z\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}, line 2: value 'z'")):
        datasets.read_delimited(path, names=["a", "b"], categories={"b": ["x", "y"]})
    with pytest.raises(ValueError, match=re.escape(f"{path}, line 1: value 'x' of numeric column 'b'")):
        datasets.read_delimited(path, names=["a", "b"], numeric=["b"])
    with pytest.raises(ValueError, match="unknown column 'c'"):
        datasets.read_delimited(path, names=["a", "b"], numeric=["c"])


# ---------------------------------------------------------------------------
# readers: behaviour on well-formed input
# ---------------------------------------------------------------------------


def test_arff_quoting_and_missing():
    text = (
        "% comment\r\n@RELATION 'my rel'\r\n\r\n"
        "@ATTRIBUTE 'a b' {'\\'(-inf-5.75]\\'','x,y',\"q\\\"t\",'?'}\r\n"
        "@Attribute n INTEGER [1,10]\r\n@attribute s string\r\n@DATA\r\n"
        "'\\'(-inf-5.75]\\'', 3, hello\r\n"
        "'?', ?, 'a b'\r\n"
        "?, -2.5e1, ?   % trailing comment\r\n"
        "\"q\\\"t\",4,'x,y'\r\n"
    )
    frame, rel = parse_arff(text)
    assert rel == "my rel"
    col = frame["a b"]
    assert list(col.cat.categories) == ["'(-inf-5.75]'", "x,y", 'q"t', "?"]
    assert col.cat.codes.tolist() == [0, 3, -1, 2]
    np.testing.assert_array_equal(frame["n"].to_numpy(), [3.0, np.nan, -25.0, 4.0])
    assert frame["s"].iloc[0] == "hello" and pd.isna(frame["s"].iloc[2])
    assert frame["s"].iloc[3] == "x,y"


def test_arff_comments_in_header_lines():
    text = "@relation r % x\n@attribute 'a%b' {x,'y%'} % c\n@attribute n numeric %c\n@data\n"
    frame, rel = parse_arff(text + "x,1 % z\n'y%',2\n")
    assert rel == "r"
    assert list(frame.columns) == ["a%b", "n"]
    assert list(frame["a%b"].cat.categories) == ["x", "y%"]
    assert frame["n"].tolist() == [1.0, 2.0]


def test_tab_reader_roles_types_and_missing():
    text = "n\tv\tk\tw\nc\td\ta b\ts\ni\t\tclass\tmeta\n1.5\tx\ta\thi\n?\t~\tb\t\n"
    frame, roles = parse_tab(text)
    assert roles == {"n": "ignore", "v": "", "k": "class", "w": "meta"}
    assert frame["n"].tolist()[0] == 1.5 and math.isnan(frame["n"].iloc[1])
    assert list(frame["k"].cat.categories) == ["a", "b"]
    assert frame["v"].isna().tolist() == [False, True]


def test_delimited_reader_options():
    text = "skip me\nh1, h2, h3\n10, a., 1\n9, b, ?\n"
    frame = parse_delimited(
        text, header=True, skip_rows=1, names=["x", "y", "z"],
        strip_suffix={"y": "."}, nominal=["z"],
    )
    assert frame["x"].tolist() == [10.0, 9.0]
    assert list(frame["y"].cat.categories) == ["a", "b"]
    assert frame["z"].cat.codes.tolist() == [0, -1]
    ws = parse_delimited("a 1\tx\nb  2 y\n", sep="whitespace", names=["p", "q", "r"])
    assert ws["q"].tolist() == [1.0, 2.0]


def test_natural_sort():
    assert natural_sort(["10", "9", "2", "2"]) == ["2", "9", "10"]
    assert natural_sort(["b", "a", "10"]) == ["10", "a", "b"]
    assert natural_sort(["05", "5.0", "1"]) == ["1", "05", "5.0"]


def test_read_cache_returns_copies_and_sees_edits(tmp_path):
    path = tmp_path / "t.arff"
    path.write_text("@relation r\n@attribute a {x,y}\n@data\nx\ny\n")
    first, _ = datasets.read_arff(path)
    first.loc[0, "a"] = "y"
    again, _ = datasets.read_arff(path)
    assert again["a"].tolist() == ["x", "y"]
    path.write_text("@relation r\n@attribute a {x,y}\n@data\ny\n")
    assert datasets.read_arff(path)[0]["a"].tolist() == ["y"]


# ---------------------------------------------------------------------------
# hypothesis: ARFF round trip
# ---------------------------------------------------------------------------

_ALPHABET = st.sampled_from(list("abcXYZ019 ,'\"\\%{}?-._\t") + ["é"])
_LABEL = st.text(_ALPHABET, min_size=0, max_size=6)
_ESC = {"\\": "\\\\", "'": "\\'", '"': '\\"', "\t": "\\t", "\n": "\\n"}


def _quote(value: str, style: str) -> str:
    q = "'" if style == "single" else '"'
    body = "".join(_ESC.get(ch, ch) for ch in value)
    return q + body + q


def _safe_bare(value: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9._\-é]+", value)) and value != "?"


@st.composite
def _tables(draw):
    n_cols = draw(st.integers(1, 5))
    n_rows = draw(st.integers(0, 8))
    cols = []
    for j in range(n_cols):
        kind = draw(st.sampled_from(["nominal", "numeric", "string"]))
        if kind == "nominal":
            cats = draw(st.lists(_LABEL, min_size=1, max_size=5, unique=True))
            cells = draw(st.lists(st.one_of(st.none(), st.sampled_from(cats)),
                                  min_size=n_rows, max_size=n_rows))
        elif kind == "numeric":
            cats = None
            cells = draw(st.lists(
                st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False),
                          st.integers(-10**6, 10**6).map(float)),
                min_size=n_rows, max_size=n_rows))
        else:
            cats = None
            cells = draw(st.lists(st.one_of(st.none(), _LABEL),
                                  min_size=n_rows, max_size=n_rows))
        name = draw(_LABEL.filter(lambda s: s.strip() != "")) + f"#{j}"
        cols.append((name, kind, cats, cells))
    style = draw(st.sampled_from(["single", "double", "bare"]))
    crlf = draw(st.booleans())
    return cols, n_rows, style, crlf


def _write_arff(cols, n_rows, style, crlf) -> str:
    def q(v):
        if style == "bare" and _safe_bare(v):
            return v
        return _quote(v, "double" if style == "double" else "single")

    out = ["% random table", "@RELATION " + _quote("rel", "single"), ""]
    for name, kind, cats, _ in cols:
        if kind == "nominal":
            spec = "{" + ", ".join(q(c) for c in cats) + "}"
        else:
            spec = {"numeric": "REAL", "string": "string"}[kind]
        out.append(f"@attribute {_quote(name, 'single')} {spec}")
    out += ["", "@data", "% rows follow"]
    for i in range(n_rows):
        cells = []
        for _, kind, _, values in cols:
            v = values[i]
            if v is None:
                cells.append("?")
            elif kind == "numeric":
                cells.append(repr(v))
            else:
                cells.append(q(v))
        out.append(",".join(cells))
        if i % 3 == 1:
            out.append("")
    return ("\r\n" if crlf else "\n").join(out) + "\n"


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_tables())
def test_arff_round_trip(table):
    cols, n_rows, style, crlf = table
    frame, rel = parse_arff(_write_arff(cols, n_rows, style, crlf), source="gen.arff")
    assert rel == "rel"
    assert list(frame.columns) == [c[0] for c in cols]
    assert len(frame) == n_rows
    for name, kind, cats, values in cols:
        col = frame[name]
        missing = [v is None for v in values]
        assert col.isna().tolist() == missing
        if kind == "nominal":
            assert list(col.cat.categories) == cats
            expect = [-1 if v is None else cats.index(v) for v in values]
            assert col.cat.codes.tolist() == expect
        elif kind == "numeric":
            assert col.dtype == np.float64
            got = col.to_numpy()
            for g, v in zip(got, values):
                assert (v is None and math.isnan(g)) or g == v
        else:
            assert [None if pd.isna(g) else g for g in col] == values


def test_arff_round_trip_through_a_file(tmp_path):
    cols = [("a", "nominal", ["x", "'y'", "?"], ["'y'", None, "?"]),
            ("b", "numeric", None, [1.5, None, -3.0])]
    path = tmp_path / "rt.arff"
    path.write_text(_write_arff(cols, 3, "single", True))
    frame, _ = datasets.read_arff(path)
    assert frame["a"].cat.codes.tolist() == [1, -1, 2]
    assert frame["b"].isna().tolist() == [False, True, False]


# ---------------------------------------------------------------------------
# issue 16: raw files checked against SHA256SUMS at load; clear errors
# ---------------------------------------------------------------------------


def _private_copy(tmp_path, monkeypatch, files=("vote.arff", "iris.arff")):
    """A private data/ with a few raw files, their checksums and the real catalogue."""
    (tmp_path / "raw").mkdir()
    sums = dict(line.split()[::-1] for line in (ROOT / "SHA256SUMS").read_text().splitlines())
    for f in files:
        (tmp_path / "raw" / f).write_bytes((RAW / f).read_bytes())
    (tmp_path / "SHA256SUMS").write_text("".join(f"{sums[f]}  {f}\n" for f in files))
    (tmp_path / "catalogue.toml").write_bytes((ROOT / "catalogue.toml").read_bytes())
    monkeypatch.setenv("CREDAL_DATA", str(tmp_path))
    return tmp_path / "raw"


def _change_digit(b: bytes) -> bytes:
    i = b.rindex(b"5.1,3.5")  # iris: a numeric value in the first data row
    return b[:i] + b"5.2" + b[i + 3:]


@pytest.mark.parametrize("corrupt", [
    pytest.param(lambda b: b[: len(b) // 2], id="truncated"),
    pytest.param(_change_digit, id="changed digit"),
    pytest.param(lambda b: b.replace(b"Iris-setosa\r\n", b"Iris-versicolor\r\n", 1),
                 id="changed class label"),
    pytest.param(lambda b: b + b"5.0,3.0,1.5,0.2,Iris-setosa\r\n", id="appended row"),
])
def test_load_rejects_a_raw_file_that_differs_from_its_checksum(tmp_path, monkeypatch, corrupt):
    raw = _private_copy(tmp_path, monkeypatch)
    assert datasets.load("iris").n_rows == 150
    data = (raw / "iris.arff").read_bytes()
    bad = corrupt(data)
    assert bad != data
    (raw / "iris.arff").write_bytes(bad)
    os.utime(raw / "iris.arff", ns=(1, 10**18))  # a different stat, whatever the clock
    with pytest.raises(ValueError, match=re.escape(str(raw / "iris.arff")) + ".*SHA-256"):
        datasets.load("iris")
    assert datasets.load("vote").n_rows == 435  # other files are unaffected
    (raw / "iris.arff").write_bytes(data)
    assert datasets.load("iris").n_rows == 150


def test_load_needs_the_file_listed_and_the_checksum_list(tmp_path, monkeypatch):
    raw = _private_copy(tmp_path, monkeypatch)
    sums = tmp_path / "SHA256SUMS"
    sums.write_text(sums.read_text().splitlines()[0] + "\n")  # vote only
    with pytest.raises(ValueError, match="iris.arff is not listed in .*SHA256SUMS"):
        datasets.load("iris")
    sums.unlink()
    with pytest.raises(FileNotFoundError, match="checksum list not found"):
        datasets.load("vote")
    assert raw.is_dir()


def test_checksum_verdict_is_cached_per_file(tmp_path, monkeypatch):
    _private_copy(tmp_path, monkeypatch)
    datasets._sha256.cache_clear()
    datasets.load("iris")
    first = datasets._sha256.cache_info()
    datasets.load("iris")
    datasets.load("iris")
    again = datasets._sha256.cache_info()
    assert first.misses == again.misses == 1  # hashed once
    assert again.hits == first.hits + 2


def test_corrupted_catalogue_names_file_and_line(tmp_path, monkeypatch):
    _private_copy(tmp_path, monkeypatch)
    cat = tmp_path / "catalogue.toml"
    lines = cat.read_text().splitlines()
    lines[40] = lines[40] + ' = "oops'
    cat.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as err:
        datasets.names()
    msg = str(err.value)
    assert msg.startswith(f"{cat}: not a valid TOML file") and "line 41" in msg, msg


def test_arff_with_a_utf8_byte_order_mark(tmp_path):
    text = "@relation r\r\n@attribute a {x,y}\r\n@attribute b numeric\r\n@data\r\nx,1\r\n"
    path = tmp_path / "bom.arff"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    frame, rel = datasets.read_arff(path)
    assert rel == "r" and frame["b"].tolist() == [1.0]
    assert parse_arff("\ufeff" + text)[0].equals(frame)


def test_delimited_and_tab_reject_non_finite_numbers(tmp_path):
    path = tmp_path / "x.csv"
    for token in ("inf", "1e400", "-Infinity", "nan"):
        path.write_text(f"1,a\n{token},b\n")
        with pytest.raises(ValueError, match=re.escape(f"{path}, line 2: value {token!r}")):
            datasets.read_delimited(path, names=["n", "c"], numeric=["n"])
    with pytest.raises(ValueError, match="line 4: value 'inf' of numeric column 'n'"):
        parse_tab("n\tc\nc\td\n\tclass\ninf\tx\n")
