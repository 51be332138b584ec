/*
 * Times JNCC2 1.11 warm, inside one JVM (the way benchmarks/weka/WekaTimer.java times
 * Weka): for benchmarks/bench_ncc2.py (NCC2, one command line) and for the performance
 * chapter and benchmarks/bench_peers.py (NCC and NBC, a session driven by
 * credal.chapters.performance).  It sits in JNCC2's package because JNCC2's classifier
 * classes are package-private; it calls their constructors, classifyInstances and
 * getPredictions, nothing else.
 *
 * Compiled by `make peers` or on demand by the Python side:
 *   javac -cp jncc2-rel1.11.jar -d build/jncc2 benchmarks/jncc2/Jncc2Timer.java
 * The ARFF files hold nominal attributes only, the class last, '?' = missing, values
 * optionally single-quoted (backslash escapes), as the Python side writes them.
 *
 * One command line (bench_ncc2.py):
 *   java -cp build/jncc2:jncc2-rel1.11.jar jncc20.Jncc2Timer <train.arff> <test.arff>
 *        <repeats> <warmup> <all|none> [<sets.txt>]
 *   -> ok,<repeats>,<best_s>,<median_s>,<n_indeterminate>
 *   A run is the NCC2 constructor (which learns the counts) on the training rows +
 *   classifyInstances of every test row; <all> declares every feature non-MAR in training
 *   and testing, <none> none.
 * Session (no arguments): first line "ready,JNCC2 1.11", then one answer per command:
 *   run <NCC|NBC> <train.arff> <test.arff> <repeats> [<warmup> [<sets.txt>]]
 *       -> ok,<model>,<repeats>,<best_s>,<median_s>,<n_indeterminate>
 *       NCC: the NCC2 constructor with no feature non-MAR (JNCC2's NCC) +
 *       classifyInstances; NBC: JNCC2's naive Bayes constructor + classifyInstances.  Files
 *       are read once and kept (as integer rows: JNCC2's own input format).
 *   quit
 *   Errors answer "error,<message>" and the session goes on.
 * <sets.txt> (optional): the predicted classes of each test row of the last run
 * (0-based indices in the declared order, blank-separated), one row per line.
 */
package jncc20;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

public class Jncc2Timer {

    /** One ARFF file: attribute names, their declared values, the rows as codes. */
    static final class Data {
        final ArrayList<String> names = new ArrayList<String>();
        final ArrayList<ArrayList<String>> values = new ArrayList<ArrayList<String>>();
        final ArrayList<int[]> rows = new ArrayList<int[]>();
    }

