"""The performance chapter's code (credal.chapters.performance) and what it cites.

* the comparison with Weka (split, ARFF files, the JVM timer; the chapter's path without
  Java or Weka, by pointing the jar elsewhere);
* the measurements (throughput against the solver baselines, fit scaling, memory),
  the chapters' timings and the goals table, the figures;
* ``benchmarks/run_all.py``;
* running the engine on a Dask cluster through joblib gives the n_jobs=1 tables.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from credal.chapters import performance as perf
from credal.chapters import leaderboard
from credal.experiments import cross_validate

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------ peers

def test_peer_split_repeats_and_stratifies():
    Xtr, ytr, Xte, yte = perf._peer_split("monks1", random_state=1)
    assert len(Xtr) + len(Xte) == 556 and abs(len(Xte) - 556 / 3) <= 1
    # stratified: the class shares of both parts differ by less than one row's share
    share = ytr.value_counts(normalize=True) - yte.value_counts(normalize=True)
    assert share.abs().max() < 1 / len(Xte) + 1e-12
    X2, y2, T2, t2 = perf._peer_split("monks1 x3", random_state=1)
    assert len(X2) == 3 * len(Xtr) and len(T2) == 3 * len(Xte)
    pd.testing.assert_frame_equal(X2.iloc[len(Xtr):2 * len(Xtr)].reset_index(drop=True), Xtr)
    pd.testing.assert_series_equal(t2.iloc[-len(yte):].reset_index(drop=True), yte)
    # numeric columns are MDL-discretised on the training part: categoricals only
    Xi, _, Ti, _ = perf._peer_split("iris")
    assert all(isinstance(d, pd.CategoricalDtype) for d in Xi.dtypes)
    assert list(Xi.columns) == list(Ti.columns)
    with pytest.raises(ValueError, match="x<k>"):
        perf._peer_split("monks1 xten")


def test_write_arff_round_trip(tmp_path):
    from credal._readers import read_arff

    X = pd.DataFrame({"a b": pd.Categorical(["it's", "(-inf-2.5]", "back\\slash", None],
                                            categories=["it's", "(-inf-2.5]", "back\\slash",
                                                        "unused"]),
                      "c": pd.Categorical(["x", "y", "x", "y"])})
    y = pd.Series(pd.Categorical(["p", "q", "q", "p"]))
    path = perf._write_arff(X, y, tmp_path / "t.arff", relation="a b")
    got, rel = read_arff(path)
    assert rel == "a b" and list(got.columns) == ["a b", "c", "class"]
    assert list(got["a b"].cat.categories) == list(X["a b"].cat.categories)
    pd.testing.assert_series_equal(got["a b"], X["a b"], check_names=False)
    assert got["a b"].isna().tolist() == [False, False, False, True]
    assert list(got["class"]) == list(y)
    with pytest.raises(TypeError, match="not categorical"):
        perf._write_arff(X.assign(c=1.0), y, tmp_path / "u.arff")


def _check_peer_tables(peers):
    tab = perf._peer_table(peers)
    assert tab.shape == (len(perf._PEERS), peers["dataset"].nunique())
    assert np.isfinite(tab.to_numpy()).all()
    det = perf._peer_details(peers)
    assert "credal best (ms)" in det
    np.testing.assert_allclose(det["credal best (ms)"], 1e3 * peers["credal_best_s"])
    assert (peers["credal_best_s"] <= peers["credal_median_s"]).all()
    return tab, det


def test_peer_timings_against_weka(tmp_path):
    classpath, reason = perf._weka_classpath()
    if classpath is None:
        pytest.skip(reason)
    peers = perf._peer_timings(["monks1", "iris"], repeats=2, warmup=1, workdir=tmp_path)
    assert peers.attrs["weka_available"] and peers.attrs["weka"].startswith("Weka 3.6")
    assert list(peers["peer"])[:3] == ["Weka J48", "Weka NaiveBayes", "Weka AODE"]
    # same data and estimators: Weka's and credal's classes agree row by row
    assert (peers["agreement"] == 1).all()
    np.testing.assert_allclose(peers["weka_accuracy"], peers["credal_accuracy"])
    np.testing.assert_allclose(peers["ratio"], peers["weka_best_s"] / peers["credal_best_s"])
    assert (peers["weka_best_s"] <= peers["weka_median_s"]).all()
    assert (peers["weka_retained_mb"] <= peers["weka_allocated_mb"]).all()
    assert (peers["credal_peak_mb"] > 0).all()
    assert (peers["weka_peak_low_mb"] <= peers["weka_peak_high_mb"]).all()
    assert (peers["weka_peak_high_mb"] <= peers["weka_allocated_mb"] + 0.6).all()
    assert set(peers["memory_verdict"]) <= {"≤ Weka", "> Weka", "within the JVM's bounds"}
    assert set(peers["memory_bounds"]) <= {"first run"} | {
        f"{k} warm runs, collections forced" for k in range(1, 51)}
    tab, det = _check_peer_tables(peers)
    assert tab.index[0] == "C4.5 vs Weka J48" and "Weka time / credal time" in tab.attrs["values"]
    assert {"JVM model MB", "JVM peak MB (low)", "JVM peak MB (high)", "credal's peak"} <= set(det)
    words = perf._peer_numbers(peers)
    assert "one Java virtual machine" in words["peer_status"]
    assert "100.0 %" in words["peer_summary"]
    assert f"of {len(peers)} cases" in words["memory_summary"]
    tp = pd.DataFrame({"dataset": ["d"], "classifier": ["NCC"], "ratio": [2000.0]})
    g = perf._goals_table(tp, perf._chapter_timings("paper", root=tmp_path),
                         peers=peers)
    assert g["goal"].iloc[0].startswith("C4.5: at least 2× as fast as Weka J48 on every data set")
    assert set(g["met"].iloc[:3]) <= {"yes", "no"}
    # each data set's ratio shown (best, median); met only when every best ratio is >= 2
    c45 = peers[peers["classifier"] == "C4.5"]
    assert g["measured"].iloc[0].count("(") == len(c45)
    assert (g["met"].iloc[0] == "yes") == bool((c45["ratio"] >= 2).all())
    assert g["goal"].iloc[3] == "C4.5: peak memory at most Weka J48's"
    assert set(g["met"].iloc[3:6]) <= {"yes", "no", "undecided"}
    # the session reports Weka's errors and stays usable
    with perf.WekaSession(classpath) as session:
        train = str(tmp_path / "monks1-train.arff")
        with pytest.raises(RuntimeError, match="NoSuchClassifier"):
            session.run("weka.NoSuchClassifier", train, train)
        assert 0 <= session.run("weka.classifiers.bayes.NaiveBayes", train, train)["accuracy"] <= 1


def test_jvm_peak_bounds_find_an_array_of_known_size():
    # the memory session's bounds on the peak heap bracket a run that holds n MB while
    # 32 MB of garbage passes through a ring of 0.5 MB (promoted, then dead)
    classpath, reason = perf._weka_classpath()
    if classpath is None:
        pytest.skip(reason)
    with perf.WekaSession(classpath, jvm_options=perf._MEMORY_JVM) as session:
        for mb in (0.0, 0.5, 3.0, 20.0):
            m = session.memory("check", mb)
            peak = mb + 0.5
            assert abs(m["peak_low_mb"] - peak) <= 0.05, m
            assert peak <= m["peak_high_mb"] <= peak + 1.0, m
            assert abs(m["retained_mb"] - peak) <= 0.05, m


def test_jvm_sampled_peak_bounds_find_a_small_array():
    # the bounds of warm runs with collections forced bracket a run that holds n MB
    # while 4 MB of 1 KB arrays pass through a ring of 16 KB; the low one reads at most
    # SAMPLE_SLACK_MB above the truth (a lower bound of the verdict)
    classpath, reason = perf._weka_classpath()
    if classpath is None:
        pytest.skip(reason)
    with perf.WekaSession(classpath, jvm_options=perf._MEMORY_JVM) as session:
        for mb in (0.0, 0.01, 0.05, 0.2, 1.0):
            m = session.sample("check", mb, runs=20, seconds=5)
            peak = mb + 16 * (1024 + 16) / 2**20
            assert m["runs"] == 20 and m["samples"] >= 1, m   # fewer on a loaded machine
            assert peak - 0.01 <= m["peak_low_mb"] <= peak + perf._SAMPLE_SLACK_MB, m
            assert peak <= m["peak_high_mb"] <= peak + 1.5, m
        # after sampling, the notification bounds of "mem" work again
        m = session.memory("check", 0.5)
        assert abs(m["peak_low_mb"] - 1.0) <= 0.05, m
    with perf.WekaSession(classpath) as session:   # not the serial collector
        with pytest.raises(RuntimeError, match="serial collector"):
            session.sample("check", 0.0, runs=1)


def test_memory_summary_says_which_bounds_were_sampled():
    rows = [dict(dataset=d, classifier="naive Bayes", peer="Weka NaiveBayes", agreement=1.0,
                 ratio=2.0, credal_peak_mb=0.1, weka_peak_low_mb=0.2, weka_peak_high_mb=0.5,
                 memory_bounds=b, memory_verdict=v)
            for d, b, v in [("a", "first run", "≤ Weka"),
                            ("b", "50 warm runs, collections forced", "≤ Weka"),
                            ("c", "first run", "> Weka")]]
    peers = pd.DataFrame(rows)
    peers.attrs.update(weka="Weka 3.6.14", java="openjdk", weka_available=True, repeats=3,
                       warmup=1)
    words = perf._peer_numbers(peers)["memory_summary"]
    assert "at most Weka's in 2 of 3 cases" in words and "above it in 1" in words
    assert "the bounds of 1 from warm runs with collections forced" in words


def test_memory_verdict():
    assert perf._memory_verdict(0.4, 0.5, 0.9) == "≤ Weka"
    assert perf._memory_verdict(0.5, 0.5, 0.9) == "≤ Weka"
    assert perf._memory_verdict(0.7, 0.5, 0.9) == "within the JVM's bounds"
    assert perf._memory_verdict(0.9, 0.5, 0.9) == "within the JVM's bounds"
    assert perf._memory_verdict(1.0, 0.5, 0.9) == "> Weka"
    assert perf._memory_verdict(0.5, 0.5, 0.9, slack_mb=0.005) == "within the JVM's bounds"
    assert perf._memory_verdict(0.495, 0.5, 0.9, slack_mb=0.005) == "≤ Weka"


@pytest.mark.parametrize("missing", ["jar", "java"])
def test_peer_timings_without_weka(tmp_path, monkeypatch, missing):
    if missing == "jar":
        monkeypatch.setattr(perf, "_WEKA_JAR", tmp_path / "no-weka.jar")
        why = "Weka is not installed"
    else:
        real = perf.shutil.which
        monkeypatch.setattr(perf.shutil, "which", lambda c: None if c == "java" else real(c))
        why = "no Java runtime"
    classpath, reason = perf._weka_classpath()
    assert classpath is None and why in reason
    peers = perf._peer_timings(["monks1"], repeats=2, warmup=0, memory=False, workdir=tmp_path)
    assert not peers.attrs["weka_available"] and why in peers.attrs["weka"]
    assert not [c for c in peers.columns if "weka" in c or "ratio" in c or c == "agreement"]
    tab, det = _check_peer_tables(peers)
    assert "ms" in tab.attrs["values"] and list(tab.index) == list(perf._PEERS)
    assert not [c for c in det.columns if "Weka" in c or "JVM" in c]
    words = perf._peer_numbers(peers)
    assert why in words["peer_status"] and "no ratio" in words["peer_summary"]
    tp = pd.DataFrame({"dataset": ["d"], "classifier": ["NCC"], "ratio": [2000.0]})
    g = perf._goals_table(tp, perf._chapter_timings("paper", root=tmp_path),
                         peers=peers)
    assert list(g["met"].iloc[:3]) == ["not measured"] * 3


def test_peer_timings_checks_arguments():
    with pytest.raises(ValueError, match="repeats"):
        perf._peer_timings(["monks1"], repeats=0)


# ------------------------------------------ peers: the Weka IP plugin and JNCC2 (issue 27)

def _tools_or_skip():
    found = {t: perf._tool_classpath(t) for t in perf._TOOLS}
    if not any(cp for cp, _ in found.values()):
        pytest.skip("; ".join(why for _, why in found.values()))
    return found


def test_tool_timings_agree_with_credal(tmp_path):
    found = _tools_or_skip()
    tools = perf._tool_timings(["monks1"], repeats=2, warmup=1, workdir=tmp_path)
    ran = {perf._TOOLS[t][0] for t, (cp, _) in found.items() if cp}
    assert set(tools["tool"]) == ran == set(tools.attrs["available"])
    want = [(c, p[2]) for c, spec in perf._TOOL_PEERS.items() for p in spec[3]
            if perf._TOOLS[p[0]][0] in ran]
    assert list(zip(tools["classifier"], tools["peer"])) == want
    # the conformance tests' parameters: every set (or class) the same, row by row
    assert (tools["agreement"] == 1).all() and (tools["status"] == "same outputs").all()
    np.testing.assert_allclose(tools["ratio"], tools["peer_best_s"] / tools["credal_best_s"])
    np.testing.assert_allclose(tools["ratio_median"],
                               tools["peer_median_s"] / tools["credal_median_s"])
    assert (tools["peer_best_s"] <= tools["peer_median_s"]).all()
    tab = perf._tool_table(tools)
    assert tab.shape == (len(want), 1) and tab.index[0] == f"{want[0][0]} vs {want[0][1]}"
    assert tab.iloc[0, 0] == f"{tools['ratio'].iloc[0]:.2f} ({tools['ratio_median'].iloc[0]:.2f})"
    det = perf._tool_details(tools)
    np.testing.assert_allclose(det["peer best (ms)"], 1e3 * tools["peer_best_s"])
    words = perf._tool_numbers(tools)
    assert "Timed here" in words["tools_status"] and "Outputs agree in" in words["tools_summary"]
    assert words["tools_jncc2_ncc"].endswith("lowest on monks1") or "jncc2" not in found
    goals = perf._tool_goals(tools)
    assert len(goals) == sum(len(spec[3]) for spec in perf._TOOL_PEERS.values())
    assert all(g[2] in {"yes", "no", "not measured"} for g in goals)


def test_agreement_check_refuses_a_disagreeing_peer(tmp_path, monkeypatch):
    row = {"peer_best_s": 2.0, "credal_best_s": 1.0, "peer_median_s": 3.0, "credal_median_s": 1.0}
    ours = np.array([[1, 0], [1, 1], [0, 1]], bool)
    ok = perf._judge(dict(row), ours, ours.copy())
    assert ok["ratio"] == 2.0 and ok["ratio_median"] == 3.0 and ok["agreement"] == 1.0
    bad = perf._judge(dict(row), ours, ours[[0, 0, 2]])
    assert np.isnan(bad["ratio"]) and np.isnan(bad["ratio_median"])
    assert bad["status"] == "disagrees on 1 of 3 rows: time not counted"
    assert np.isnan(perf._judge(dict(row), ours, ours[:2])["ratio"])    # rows missing
    # end to end: a credal model with other sets than JNCC2's NCC is refused, and said so
    found = _tools_or_skip()
    if not found["jncc2"][0]:
        pytest.skip(found["jncc2"][1])
    monkeypatch.setattr(perf, "_TOOL_PEERS", {"NCC": (
        "NCC(s=4)", lambda: perf.credal.NCC(s=4.0), "set", (("jncc2", "NCC", "JNCC2 NCC"),))})
    tools = perf._tool_timings(["monks1"], repeats=1, warmup=0, workdir=tmp_path)
    assert tools["agreement"].iloc[0] < 1 and np.isnan(tools["ratio"].iloc[0])
    assert tools["status"].iloc[0].startswith("disagrees on")
    assert perf._tool_table(tools).iloc[0, 0] == "disagrees"
    assert perf._tool_goals(tools)[0][2] == "no (outputs differ)"
    assert "disagrees on" in perf._tool_numbers(tools)["tools_jncc2_ncc"]


def test_plugin_entropy_follows_the_plugin():
    # E_ContingencyTables.entropyImprecise with s = 1: the unit mass to the smallest counts
    assert perf._plugin_entropy([2, 1], 1.0) == pytest.approx(1.0)  # [2, 2]: one bit
    assert perf._plugin_entropy([2, 0], 1.0) == pytest.approx(np.log2(3) - 2 / 3)  # [2, 1]
    assert perf._plugin_entropy([0, 0], 1.0) == pytest.approx(1.0)  # [0.5, 0.5]
    # s = 2 but one smallest count: reps gives it 1 and stops (its remaining mass 1 - 1 = 0)
    assert perf._plugin_entropy([3, 3, 0], 2.0) == pytest.approx(np.log2(7) - 6 * np.log2(3) / 7)


def test_agreement_check_names_a_split_tie_of_the_plugin():
    """The credal tree against the IP plugin on adult (the chapter's split): credal splits a
    node of 3 rows on age, the plugin on marital-status, whose children's class counts are
    the same (an exact tie) but whose gain the plugin computes 1 ulp larger; the row's
    marital-status branch is empty, so the plugin keeps both classes."""
    data = perf._peer_split("adult")
    model = perf.credal.CredalDecisionTree(s=1.0, ties="drop").fit(data[0], data[1])
    ours = perf._as_sets(np.asarray(model.predict_set(data[2])), model, data[1].cat.categories)
    (row,) = np.flatnonzero(~ours.all(axis=1) & (data[2]["marital-status"].cat.codes == 4)
                            & (data[2]["relationship"].cat.codes == 3)
                            & (data[2]["capital-loss"].cat.codes == 11)
                            & (data[2]["age"].cat.codes == 7))
    theirs = ours.copy()
    theirs[row] = True
    times = {"peer_best_s": 2.0, "credal_best_s": 1.0, "peer_median_s": 3.0, "credal_median_s": 1.0}
    out = perf._judge(dict(times), ours, theirs,
                      lambda bad: perf._tree_ties(model, data, bad, theirs))
    assert out["ratio"] == 2.0 and out["agreement"] < 1
    assert out["status"].startswith(f"same outputs but 1 row: row {row} at depth 4: age and "
                                    "marital-status split 3 rows into the same class counts")
    # not a tie of the plugin: another set there, or another row differing, is refused
    for other in ([True, False], ~ours[0]):
        wrong = theirs.copy()
        wrong[row if len(other) == 2 and other[0] is True else 0] = other
        res = perf._judge(dict(times), ours, wrong,
                          lambda bad: perf._tree_ties(model, data, bad, wrong))
        assert np.isnan(res["ratio"]) and res["status"].startswith("disagrees on")


@pytest.mark.parametrize("missing", ["plugin", "jncc2", "java"])
def test_tool_timings_leave_a_missing_tool_out(tmp_path, monkeypatch, missing):
    if missing == "java":
        real = perf.shutil.which
        monkeypatch.setattr(perf.shutil, "which", lambda c: None if c == "java" else real(c))
    else:   # the peers' folder without the plugin's sources, or without JNCC2's jar
        peers = tmp_path / "peers"
        keep = perf._JNCC2_JAR if missing == "plugin" else perf._PLUGIN_SRC
        (peers / keep).parent.mkdir(parents=True)
        (peers / keep).symlink_to(perf._PEERS_DIR / keep)
        monkeypatch.setattr(perf, "_PEERS_DIR", peers)
    name = {"plugin": "Weka IP plugin", "jncc2": "JNCC2 1.11"}.get(missing)
    tools = perf._tool_timings(["monks1"], repeats=1, warmup=0, workdir=tmp_path)
    why = tools.attrs["tools"]
    if missing == "java":
        assert tools.empty and all("no Java runtime" in w for w in why.values())
        assert perf._tool_table(tools).empty
    else:
        gone = "the plugin's sources are missing" if missing == "plugin" else "jar is missing"
        assert gone in why[name] and name not in tools.attrs["available"]
        assert name not in set(tools["tool"])
        if len(tools):
            assert not perf._tool_table(tools).index.str.contains(
                "IP " if missing == "plugin" else "JNCC2").any()
    words = perf._tool_numbers(tools)
    assert "Not timed" in words["tools_status"] and "rows are left out" in words["tools_status"]
    key = "tools_ip_cma" if missing != "jncc2" else "tools_jncc2_nbc"
    assert words[key].startswith("not measured (")
    goals = perf._tool_goals(tools)
    assert [g[2] for g in goals if ("IP " if missing != "jncc2" else "JNCC2") in g[0]] == [
        "not measured"] * (5 if missing != "jncc2" else 2)


# ------------------------------------------------------------------------- measurements

def test_throughput_and_memory():
    tp = perf._throughput(["labor"], classifiers=["NCC", "CDT"], repeat=1, baseline_rows=5,
                         baseline_seconds=5.0)
    assert list(tp["classifier"]) == ["NCC", "CDT"]
    assert (tp["same_sets"] == tp["baseline_rows"]).all() and (tp["baseline_rows"] == 5).all()
    assert (tp["ratio"] > 0).all()
    np.testing.assert_allclose(tp["ratio"], tp["ours_per_s"] / tp["baseline_per_s"])
    mem = perf._peak_memory("labor", classifiers=["NCC"])
    assert list(mem.index) == ["NCC"] and (mem["fit peak MB"] > 0).all()
    assert (mem["model MB"] > 0).all()


def test_fit_scaling_and_slopes():
    sc = perf._fit_scaling("credit_g", classifiers=["NCC"], sizes=[200, 400, 800],
                          feature_counts=[4, 8], repeat=1)
    assert set(sc["axis"]) == {"n", "k"} and len(sc) == 5
    sl = perf._scaling_slopes(sc)
    assert np.isfinite(sl.loc["NCC", "slope n"]) and np.isfinite(sl.loc["NCC", "slope k"])
    assert np.isnan(sl.loc["NCC", "s.e. k"])      # two points: no standard error
    fake = pd.DataFrame({"classifier": "X", "axis": "n", "value": [10, 100, 1000],
                         "fit_s": [1e-3, 1e-1, 10.0]})
    assert perf._scaling_slopes(fake).loc["X", "slope n"] == pytest.approx(2.0)


def test_chapter_timings_and_goals(tmp_path):
    (tmp_path / "notebooks").mkdir()
    for n in ("a", "b", "performance"):
        (tmp_path / "notebooks" / f"{n}.md").write_text("")
    t = perf._chapter_timings("paper", root=tmp_path)
    assert t["seconds"].isna().all() and (t["status"] != "measured").all()
    (tmp_path / "results" / "_timings").mkdir(parents=True)
    (tmp_path / "results" / "_timings" / "paper.csv").write_text(
        "notebook,profile,seconds\na,paper,600\nb,paper,700\n")
    t = perf._chapter_timings("paper", root=tmp_path)
    assert t.loc["a", "seconds"] == 600 and np.isnan(t.loc["performance", "seconds"])
    tp = pd.DataFrame({"dataset": ["d", "e"], "classifier": ["NCC", "NCC"],
                       "ratio": [2000.0, 500.0]})
    g = perf._goals_table(tp, t, own_seconds=30.0, budgets={"a": 15, "b": 5})
    assert g.iloc[0]["met"] == "no" and "500" in g.iloc[0]["measured"]
    assert list(g["met"])[1:] == ["yes", "no", "no"]   # a, b, the whole book (> 10 min)
    t2 = t.copy()
    t2.loc["b", "seconds"], t2.loc["a", "seconds"] = np.nan, 100.0
    g2 = perf._goals_table(tp, t2, own_seconds=30.0)
    assert g2.iloc[-1]["met"] == "not measured" and "b" in g2.iloc[-1]["measured"]
    # this chapter's own time in this run replaces the recorded one (an earlier run)
    t3 = t.copy()
    t3.loc["performance", "seconds"] = 5000.0
    g3 = perf._goals_table(tp, t3.assign(seconds=t3["seconds"].where(t3.index != "b", 100.0)),
                          own_seconds=30.0)
    assert g3.iloc[-1]["met"] == "no" and g3.iloc[-1]["measured"].startswith("12.2 min (sum")
    # a run two chapters at a time: its wall time before this chapter plus this chapter's
    # time, not the sum of the chapters' times; CPU time gives the cores each one used
    (tmp_path / "results" / "_timings" / "paper.csv").write_text(
        "notebook,profile,seconds,cpu_seconds,jobs\na,paper,300,540,2\nb,paper,250,250,2\n"
        "(run before performance),paper,400,,2\n")
    t4 = perf._chapter_timings("paper", root=tmp_path)
    assert list(t4.index) == ["a", "b", "performance"] and t4.attrs["run_before"] == 400.0
    assert t4.loc["a", "cores"] == pytest.approx(1.8) and t4.loc["b", "cores"] == 1.0
    g4 = perf._goals_table(tp, t4, own_seconds=30.0)
    assert g4.iloc[-1]["measured"].startswith("7.2 min (wall time, up to 2 chapters")
    assert g4.iloc[-1]["met"] == "yes"


def test_run_tables_numbers(tmp_path, monkeypatch):
    """The chapter's interface on a tiny profile without Weka: every table the notebook
    shows, and every number its text quotes."""
    monkeypatch.setattr(perf, "_WEKA_JAR", tmp_path / "no-weka.jar")
    lineup = perf.classifiers(["NCC"])
    assert list(lineup) == ["C4.5", "naive Bayes", "AODE", "NCC"]
    res = perf.run(peer_datasets=["monks1"], peer_repeats=1, peer_warmup=0, peer_memory=False,
                   throughput_datasets=["labor"], classifiers=["NCC"], repeat=1,
                   baseline_rows=2, baseline_seconds=1.0, scaling_dataset="labor",
                   scaling_sizes=[20, 40], features_dataset="labor", feature_counts=[4, 8],
                   memory_dataset="labor", timings_profile="smoke")
    t = perf.tables(res, own_seconds=60.0, budgets={"performance": 5})
    assert {"peers", "peers_headline", "peers_details", "peer_tools", "peer_tools_headline",
            "peer_tools_details", "throughput", "fit_scaling", "fit_slopes", "peak_memory",
            "chapter_timings", "goals", "settings"} <= set(t)
    assert set(t["fit_scaling"]["axis"]) == {"n", "k"}
    assert "chapter performance at this profile ≤ 5 min" in set(t["goals"]["goal"])
    nums = perf.numbers(t)
    assert nums["elapsed"] == "1.0" and nums["baseline_rows"] == "2"
    text = (ROOT / "notebooks" / "performance.md").read_text()
    import re

    used = set(re.findall(r"\{glue:text\}`([^`]+)`", text))
    assert not used - set(nums), used - set(nums)
    only_peers = perf.tables(perf.run(peer_datasets=["monks1"], peer_repeats=1,
                                      peer_warmup=0, peer_memory=False, peer_tools=False))
    assert set(only_peers) == {"peers", "peers_headline", "peers_details", "settings"}


# ---------------------------------------------------------------------------- figures

def test_figures():
    import matplotlib.pyplot as plt

    figs = []
    tp = pd.DataFrame({"dataset": ["a", "a", "b"], "classifier": ["NCC", "CMA", "NCC"],
                       "ours_per_s": [1e5, 2e4, 3e5], "baseline_per_s": [10.0, 5.0, 30.0],
                       "ratio": [1e4, 4e3, 1e4]})
    figs.append(perf.performance_throughput(tp))
    scal = pd.DataFrame({"classifier": ["NCC"] * 3 + ["NCC"] * 2, "axis": ["n"] * 3 + ["k"] * 2,
                         "value": [10, 100, 1000, 4, 8], "fit_s": [1e-3, 1e-2, 1e-1, 1e-3, 2e-3]})
    figs.append(perf.performance_scaling(scal, perf._scaling_slopes(scal)))
    for fig in figs:
        assert isinstance(fig, matplotlib.figure.Figure)
        shown = [ax for ax in fig.axes if ax.get_visible()]
        # CD diagrams draw their own rank axis (axes off) and say so in the titles
        assert any(ax.get_xlabel() for ax in shown) or all(ax.get_title() for ax in shown)
        assert any(ax.get_ylabel() for ax in shown) or all(ax.get_title() for ax in shown)
        plt.close(fig)




# ---------------------------------------------------------------------- run_all.py

def _run_all():
    spec = importlib.util.spec_from_file_location("run_all", ROOT / "benchmarks" / "run_all.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py")))
def test_benchmark_scripts_import(script):
    # a script whose imports broke (a name moved between modules) fails here, not when
    # someone next runs it; importing runs nothing (main() is behind __name__)
    spec = importlib.util.spec_from_file_location(script[:-3], ROOT / "benchmarks" / script)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def test_run_all_collects_outputs(tmp_path):
    mod = _run_all()
    (tmp_path / "bench_ok.py").write_text("print('hello from ok')\n")
    (tmp_path / "bench_fail.py").write_text("import sys\nprint('partial')\nsys.exit(3)\n")
    (tmp_path / "bench_slow.py").write_text("import time\ntime.sleep(30)\n")
    (tmp_path / "other.py").write_text("print('not a benchmark')\n")
    scripts = mod.discover(tmp_path)
    assert [p.name for p in scripts] == ["bench_fail.py", "bench_ok.py", "bench_slow.py"]
    out = tmp_path / "out"
    rows = mod.run_all(scripts, out_dir=out, timeout=2.0, python=sys.executable)
    status = {r["script"]: r["status"] for r in rows}
    assert status == {"bench_fail.py": "exit 3", "bench_ok.py": "ok",
                      "bench_slow.py": "timeout after 2 s"}
    assert "hello from ok" in (out / "bench_ok.txt").read_text()
    assert "partial" in (out / "bench_fail.txt").read_text()
    assert (out / "summary.csv").is_file()


# ------------------------------------------------------------------------------ dask

def test_engine_on_a_local_dask_cluster():
    """The engine's folds run on a Dask cluster (worker processes, so every task is
    pickled) through joblib's dask backend and give exactly the n_jobs=1 tables
    (timings aside)."""
    distributed = pytest.importorskip("distributed")
    import joblib

    est = leaderboard.classifiers(["NCC", "CDT"])
    kw = dict(n_splits=3, n_repeats=2, random_state=0, progress=False)
    ref = cross_validate(est, ["iris", "labor"], n_jobs=1, **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream, \
                joblib.parallel_config(backend="dask"):
            got = cross_validate(est, ["iris", "labor"], n_jobs=-1, **kw)
        workers = set(client.scheduler_info()["workers"])
    assert len(workers) == 2
    # the folds really ran on the cluster's workers
    assert len(stream.data) > 0
    assert {t["worker"] for t in stream.data} <= workers
    drop = ["fit_time", "predict_time", "prep_time"]
    pd.testing.assert_frame_equal(ref.folds.drop(columns=drop), got.folds.drop(columns=drop))
    pd.testing.assert_frame_equal(ref.predictions, got.predictions)
