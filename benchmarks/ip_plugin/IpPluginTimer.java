/*
 * Times the Weka imprecise-probability plugin's classifiers warm, inside one JVM, for the
 * performance chapter and benchmarks/bench_peers.py (credal.chapters.performance drives it
 * with the line protocol of benchmarks/weka/WekaTimer.java).  It sits in the plugin's
 * package credalNB because Bma's constructor, train and classifyInstances are
 * package-private; it calls the plugin's classes, nothing else.
 *
 * The plugin's sources are not part of this project: they are compiled from
 * ../shared/peers/weka-ip-plugin/ (relative to the project root) together with this file,
 * against Debian's Weka 3.6 jar, by `make peers` or on first use by the Python side:
 *   javac -encoding ISO-8859-1 -cp /usr/share/java/weka.jar
 *         -sourcepath <plugin-src> -d build/ip-plugin benchmarks/ip_plugin/IpPluginTimer.java
 *
 * Models (s = 1 throughout, the plugin's default):
 *   NaiveCredal-eps0      credalNB.NaiveCredal with its private field epsilon set to 0 by
 *                         reflection before train (JNCC2's exact NCC test)
 *   NaiveCredal-eps0.01   credalNB.NaiveCredal as constructed (epsilon 0.01, "simple" model)
 *   Cma                   credalNB.Cma (inclusion probabilities in [0.1, 0.9])
 *   Bma                   credalNB.Bma (Dash & Cooper's exact model averaging; one class)
 *   CredalDecisionTree    weka.classifiers.credalClassifiers.CredalDecisionTree, defaults
 * A run is what the plugin's Weka wrappers (NaiveCredal, CredalAveraging) do: the training
 * Instances converted to the plugin's integer rows, the model trained, then every test
 * Instance converted and classified (Bma: all test rows at once, its only classifying
 * method); the tree: buildClassifier, then computeNonDominatedSet(frequencyForInstance(x))
 * for every test row.  Left out (the peer's best case): the wrappers' capability test and
 * copy of the data, and their per-row statistics bookkeeping.
 *
 * Line protocol on stdin/stdout (fields separated by tabs or blanks):
 *   run <model> <train.arff> <test.arff> <repeats> [<warmup> [<sets.txt>]]
 *       -> ok,<model>,<repeats>,<best_s>,<median_s>,<indeterminate>
 *       <warmup> untimed runs (default 1), then <repeats> timed ones.  <sets.txt>: the
 *       classes of each test row of the last run (0-based indices in the class attribute's
 *       declared order, blank-separated), one row per line.
 *   quit
 * Errors answer "error,<message>" and the session goes on.  The first line printed is
 * "ready,<Weka version>".
 */
package weka.classifiers.credalClassifiers.credalNB;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import weka.classifiers.credalClassifiers.CredalDecisionTree;
import weka.core.Instance;
import weka.core.Instances;

public class IpPluginTimer {
    private static final Map<String, Instances> DATA = new HashMap<>();

    private static Instances load(String path) throws Exception {
        Instances d = DATA.get(path);
        if (d == null) {
            try (BufferedReader r = new BufferedReader(new FileReader(path))) {
                d = new Instances(r);
            }
            d.setClassIndex(d.numAttributes() - 1);
            DATA.put(path, d);
        }
        return d;
    }

    /** One instance as the plugin's wrappers convert it (missing = -9999, class last). */
    private static int[] row(Instance x) {
        int[] v = new int[x.numAttributes()];
        for (int j = 0; j < v.length; j++) {
            v[j] = Double.isNaN(x.value(j)) ? -9999 : (int) x.value(j);
        }
        return v;
    }

    /** The training part as the wrappers' buildClassifier converts it. */
    private static final class Coded {
        final ArrayList<int[]> rows = new ArrayList<>();
        final ArrayList<String> features = new ArrayList<>(), classes = new ArrayList<>();
        final ArrayList<Integer> numValues = new ArrayList<>();

        Coded(Instances d) {
            for (int i = 0; i < d.numInstances(); i++) {
                rows.add(row(d.instance(i)));
            }
            for (int j = 0; j < d.numAttributes() - 1; j++) {
                features.add(d.attribute(j).name());
                numValues.add(d.attribute(j).numValues());
            }
            for (int k = 0; k < d.classAttribute().numValues(); k++) {
                classes.add(d.classAttribute().value(k));
            }
        }
    }

    private static Field epsilon;

    private static NaiveCredal naiveCredal(int numClasses, boolean eps0) throws Exception {
        NaiveCredal m = new NaiveCredal(100, numClasses);
        if (eps0) {
            if (epsilon == null) {
                epsilon = NaiveCredal.class.getDeclaredField("epsilon");
                epsilon.setAccessible(true);
            }
            epsilon.setDouble(m, 0.0);
        }
        return m;
    }