    /** Splits on commas outside single quotes; unquotes and unescapes each field. */
    static ArrayList<String> fields(String s) {
        ArrayList<String> out = new ArrayList<String>();
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quoted && c == '\\' && i + 1 < s.length()) {
                b.append(s.charAt(++i));
            } else if (c == '\'') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(b.toString().trim());
                b.setLength(0);
            } else {
                b.append(c);
            }
        }
        out.add(b.toString().trim());
        return out;
    }

    static Data read(String path) throws Exception {
        Data d = new Data();
        BufferedReader in = new BufferedReader(new FileReader(path));
        boolean data = false;
        for (String line; (line = in.readLine()) != null; ) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("%")) continue;
            String low = line.toLowerCase(Locale.ROOT);
            if (!data && low.startsWith("@attribute")) {
                int open = line.indexOf('{');
                d.names.add(line.substring(10, open).trim());
                d.values.add(fields(line.substring(open + 1, line.lastIndexOf('}'))));
            } else if (low.startsWith("@data")) {
                data = true;
            } else if (data) {
                ArrayList<String> f = fields(line);
                int[] row = new int[f.size()];
                for (int j = 0; j < row.length; j++) {
                    String v = f.get(j);
                    row[j] = v.equals("?") ? -9999 : d.values.get(j).indexOf(v);
                }
                d.rows.add(row);
            }
        }
        in.close();
        return d;
    }

    /** A fit + classification of every test row; returns each row's classes. */
    static int[][] once(String model, Data train, Data test, boolean nonMar) {
        int m = train.names.size() - 1;
        ArrayList<String> features = new ArrayList<String>(train.names.subList(0, m));
        ArrayList<String> classes = train.values.get(m);
        ArrayList<Integer> nv = new ArrayList<Integer>(), idx = new ArrayList<Integer>();
        for (int j = 0; j < m; j++) {
            nv.add(train.values.get(j).size());
            idx.add(j);
        }
        ArrayList<Integer> none = new ArrayList<Integer>();
        if (model.equals("NBC")) {
            NaiveBayes nb = new NaiveBayes(train.rows, features, classes, nv);
            nb.classifyInstances(test.rows);
            int[] p = nb.getPredictions();
            int[][] out = new int[p.length][];
            for (int i = 0; i < p.length; i++) out[i] = new int[] {p[i]};
            return out;
        }
        if (!model.equals("NCC")) {
            throw new IllegalArgumentException("unknown model " + model + " (NCC, NBC)");
        }
        NaiveCredalClassifier2 ncc2 = new NaiveCredalClassifier2(train.rows, features, classes, nv,
                nonMar ? idx : none, nonMar ? idx : none, nonMar ? nv : none);
        ncc2.classifyInstances(test.rows);
        return ncc2.getPredictions();
    }

    /** Best, median, indeterminate rows; writes the last run's sets when out != null. */
    static String time(String model, Data train, Data test, boolean nonMar, int repeats,
                       int warmup, String out) throws Exception {
        if (repeats < 1 || warmup < 0) {
            throw new IllegalArgumentException("repeats must be >= 1 and warmup >= 0");
        }
        double[] times = new double[repeats];
        int[][] sets = null;
        for (int r = -warmup; r < repeats; r++) {
            long t0 = System.nanoTime();
            sets = once(model, train, test, nonMar);
            double t = (System.nanoTime() - t0) / 1e9;
            if (r >= 0) times[r] = t;
        }
        int indet = 0;
        for (int[] s : sets) if (s.length > 1) indet++;
        if (out != null) {
            PrintWriter w = new PrintWriter(out);
            for (int[] s : sets) {
                StringBuilder b = new StringBuilder();
                for (int c : s) b.append(b.length() > 0 ? " " : "").append(c);
                w.println(b);
            }
            w.close();
        }
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        double median = repeats % 2 == 1 ? sorted[repeats / 2]
                : 0.5 * (sorted[repeats / 2 - 1] + sorted[repeats / 2]);
        return repeats + "," + String.format(Locale.ROOT, "%.6f,%.6f", sorted[0], median) + "," + indet;
    }

    static final Map<String, Data> FILES = new HashMap<String, Data>();

    static Data load(String path) throws Exception {
        Data d = FILES.get(path);
        if (d == null) {
            d = read(path);
            FILES.put(path, d);
        }
        return d;
    }

    static void session() throws Exception {
        System.out.println("ready,JNCC2 1.11");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String t = line.trim();
            if (t.isEmpty()) continue;
            if (t.equals("quit")) break;
            String[] a = t.contains("\t") ? t.split("\t") : t.split("\\s+");
            String answer;
            try {
                if (!a[0].equals("run") || a.length < 5) {
                    throw new IllegalArgumentException(
                        "usage: run <NCC|NBC> <train> <test> <repeats> [<warmup> [<sets.txt>]]");
                }
                answer = "ok," + a[1] + "," + time(a[1], load(a[2]), load(a[3]), false,
                        Integer.parseInt(a[4]), a.length > 5 ? Integer.parseInt(a[5]) : 1,
                        a.length > 6 ? a[6] : null);
            } catch (Throwable e) {
                answer = ("error," + e).replace('\n', ' ');
            }
            System.out.println(answer);
            System.out.flush();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            session();
            return;
        }
        Data train = read(args[0]), test = read(args[1]);
        System.out.println("ok," + time("NCC", train, test, args[4].equals("all"),
                Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                args.length > 5 ? args[5] : null));
    }
}
