"""Chapter code of Dash & Cooper (credal.chapters.exact_model_averaging).

Trials run through the evaluation engine are checked against a direct computation
that calls the library's pieces one by one (random network, sampler, classifiers,
ROC area), so the batching, the seeds and the reduction of the engine's tables are
all covered.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from credal import experiments
from credal.averaging import ModelAveragedNaiveBayes
from credal.chapters import exact_model_averaging as chapter
from credal.metrics import delta_roc, delta_roc_remaining, roc_area
from credal.networks import (choose_class_node, load_network, random_network, sample,
                             sample_random_trials)

MA_NAME, MAP_NAME = chapter.classifiers()
roc_areas, summarise_trials = chapter._roc_areas, chapter._summarise_trials


def random_network_trials(n_features, n_train, max_parents, *, test="random",
                          random_state=0, cache_dir=None, **kw):
    """The trials of one random-network test, through the chapter's run()."""
    settings = dict(n_features=n_features, n_train=n_train, max_parents=max_parents, **kw)
    return chapter.run({test: settings}, check_n_features=None, random_state=random_state,
                       cache_dir=cache_dir)["trials"][test]


def network_trials(network, class_nodes, n_train, *, random_state=0, **kw):
    """The trials of one network test, through the chapter's run()."""
    settings = dict(network=network, class_nodes=class_nodes, n_train=n_train, **kw)
    return chapter.run({"net": settings}, check_n_features=None,
                       random_state=random_state)["trials"]["net"]


def _tables(res, check=None):
    """The chapter's tables() of fake trials (no run times)."""
    return chapter.tables({"trials": res, "check": check})

# --------------------------------------------------------------------------------------
# ROC areas from the engine's tables; the integer-code preprocessing
# --------------------------------------------------------------------------------------


def test_roc_areas_from_engine_tables():
    rng = np.random.default_rng(1)
    items = []
    for t, K in enumerate([2, 2, 2]):
        X = rng.integers(0, 3, (80, 4))
        y = (X[:, 0] + rng.integers(0, 2, 80)) % K
        cats = pd.CategoricalDtype([str(c) for c in range(K)])
        ys = pd.Series(pd.Categorical.from_codes(y, dtype=cats))
        if t == 1:  # a test part with a single class: area undefined
            ys.iloc[50:] = "0"
        items.append(experiments.holdout_item(
            f"d{t}", (X[:50], ys.iloc[:50]), (X[50:], ys.iloc[50:])))
    res = experiments.cross_validate(
        chapter.classifiers(3), items, use_predefined_split=True,
        preprocessing=None, keep_codes=True, progress=False)
    areas = roc_areas(res).set_index(["dataset", "classifier"])
    for name in ("d0", "d2"):
        for clf in (MA_NAME, MAP_NAME):
            sub = res.predictions.query("dataset == @name and classifier == @clf")
            want = roc_area(sub["y_true"].to_numpy(), np.array(list(sub["proba"])),
                            res.classes[name])
            assert areas.loc[(name, clf), "roc_area"] == pytest.approx(want, abs=1e-12)
    assert areas.loc[("d1", MA_NAME), "roc_area"] != areas.loc[("d1", MA_NAME), "roc_area"]
    X = rng.integers(0, 3, (60, 4))  # two classes only: the chapter's data sets
    y = pd.Series(pd.Categorical.from_codes(X[:, 0], categories=["0", "1", "2"]))
    three = experiments.cross_validate(
        chapter.classifiers(3), [experiments.holdout_item("d3", (X[:40], y[:40]),
                                                          (X[40:], y[40:]))],
        use_predefined_split=True, preprocessing=None, keep_codes=True, progress=False,
        keep_predictions=True)
    with pytest.raises(ValueError, match="two classes"):
        roc_areas(three)


# --------------------------------------------------------------------------------------
# Trials through the engine against a direct computation
# --------------------------------------------------------------------------------------


