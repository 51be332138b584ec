"""The data chapter (credal.chapters.datasets): its run, its tables, the numbers of its
text and its figure."""

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from credal import datasets
from credal.chapters import datasets as chapter


def test_public_names():
    assert sorted(chapter.__all__) == ["dataset_map", "numbers", "run", "tables"]
    for n in chapter.__all__:
        assert callable(getattr(chapter, n))


@pytest.mark.parametrize("name", ["labor", "zoo", "iris", "hepatitis", "hayes_roth"])
def test_features_after_mdl_is_corani_k(name):
    table = datasets.published("corani_table2_datasets").drop_duplicates("dataset")
    k = int(table.set_index("dataset").loc[name, "k"])
    assert chapter._features_after_mdl(datasets.load(name)) == k


@pytest.fixture(scope="module")
def lncc_tables():
    """The chapter's run and tables for one paper's data sets, without MDL."""
    results = chapter.run(groups="antonucci-lncc", discretize=False)
    return results, chapter.tables(results)


def test_overview_and_its_display(lncc_tables):
    results, t = lncc_tables
    ov = t["overview"]
    assert ov is results["overview"]
    assert list(ov.index) == sorted(datasets.names("antonucci-lncc"))
    assert "n_features_mdl" not in ov
    assert list(ov.columns) == ["title", "n_rows", "n_features", "n_classes",
                                "dropped_classes", "pct_missing", "groups", "files",
                                "source", "licence"]
    everything = chapter._overview(discretize=False)
    assert list(everything.index) == list(datasets.catalogue()["name"])
    shown = t["overview_cells"]
    assert shown.index.name == "data set" == ov.index.name
    assert list(shown.columns) == ["rows", "features", "classes", "missing %", "papers"]
    assert all("Antonucci" in p for p in shown["papers"])
    assert list(t["sources"].columns) == ["title", "files", "source", "licence"]
    assert chapter.numbers(t) == {"n_datasets": str(len(ov)),
                                  "n_dropped_sets": str(len(t["dropped_classes"]))}
    with_mdl = chapter.tables(chapter.run(groups="moral-trees"))["overview_cells"]
    assert list(with_mdl.columns) == ["rows", "features", "after MDL", "classes", "missing %",
                                      "papers"]


def test_paper_lists_and_their_display(lncc_tables):
    _, t = lncc_tables
    lists = t["paper_lists"]
    assert "k" not in lists
    for g in datasets.groups():
        assert (lists["group"] == g).sum() == len(datasets.names(g))
        pd.testing.assert_frame_equal(t[f"paper_list-{g}"], lists[lists["group"] == g])
    assert lists["paper_n"].dtype == "Int64"
    corani = t["paper_list-corani-antonucci_cells"]
    assert list(corani.columns) == ["paper's name", "our name", "rows (paper / ours)",
                                    "k (paper / ours)", "classes (paper / ours)", "note"]
    moral = t["paper_list-moral-trees_cells"]
    assert {"train + test (paper)", "variables (paper)"} <= set(moral.columns)
    # a k counted for the overview is not counted again
    k = chapter._paper_lists(known={n: -1 for n in datasets.names("corani-antonucci")})
    assert (k.loc[k["group"] == "corani-antonucci", "k"] == -1).all()


def test_dataset_map_draws_every_group(tmp_path):
    ov = chapter._overview(groups=["antonucci-lncc", "moral-trees"], discretize=False)
    fig = chapter.dataset_map(ov)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert any("Antonucci, Cattaneo & Corani (9" in t for t in titles)
    assert any("Moral (11" in t for t in titles)
    # every data set of a panel is named in it, in 9 pt at least
    moral = next(ax for ax in fig.axes if ax.get_title().startswith("Moral"))
    names = {t.get_text() for t in moral.texts}
    assert names == set(datasets.names("moral-trees"))
    assert min(t.get_fontsize() for t in moral.texts) >= 9
    assert fig.get_size_inches()[0] <= 6.8
    fig.savefig(tmp_path / "map.png")
    with pytest.raises(ValueError, match="no paper group"):
        chapter.dataset_map(ov, groups=[])


def test_saved_tables_round_trip(tmp_path):
    from credal.chapters._display import save_table

    ov = chapter._overview(groups="moral-trees", discretize=False)
    path = save_table(ov, "datasets", "overview", root=tmp_path)
    assert path == tmp_path / "results" / "datasets" / "overview.csv"
    back = pd.read_csv(path, index_col=0)
    assert list(back.index) == list(ov.index)


def test_dropped_classes_lists_where_declared_classes_never_occur():
    """Declared/observed counts from the raw files (read independently of load)."""
    from credal._readers import read_arff

    table = chapter._dropped_classes(chapter._overview(discretize=False))
    assert list(table.columns) == ["declared", "observed", "dropped", "groups"]
    assert {"heart_c", "heart_h", "glass", "anneal"} <= set(table.index)
    assert "vote" not in table.index and "spambase" not in table.index
    for name, fname, col in (("heart_h", "heart-h.arff", "num"), ("glass", "glass.arff", "Type"),
                             ("anneal", "anneal.arff", "class")):
        y = read_arff(datasets.data_dir() / "raw" / fname)[0][col]
        assert table.loc[name, "declared"] == len(y.cat.categories)
        assert table.loc[name, "observed"] == y.nunique()
        unused = [c for c in y.cat.categories if (y == c).sum() == 0]
        assert table.loc[name, "dropped"] == ", ".join(unused)
    assert table.loc["heart_c", "declared"] == 5 and table.loc["heart_c", "observed"] == 2
    assert "corani-antonucci" in table.loc["glass", "groups"]
    # the overview shows the dropped classes next to the observed ones
    shown = chapter.tables(chapter.run(groups="corani-antonucci", discretize=False))["overview_cells"]
    assert shown.loc["heart_h", "classes"] == "2 (+3 dropped)"
    assert shown.loc["vote" if "vote" in shown.index else "iris", "classes"].isdigit()
    assert len(shown) == 40 and "spambase" in shown.index


def test_corani_list_has_spambase_for_the_second_ecoli(lncc_tables):
    lists = lncc_tables[1]["paper_lists"]
    corani = lists[lists["group"] == "corani-antonucci"].set_index("name")
    assert len(corani) == 40
    assert pd.isna(corani.loc["spambase", "paper_n"])
    assert "second time" in corani.loc["spambase", "note"]
    assert corani.loc["spambase", "n_rows"] == 4601


def test_paper_cells_fit_and_pair_numbers(lncc_tables):
    t = lncc_tables[1]
    lists = t["paper_lists"]
    for g in datasets.groups():
        view = t[f"paper_list-{g}_cells"]
        assert view.shape[1] <= 7 and len(view) == (lists["group"] == g).sum()
    moral = t["paper_list-moral-trees_cells"].set_index("our name")
    # equal numbers print once, different ones as "paper / ours"
    assert moral.loc["australian", "rows (paper / ours)"] == "690"
    assert moral.loc["breast_cancer", "rows (paper / ours)"] == "277 / 286"
    assert moral.loc["breast_cancer", "train + test (paper)"] == "184 + 93"
    corani = t["paper_list-corani-antonucci_cells"].set_index("our name")
    assert corani.loc["spambase", "rows (paper / ours)"] == "\u2013 / 4601"
    assert corani.loc["anneal", "classes (paper / ours)"] == "6 / 5 (+1 dropped)"