    /** One fit + classification of every test row; returns each row's classes. */
    private static int[][] once(String model, Instances train, Instances test) throws Exception {
        int n = test.numInstances(), k = train.numClasses();
        int[][] out = new int[n][];
        ArrayList<Integer> none = new ArrayList<>();
        switch (model) {
            case "NaiveCredal-eps0":
            case "NaiveCredal-eps0.01": {
                Coded c = new Coded(train);
                NaiveCredal m = naiveCredal(k, model.endsWith("eps0"));
                m.train(c.rows, c.features, c.classes, c.numValues, 1, none, none, none);
                for (int i = 0; i < n; i++) {
                    out[i] = m.classifyInstance(row(test.instance(i)));
                }
                return out;
            }
            case "Cma": {
                Coded c = new Coded(train);
                Cma m = new Cma(100, k);
                m.train(c.rows, c.features, c.classes, c.numValues, 1);
                for (int i = 0; i < n; i++) {
                    out[i] = m.classifyInstance(row(test.instance(i)));
                }
                return out;
            }
            case "Bma": {
                Coded c = new Coded(train);
                Bma m = new Bma(100, k);
                m.train(c.rows, c.features, c.classes, c.numValues, 1, 0);
                ArrayList<int[]> rows = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    rows.add(row(test.instance(i)));
                }
                m.classifyInstances(rows);
                int[] p = m.getPredictions();
                for (int i = 0; i < n; i++) {
                    out[i] = new int[] {p[i]};
                }
                return out;
            }
            case "CredalDecisionTree": {
                CredalDecisionTree m = new CredalDecisionTree();
                m.buildClassifier(train);
                for (int i = 0; i < n; i++) {
                    boolean[] keep = m.computeNonDominatedSet(m.frequencyForInstance(test.instance(i)));
                    int cnt = 0;
                    for (boolean b : keep) {
                        cnt += b ? 1 : 0;
                    }
                    out[i] = new int[cnt];
                    cnt = 0;
                    for (int j = 0; j < keep.length; j++) {
                        if (keep[j]) {
                            out[i][cnt++] = j;
                        }
                    }
                }
                return out;
            }
            default:
                throw new IllegalArgumentException("unknown model " + model + " (NaiveCredal-eps0, "
                    + "NaiveCredal-eps0.01, Cma, Bma, CredalDecisionTree)");
        }
    }

    private static String run(String[] a) throws Exception {
        if (a.length < 5) {
            throw new IllegalArgumentException(
                "usage: run <model> <train> <test> <repeats> [<warmup> [<sets.txt>]]");
        }
        String model = a[1];
        Instances train = load(a[2]), test = load(a[3]);
        int repeats = Integer.parseInt(a[4]);
        int warmup = a.length > 5 ? Integer.parseInt(a[5]) : 1;
        if (repeats < 1 || warmup < 0) {
            throw new IllegalArgumentException("repeats must be >= 1 and warmup >= 0");
        }
        int[][] sets = null;
        for (int w = 0; w < warmup; w++) {
            sets = once(model, train, test);
        }
        double[] secs = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            long t = System.nanoTime();
            sets = once(model, train, test);
            secs[r] = (System.nanoTime() - t) * 1e-9;
        }
        int indeterminate = 0;
        for (int[] s : sets) {
            indeterminate += s.length > 1 ? 1 : 0;
        }
        if (a.length > 6) {
            try (PrintWriter w = new PrintWriter(a[6])) {
                for (int[] s : sets) {
                    StringBuilder b = new StringBuilder();
                    for (int c : s) {
                        b.append(b.length() > 0 ? " " : "").append(c);
                    }
                    w.println(b);
                }
            }
        }
        Arrays.sort(secs);
        double median = repeats % 2 == 1 ? secs[repeats / 2]
                : 0.5 * (secs[repeats / 2 - 1] + secs[repeats / 2]);
        return String.format(Locale.ROOT, "ok,%s,%d,%.6f,%.6f,%d", model, repeats, secs[0], median,
                             indeterminate);
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready," + weka.core.Version.VERSION);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String t = line.trim();
            if (t.isEmpty()) {
                continue;
            }
            if (t.equals("quit")) {
                break;
            }
            String[] a = t.contains("\t") ? t.split("\t") : t.split("\\s+");
            String answer;
            try {
                if (!a[0].equals("run")) {
                    throw new IllegalArgumentException("unknown command " + a[0] + " (run, quit)");
                }
                answer = run(a);
            } catch (Throwable e) {
                answer = ("error," + e).replace('\n', ' ');
            }
            System.out.println(answer);
            System.out.flush();
        }
    }
}