def _direct_trial(seed, n_features, max_parents, n_train, n_test):
    rng = np.random.default_rng(seed)
    net = random_network(n_features + 1, max_parents, rng)
    cls = net.index(choose_class_node(net, rng))
    x = sample(net, n_train + n_test, rng, as_frame=False)
    X, y = np.delete(x, cls, axis=1), x[:, cls]
    ytr = pd.Categorical.from_codes(y[:n_train], categories=["0", "1"])
    yte = np.array(["0", "1"])[y[n_train:]]
    areas = []
    for structure in ("average", "full"):
        m = ModelAveragedNaiveBayes(structure=structure, min_categories=2).fit(X[:n_train], ytr)
        areas.append(roc_area(yte, m.predict_proba(X[n_train:]), m.classes_)
                     if len(set(yte)) > 1 else np.nan)
    return areas


def test_random_network_trials_match_direct_computation():
    df = random_network_trials([4, 30], 60, [2, 40], n_test=40, n_trials=5, test="t",
                               random_state=7)
    assert len(df) == 2 * 2 * 5
    assert list(df.columns[:7]) == ["test", "n_features", "max_parents", "n_train", "n_test",
                                    "trial", "class_node"]
    for _, r in df.iloc[::3].iterrows():
        seed = chapter._trial_seed(7, "t", (r.n_features, r.max_parents, r.n_train,
                                              r.n_test), r.trial)
        ma, mp = _direct_trial(seed, r.n_features, r.max_parents, r.n_train, r.n_test)
        np.testing.assert_allclose([r.roc_ma, r.roc_map], [ma, mp], atol=1e-12)
    ok = df["roc_map"].notna()
    np.testing.assert_allclose(df.loc[ok, "delta_roc"],
                               100 * delta_roc(df.loc[ok, "roc_ma"], df.loc[ok, "roc_map"]))
    np.testing.assert_allclose(
        df.loc[ok, "delta_roc_remaining"],
        100 * delta_roc_remaining(df.loc[ok, "roc_ma"], df.loc[ok, "roc_map"]))
    assert set(df.attrs["seconds"]) == {"generate", "engine", "cpu"}


def test_trials_do_not_depend_on_batching_jobs_or_cache(tmp_path):
    kw = dict(n_test=30, n_trials=6, test="b", random_state=3)
    a = random_network_trials(8, 40, 3, **kw)
    b = random_network_trials(8, 40, 3, max_batch_cells=1, **kw)
    c = random_network_trials(8, 40, 3, cache_dir=tmp_path, **kw)
    d = random_network_trials(8, 40, 3, cache_dir=tmp_path, **kw)  # read from the cache
    jobs = chapter.run({"b": dict(n_features=8, n_train=40, max_parents=3, n_test=30,
                                  n_trials=6, max_batch_cells=1)}, check_n_features=None,
                       random_state=3, n_jobs=2)["trials"]["b"]
    pd.testing.assert_frame_equal(a, jobs)
    for other in (b, c, d):
        pd.testing.assert_frame_equal(a, other)
    e = random_network_trials(8, 40, 3, **{**kw, "random_state": 4})
    assert not np.allclose(a["roc_ma"], e["roc_ma"], equal_nan=True)
    # another setting in the same call leaves these trials unchanged
    f = random_network_trials(8, [40, 80], 3, **kw)
    pd.testing.assert_frame_equal(a, f[f["n_train"] == 40].reset_index(drop=True))


def test_network_trials_on_alarm():
    net = load_network("alarm")
    df = network_trials(net, ["HYPOVOLEMIA", "LVFAILURE"], [50], n_test=200, n_trials=3,
                        random_state=5)
    assert len(df) == 6 and set(df["class_node"]) == {"HYPOVOLEMIA", "LVFAILURE"}
    assert (df["n_features"] == 36).all() and (df["max_parents"] == 4).all()
    r = df.iloc[0]
    k = net.index(r.class_node)
    seed = chapter._trial_seed(5, "alarm", (k, 50, 200), r.trial)
    x = sample(net, 250, np.random.default_rng(seed), as_frame=False)
    X, y = np.delete(x, k, axis=1), x[:, k]
    states = list(net.states(k))
    want = []
    for structure in ("average", "full"):
        m = ModelAveragedNaiveBayes(structure=structure,
                                    min_categories=np.delete(net.n_states, k)).fit(
            X[:50], pd.Categorical.from_codes(y[:50], categories=states))
        want.append(roc_area(np.array(states)[y[50:]], m.predict_proba(X[50:]), m.classes_))
    np.testing.assert_allclose([r.roc_ma, r.roc_map], want, atol=1e-12)
    with pytest.raises(ValueError, match="unknown node"):
        network_trials(net, ["NOPE"], [50], n_trials=1)


@pytest.mark.parametrize("kwargs, msg", [
    (dict(n_features=[], n_train=10, max_parents=2), "empty"),
    (dict(n_features=0, n_train=10, max_parents=2), ">= 1"),
    (dict(n_features=3, n_train=[10.5], max_parents=2), "integer"),
])
def test_trial_arguments_are_checked(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        random_network_trials(**kwargs, n_trials=1)


# --------------------------------------------------------------------------------------
# Summaries and the comparison with the paper
# --------------------------------------------------------------------------------------


def _fake_trials(test, col, values, n=40, shift=0.0, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for v in values:
        d = rng.normal(2.0 + shift * v, 4.0, n)
        rows.append(pd.DataFrame({
            "test": test, "n_features": 200, "max_parents": 5, "n_train": 200,
            "n_test": 100, "trial": np.arange(n), "class_node": "X1",
            "roc_ma": 0.7, "roc_map": 0.7, "delta_roc": d, "delta_roc_remaining": 2 * d,
        }).assign(**{col: v}))
    return pd.concat(rows, ignore_index=True)


def test_summarise_trials_intervals():
    df = _fake_trials("nodes", "n_features", [5, 50])
    df.loc[3, ["delta_roc", "delta_roc_remaining"]] = np.nan  # an undefined trial
    s = summarise_trials(df, "n_features").set_index("n_features")
    v = df.loc[df["n_features"] == 5, "delta_roc"].dropna()
    lo, hi = stats.t.interval(0.99, len(v) - 1, loc=v.mean(), scale=stats.sem(v))
    assert s.loc[5, "n_trials"] == 40 and s.loc[5, "n_used"] == 39
    assert s.loc[5, "delta_roc_ci_low"] == pytest.approx(lo)
    assert s.loc[5, "delta_roc_ci_high"] == pytest.approx(hi)
    assert s.loc[5, "delta_roc_se"] == pytest.approx(stats.sem(v))
    assert s.loc[5, "delta_roc_p"] == pytest.approx(stats.ttest_1samp(v, 0).pvalue)
    shown = chapter._means(s.reset_index(), "n_features")
    assert list(shown.columns[:4]) == ["N", "trials used", "ROC MAP", "ROC MA"]


def test_paper_comparison_and_settings():
    res = {
        "nodes": _fake_trials("nodes", "n_features", [5, 10, 20, 40, 80, 100, 150, 200, 500]),
        "records": _fake_trials("records", "n_train", [25, 200, 800, 12800], shift=0.0),
        "density": _fake_trials("density", "max_parents", [1, 5, 9, 100, 200]),
    }
    res["density"].loc[res["density"]["max_parents"] >= 100, "delta_roc"] -= 1.0
    check = chapter.run({}, check_n_features=6, random_state=1)["check"]
    t = _tables(res, check)
    cmp = t["paper_comparison"].set_index("id")
    assert cmp.loc[8, "agrees"] == "yes"
    pooled = res["nodes"].query("n_features > 150")["delta_roc"]
    assert float(cmp.loc[13, "ours"]) == pytest.approx(pooled.mean(), abs=0.006)
    lo, hi = stats.t.interval(0.99, len(pooled) - 1, loc=pooled.mean(), scale=stats.sem(pooled))
    rule = lo <= 5 <= hi or abs(pooled.mean() - 5) <= 1  # the documented rule
    assert cmp.loc[13, "agrees"] == ("yes" if rule else "no")
    lo = res["density"].query("max_parents < 10")["delta_roc"].mean()
    hi = res["density"].query("max_parents >= 100")["delta_roc"].mean()
    assert float(cmp.loc[40, "ours"]) == pytest.approx(lo / hi, abs=0.006)
    assert 42 not in cmp.index and 46 not in cmp.index  # tests not run: no rows
    numbers = chapter.numbers(t)
    assert numbers["ours_13"] == str(cmp.loc[13, "ours"]) and "check_difference" in numbers
    assert numbers["n_trials_total"] == f"{sum(len(v) for v in res.values()):,}"
    five = res["nodes"].query("n_features == 5")["delta_roc"]  # N = 5 run; no worst-case test
    assert numbers["n5_gain"] == f"{five.mean():.2f} ± {stats.sem(five):.2f}"
    assert numbers["wc200_gain"] == "not run"
    st = t["settings"].set_index("test")
    assert st.loc["nodes", "N (ours)"] == "5, 10, 20, 40, 80, 100, 150, 200, 500"
    assert st.loc["nodes", "N (paper)"] == st.loc["nodes", "N (ours)"]
    assert st.loc["alarm", "N (ours)"] == "–"
    assert "trials_other" not in _tables({**res, "other": res["nodes"]})  # not the paper's
    shared = t["shared_setting"].set_index("test")
    assert list(shared.index) == ["nodes", "records", "density"]
    one = res["records"].query("n_train == 200")["delta_roc"]
    assert shared.loc["records", "Δ_ROC % mean"] == pytest.approx(one.mean(), abs=0.006)
    assert shared.loc["records", "trials used"] == len(one)


def test_enumeration_check_is_exact():
    out = chapter._enumeration_check(7, random_state=3)
    assert out["n_structures"] == 128 and out["max_abs_difference"] < 1e-12
    assert out["same_class"] == 1.0
    with pytest.raises(ValueError, match="n_features"):
        chapter.run({}, check_n_features=20)


def _texts(fig):
    from matplotlib.text import Text
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def _panels(fig):
    return [a for a in fig.axes if a.axison]


def test_figures(tmp_path):
    from credal.chapters._display import TEXT_WIDTH

    nodes = summarise_trials(_fake_trials("nodes", "n_features", [5, 50, 500]), "n_features")
    rec = summarise_trials(_fake_trials("records", "n_train", [25, 12800]), "n_train")
    dens = summarise_trials(_fake_trials("density", "max_parents", list(range(1, 12)) + [200]),
                            "max_parents")
    fig = chapter.random_networks_figure(nodes, rec, dens)
    panels = _panels(fig)
    assert [a.get_title() for a in panels] == ["(a) nodes test", "(b) training-records test",
                                               "(c) density test"]
    assert all(a.get_xlabel() for a in panels)
    # legible at text width: no wider than the column, two panels per row, text >= 9 pt
    assert fig.get_figwidth() <= TEXT_WIDTH + 1e-9
    rows = {}
    for a in panels:
        rows.setdefault(round(a.get_position().y0, 3), []).append(a)
    assert max(len(r) for r in rows.values()) <= 2
    assert all(r[0].get_ylabel() for r in rows.values())  # the left panel of each row
    assert min(t.get_fontsize() for t in _texts(fig)) >= 9
    fig.savefig(tmp_path / "fig2.svg")
    two = _fake_trials("alarm", "n_train", [25, 200])
    two = pd.concat([two, two.assign(class_node="X2")], ignore_index=True)
    s = summarise_trials(two, ["class_node", "n_train"])
    fig = chapter.delta_roc_figure(s, "n_train", panel="class_node", titles={"X1": "one"})
    assert [a.get_title() for a in _panels(fig)] == ["one", "X2"]
    assert fig.get_figwidth() <= TEXT_WIDTH + 1e-9
    assert min(t.get_fontsize() for t in _texts(fig)) >= 9
    fig.savefig(tmp_path / "fig4.svg")
    three = pd.concat([two, two.assign(class_node="X3")], ignore_index=True)
    fig = chapter.delta_roc_figure(summarise_trials(three, ["class_node", "n_train"]),
                                   "n_train", panel="class_node")
    panels = _panels(fig)
    assert len(panels) == 3 and len({round(a.get_position().y0, 3) for a in panels}) == 2
    with pytest.raises(ValueError, match="lacks columns"):
        chapter.delta_roc_figure(s.drop(columns="delta_roc_sd"), "n_train")


def test_paper_bands_are_the_statements():
    from credal import datasets

    pub = datasets.published("dash_cooper_statements").set_index("id")["value"].astype(float)
    b = chapter._paper_bands("nodes").set_index(["measure", "kind"])
    assert b.loc[("delta_roc", "mean"), ["low", "high"]].tolist() == [pub[13], pub[13]]
    assert b.loc[("delta_roc_remaining", "spread"), ["low", "high"]].tolist() \
        == [pub[18], pub[19]]
    assert b.loc[("delta_roc", "mean"), "x_low"] == 150 and np.isinf(
        b.loc[("delta_roc", "mean"), "x_high"])
    r = chapter._paper_bands("records").set_index(["measure", "kind"])
    assert r.loc[("delta_roc", "mean"), ["x_low", "x_high"]].tolist() == [pub[23], pub[24]]
    d = chapter._paper_bands("density").set_index(["measure", "kind"])
    assert d.loc[("delta_roc", "mean"), ["low", "high"]].tolist() == [pub[32], pub[33]]
    assert (d["x_high"] == pub[30]).all() and np.isinf(d["x_low"]).all()


def _band_lines(ax, y):
    return [ln for ln in ax.get_lines()
            if len(ln.get_ydata()) == 2 and np.allclose(ln.get_ydata(), y)]


def test_bands_drawn_over_the_stated_settings_only():
    nodes = summarise_trials(_fake_trials("nodes", "n_features", [5, 50, 500]), "n_features")
    rec = summarise_trials(_fake_trials("records", "n_train", [25, 100]), "n_train")
    dens = summarise_trials(_fake_trials("density", "max_parents", [2, 100]), "max_parents")
    fig = chapter.random_networks_figure(nodes, rec, dens)
    a, b, c = _panels(fig)
    mean5 = _band_lines(a, [5, 5])  # "about 5% for N > 150", up to the right edge
    assert len(mean5) == 1 and mean5[0].get_xdata()[0] == 150
    assert mean5[0].get_xdata()[1] == pytest.approx(a.get_xlim()[1])
    assert len(_band_lines(a, [11, 11])) == 1 and len(_band_lines(a, [20, 20])) == 1
    # the records panel stops at 100 records: the maximum "between 200 and 800" is not drawn,
    # the regions stated for all N_r are
    assert not _band_lines(b, [5, 5]) and len(_band_lines(b, [-4, -4])) == 1
    import matplotlib.pyplot as plt

    bare_a, bare_c = plt.subplots(1, 2)[1]  # the panels without the paper's values
    chapter._panel(bare_a, nodes, "n_features")
    chapter._panel(bare_c, dens, "max_parents")
    assert len(c.collections) > len(bare_c.collections)  # the shaded means of N_k < 10
    assert not _band_lines(bare_a, [5, 5]) and not _band_lines(bare_a, [11, 11])


def test_tables_the_chapter_shows():
    from credal.chapters import _display

    res = {"nodes": _fake_trials("nodes", "n_features", [5, 200]),
           "records": _fake_trials("records", "n_train", [25, 200]),
           "density": _fake_trials("density", "max_parents", [2, 5])}
    check = {"n_features": 6, "max_abs_difference": 2e-15, "n_structures": 64, "n_test": 10,
             "same_class": 1.0}
    t = _tables({**res, "columns": res["nodes"], "columns-records": res["records"],
                 "columns-density": res["density"]}, check)
    m = t["means_nodes"]
    assert list(m.columns[:4]) == ["N", "trials used", "ROC MAP", "ROC MA"]
    s = t["summary_nodes"].set_index("n_features")
    assert m.set_index("N").loc[5, "Δ_ROC % SE"] == round(s.loc[5, "delta_roc_se"], 2)
    assert t["enumeration_check"].loc[0, "largest difference of a class probability"] \
        == "2.0e-15"
    assert list(t["paper_comparison"].columns) == ["id", "test", "quantity", "paper", "ours",
                                                    "how ours is computed", "agrees"]
    assert list(t["shared_setting"]["test"]) == ["nodes", "records", "density"]
    h = chapter.HEADLINE.judge(t)
    shown = _display.format_table(h[["quantity", "published", "ours", "tolerance"]],
                                  formats={c: ".3g" for c in ("published", "ours", "tolerance")})
    assert shown["ours"].iloc[0] == "2e\u221215" and shown["tolerance"].iloc[0] == "1e\u221209"
    cc = t["columns_comparison"]  # the same trials under both labels: the same verdicts
    assert cc.index.name == "quantity" and cc.shape[1] == 7
    assert (cc["verdict (simplex)"] == cc["verdict (normalised uniforms)"]).all()
    assert all(cc.index.str.startswith(f"{k} test").any()
               for k in ("nodes", "training-records", "density"))
    assert cc.index.str.contains("significant").any()  # counts and claims kept: same trials
    assert set(t["columns_trials"]["test"]) == {"nodes", "records", "density"}
    n = chapter.numbers(t)
    assert n["cols_rows"] == str(len(cc)) and n["columns_n"] == "5, 200"
    rows = chapter.HEADLINE.judge(t).set_index("quantity")  # the generator's cause, declared
    caused = rows[rows["cause"].str.startswith("protocol or data")].index
    assert len(caused) and caused.isin(cc.index).all() and (rows.loc[caused, "verdict"]
                                                            == "differs").all()
    dc = t["delta_comparison"]  # delta_ROC over the mean area: its rows and its cause
    assert list(dc.columns) == ["published"] + [f"{c} ({k})" for k in (
        "per trial", "over the mean area") for c in ("ours", "tolerance", "verdict")]
    assert dc.index.isin(rows.index).all() and n["da_rows"] == str(len(dc))
    mean_area = rows.index[rows["cause"] == chapter._MEAN_AREA]
    assert mean_area.isin(dc.index).all()
    assert (dc["ours (per trial)"] == rows.loc[dc.index, "ours"]).all()  # the main run


def test_delta_over_the_mean_area():
    """Each trial's gain over the remaining area of its setting's mean MAP area: the mean over
    a setting is delta_ROC of the mean areas; undefined trials stay out and stay NaN."""
    rng = np.random.default_rng(3)
    t = pd.DataFrame({"n_features": np.repeat([5, 50], 30),
                      "roc_map": rng.uniform(0.5, 0.95, 60)})
    t["roc_ma"] = np.clip(t["roc_map"] + rng.normal(0.02, 0.03, 60), 0, 1)
    t["delta_roc_remaining"] = 100 * (t["roc_ma"] - t["roc_map"]) / (1 - t["roc_map"])
    t.loc[4, "delta_roc_remaining"] = np.nan  # an undefined trial
    out = chapter._mean_area_trials(t, "n_features")
    for _, g in t.groupby("n_features"):
        used = g[g["delta_roc_remaining"].notna()]
        want = 100 * (used["roc_ma"].mean() - used["roc_map"].mean()) / (1 - used["roc_map"].mean())
        assert out.loc[used.index, "delta_roc_remaining"].mean() == pytest.approx(want)
    assert np.isnan(out.loc[4, "delta_roc_remaining"])
    pd.testing.assert_frame_equal(out.drop(columns="delta_roc_remaining"),
                                  t.drop(columns="delta_roc_remaining"))


def test_claim_box_cites_the_paper():
    from credal.chapters import _display

    res = {"nodes": _fake_trials("nodes", "n_features", [5, 200])}
    check = {"n_features": 10, "max_abs_difference": 2e-15, "n_structures": 1024, "n_test": 10,
             "same_class": 1.0}
    t = _tables(res, check)
    h = chapter.HEADLINE.judge(t)
    n = chapter.numbers(t)
    assert n["check_structures"] == "1,024" and n["check_difference"] == "2.0e-15"
    html = _display.claim_box("exact-model-averaging", h, cite="dash2002exact",
                              profile="smoke").data
    assert "Dash" in html and "Cooper" in html and "2002" in html
    assert "Exact model averaging" in html and "ICML 2002" in html
    assert "make notebook NB=exact-model-averaging PROFILE=smoke" in html


def test_headline_layout_and_verdicts():
    from credal.chapters._verdicts import HEADLINE_COLUMNS

    res = {
        "nodes": _fake_trials("nodes", "n_features", [5, 100, 200]),
        "records": _fake_trials("records", "n_train", [25, 200, 800]),
        "density": _fake_trials("density", "max_parents", [1, 5, 100]),
        "worst-case": _fake_trials("worst-case", "n_train", [25, 200]),
    }
    check = {"n_features": 6, "max_abs_difference": 1e-15, "n_structures": 64, "n_test": 10,
             "same_class": 1.0}
    chapter.HEADLINE.check()
    h = chapter.HEADLINE.judge(_tables(res, check))
    assert list(h.columns) == HEADLINE_COLUMNS + ["verdict"]
    assert (h["paper"] == "Dash & Cooper (2002)").all()
    assert (h["chapter"] == "exact-model-averaging").all()
    assert np.isfinite(h["published"]).all() and (h["tolerance"] >= 0).all()
    assert set(h["verdict"]) <= {"reproduced", "differs", "not comparable"}
    assert h["quantity"].is_unique and len(h) >= 20
    row = h[h["quantity"].str.contains("Delta_ROC converged")].iloc[0]
    pooled = res["nodes"].query("n_features > 150")["delta_roc"]
    assert row["ours"] == pytest.approx(pooled.mean())
    # the report's rule: 3 x our SE combined with the paper's (500 trials per setting,
    # one setting above 150 here), + 0.5 printed digit ("about 5"); no figure-reading term
    sd, n = pooled.std(ddof=1), len(pooled)
    assert row["tolerance"] == pytest.approx(3 * sd * np.sqrt(1 / n + 1 / 500) + 0.5)
    assert "the paper's 500" in row["note"] and "(est.)" in row["note"]
    ok = abs(row["ours"] - row["published"]) <= row["tolerance"]
    assert row["verdict"] == ("reproduced" if ok else "differs")
    # a ±1σ end: SE of mean ± sd for our n and the paper's
    band = h[h["quantity"].str.contains("Delta_ROC region upper end")].iloc[0]
    wide = res["nodes"].query("n_features >= 100")["delta_roc"]
    sd, n, m = wide.std(ddof=1), len(wide), 500 * 2

    def se(k):
        return sd * np.sqrt(1 / k + 1 / (2 * (k - 1)))

    assert band["ours"] == pytest.approx(wide.mean() + sd)
    assert band["tolerance"] == pytest.approx(3 * np.hypot(se(n), se(m)) + 0.5)
    # the worst case's count of MAP wins, compared as a count (issue 24): on 2 settings
    # every count passes Fisher's exact test, so the row has no power
    cnt = h[h["quantity"].str.contains("MAP beats MA")].iloc[0]
    assert "count test (Fisher's exact)" in cnt["note"]
    assert cnt["verdict"] == "not comparable" and "no power" in cnt["note"]
    assert h.iloc[0]["verdict"] == "reproduced"  # closed form exact
    assert not h["quantity"].str.startswith("ALARM").any()  # test not run: no row
    assert not h["note"].str.contains("divides by").any()


def test_headline_obeys_the_rule():
    """No extra term (the paper's figures are not available to measure one); the claims in
    words are yes/no rows with bounds (0, 1) and no rounding; shares have bounds (0, 100)."""
    chapter.HEADLINE.check()
    rows = {h.quantity: h for h in chapter.HEADLINE.rows}
    assert not any(h.extra for h in rows.values())
    claims = [h for h in rows.values() if h.unit == "yes/no"]
    assert len(claims) == 3 and all(h.bounds == (0, 1) and h.rounding == 0 for h in claims)
    assert all(h.bounds == (0, 100) for q, h in rows.items() if "share of trials" in q)
    res = {"nodes": _fake_trials("nodes", "n_features", [5, 200]),
           "density": _fake_trials("density", "max_parents", [2, 20, 100])}
    h = chapter.HEADLINE.judge(_tables(res)).set_index("quantity")
    s = summarise_trials(res["nodes"], "n_features")
    at95 = np.logical_and.reduce([(s[f"{q}_p"] < 0.05) & (s[f"{q}_mean"] > 0)
                                  for q in ("delta_roc", "delta_roc_remaining")])
    # the paper's "all but one at 99%, that one at 95%" is every N at 95%: a count of settings
    row = h.loc["nodes test: settings N with both gains significant at 95%"]
    assert (row["ours"], row["published"]) == (float(at95.sum()), float(len(s)))
    assert "count test" in row["note"]
    dense = summarise_trials(res["density"], "max_parents").query("max_parents >= 20")
    row = h.loc["density test: some dense points (N_k >= 20) not significant (1 = yes)"]
    assert row["ours"] == float((dense["delta_roc_ci_low"] <= 0).any())
    assert row["verdict"] == ("reproduced" if row["ours"] == 1 else "differs")
    assert not h.index.str.startswith(("ALARM", "HEPAR")).any()  # not run: no rows


def test_chance_count_and_paper_trials():
    mu, sd = chapter._chance_count(8)
    assert mu == pytest.approx(0.2) and sd == pytest.approx(np.sqrt(8 * 0.025 * 0.975))
    # the binomial it stands for, by simulation
    draws = np.random.default_rng(0).binomial(8, 0.025, 200_000)
    assert draws.mean() == pytest.approx(mu, abs=0.01)
    assert draws.std() == pytest.approx(sd, abs=0.01)
    assert [chapter._paper_trials(t) for t in ("nodes", "records", "worst-case", "alarm")] \
        == [500, 200, 1000, 100]
    with pytest.raises(KeyError):
        chapter._paper_trials("nope")


def test_alarm_count_row_judged_against_chance():
    """Two MAP wins where chance gives 0.2 of them: the row states the chance count and
    compares ours with the paper's as counts (Fisher's exact test on as many points)."""
    trials = _fake_trials("alarm", "n_train", [25, 50])
    trials["class_node"] = "ANAPHYLAXIS"
    h = chapter.HEADLINE.judge(_tables({"alarm": trials}))
    row = h[h["quantity"].str.startswith("ALARM: points where MAP")].iloc[0]
    assert row["published"] == 2 and row["unit"] == "count"
    assert "count test (Fisher's exact)" in row["note"]
    assert "chance alone" in row["note"] and "P(>= 2 by chance)" in row["note"]


def test_cpt_columns_normalised_uniforms():
    """The sensitivity run's columns: same structures and uniforms, other CPT columns."""
    seeds = [np.random.SeedSequence(5, spawn_key=(t,)) for t in range(3)]
    a, ca = sample_random_trials(8, 3, 400, seeds)
    b, cb = sample_random_trials(8, 3, 400, seeds, columns="normalised-uniforms")
    np.testing.assert_array_equal(ca, cb)
    assert not np.array_equal(a, b)
    # a root node's column is u / sum(u) of the key's uniforms: its state-0 chance is
    # more central than a Dirichlet(1) draw; check the formula on raw keys
    from credal._compiled_networks import column_chance
    from credal.networks import GOLDEN_GAMMA, splitmix64

    h = np.arange(1000, dtype=np.uint64)[None, :] * np.uint64(7919)
    keys = np.arange(1, 3, dtype=np.uint64) * np.uint64(GOLDEN_GAMMA)
    z = splitmix64(h[:, :, None] + keys[None, None, :])
    u = ((z >> np.uint64(11)).astype(np.float64) + 0.5) / 9007199254740992.0
    p = column_chance(z[..., 0], z[..., 1], "normalised-uniforms")
    np.testing.assert_allclose(p, u[..., 0] / u.sum(-1))
    q = column_chance(z[..., 0], z[..., 1])
    np.testing.assert_allclose(q, np.log(u[..., 0]) / np.log(u).sum(-1))
    assert np.var(p) < np.var(q)  # normalised uniforms are more central than the simplex's
    with pytest.raises(ValueError, match="columns"):
        column_chance(z[..., 0], z[..., 1], "beta")


# ----------------------------------------------- batch sampling of Procedure 2's trials


@pytest.mark.parametrize("n_nodes, k, n", [
    (6, 5, 40),      # every node: few parent configurations (one column per configuration)
    (60, 8, 30),     # 2**8 > 30 records: columns computed per record
    (1, 0, 5),       # a single node
    (120, 60, 20),   # wide parent sets padded to different widths across trials
    (50, 49, 12),    # most earlier nodes are parents: keys from all earlier nodes
    (12, 11, 3000),  # many records: configuration indices of up to 2**11 columns
])
def test_sample_random_trials_equals_one_trial_at_a_time(n_nodes, k, n):
    seeds = [np.random.SeedSequence(11, spawn_key=(t,)) for t in range(4)]
    codes, cls = sample_random_trials(n_nodes, k, n, seeds)
    assert codes.shape == (4, n, n_nodes) and codes.dtype == np.int8
    for t, s in enumerate(seeds):
        rng = np.random.default_rng(s)
        net = random_network(n_nodes, k, rng)
        assert net.nodes[cls[t]] == choose_class_node(net, rng)
        np.testing.assert_array_equal(codes[t], sample(net, n, rng, as_frame=False))


def test_sample_random_trials_edge_cases():
    codes, cls = sample_random_trials(5, 2, 10, [])
    assert codes.shape == (0, 10, 5) and cls.shape == (0,)
    with pytest.raises(ValueError, match="n must be >= 1"):
        sample_random_trials(5, 2, 0, [1])
