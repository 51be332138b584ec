/*
 * Times Weka classifiers warm, inside one JVM, for the performance chapter and
 * benchmarks/bench_peers.py (credal.chapters.performance.WekaSession drives it).
 *
 * Compiled at build time by the Makefile (or on demand by the Python side):
 *   javac -cp /usr/share/java/weka.jar -d build/weka benchmarks/weka/WekaTimer.java
 *
 * Line protocol on stdin/stdout (one answer line per command, fields separated by tabs
 * or, without tabs, by blanks; files are ARFF with
 * nominal attributes only, the class last; a file is read once and kept):
 *   run <classifier> <train.arff> <test.arff> <repeats> [<warmup> [<predictions.txt>]]
 *       -> ok,<classifier>,<repeats>,<best_s>,<median_s>,<accuracy>
 *       <warmup> untimed runs (default 1), then <repeats> timed ones; a run is
 *       buildClassifier on a fresh classifier + classifyInstance of every test row.
 *       <predictions.txt> (optional): the predicted class indices, one per line.
 *   mem <classifier> <train.arff> <test.arff>
 *       -> ok,<classifier>,<allocated_mb>,<retained_mb>
 *       one untimed run: the bytes the thread allocated during it (an upper bound on
 *       its peak heap) and the growth of the heap in use after a full GC with the model
 *       still held (what the model keeps: a lower bound).
 *   quit
 * Errors answer "error,<message>" and the session goes on.  With arguments, each
 * argument is one command (e.g. "run weka.classifiers.trees.J48 a.arff b.arff 5").
 * The first line printed is "ready,<Weka version>".
 */

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import weka.classifiers.Classifier;
import weka.core.Instances;

public class WekaTimer {
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

    private static Classifier make(String name) throws Exception {
        return (Classifier) Class.forName(name).getDeclaredConstructor().newInstance();
    }

    /** One fit + classification of every test row; returns the predicted indices. */
    private static int[] once(String name, Instances train, Instances test) throws Exception {
        Classifier c = make(name);
        c.buildClassifier(train);
        int[] pred = new int[test.numInstances()];
        for (int i = 0; i < pred.length; i++) {
            pred[i] = (int) c.classifyInstance(test.instance(i));
        }
        return pred;
    }

    private static String run(String[] a) throws Exception {
        String name = a[1];
        Instances train = load(a[2]), test = load(a[3]);
        int repeats = Integer.parseInt(a[4]);
        int warmup = a.length > 5 ? Integer.parseInt(a[5]) : 1;
        if (repeats < 1 || warmup < 0) {
            throw new IllegalArgumentException("repeats must be >= 1 and warmup >= 0");
        }
        int[] pred = null;
        for (int w = 0; w < warmup; w++) {
            pred = once(name, train, test);
        }
        double[] secs = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            long t = System.nanoTime();
            pred = once(name, train, test);
            secs[r] = (System.nanoTime() - t) * 1e-9;
        }
        int right = 0;
        for (int i = 0; i < pred.length; i++) {
            if (pred[i] == (int) test.instance(i).classValue()) {
                right++;
            }
        }
        if (a.length > 6) {
            try (PrintWriter w = new PrintWriter(a[6])) {
                for (int p : pred) {
                    w.println(p);
                }
            }
        }
        Arrays.sort(secs);
        double median = repeats % 2 == 1 ? secs[repeats / 2]
                : 0.5 * (secs[repeats / 2 - 1] + secs[repeats / 2]);
        return String.format(Locale.ROOT, "ok,%s,%d,%.6f,%.6f,%.6f", name, repeats, secs[0], median,
                             (double) right / pred.length);
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    private static String mem(String[] a) throws Exception {
        String name = a[1];
        Instances train = load(a[2]), test = load(a[3]);
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long base = usedAfterGc();
        long before = threads.getThreadAllocatedBytes(id);
        Classifier c = make(name);
        c.buildClassifier(train);
        for (int i = 0; i < test.numInstances(); i++) {
            c.classifyInstance(test.instance(i));
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        long retained = usedAfterGc() - base;
        if (c.toString().isEmpty()) {   // keeps the model reachable until after the GC
            retained = -1;
        }
        double mb = 1024.0 * 1024.0;
        return String.format(Locale.ROOT, "ok,%s,%.3f,%.3f", name, allocated / mb, retained / mb);
    }

    private static String answer(String line) {
        String t = line.trim();
        // tab-separated when a path may hold spaces (the Python side sends tabs)
        String[] a = t.contains("\t") ? t.split("\t") : t.split("\\s+");
        try {
            switch (a[0]) {
                case "run":
                    if (a.length < 5) {
                        throw new IllegalArgumentException(
                            "usage: run <classifier> <train> <test> <repeats> [<warmup> [<out>]]");
                    }
                    return run(a);
                case "mem":
                    if (a.length != 4) {
                        throw new IllegalArgumentException("usage: mem <classifier> <train> <test>");
                    }
                    return mem(a);
                default:
                    throw new IllegalArgumentException("unknown command " + a[0]
                                                       + " (run, mem, quit)");
            }
        } catch (Throwable e) {
            return ("error," + e).replace('\n', ' ');
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready," + weka.core.Version.VERSION);
        System.out.flush();
        if (args.length > 0) {
            for (String cmd : args) {
                System.out.println(answer(cmd));
            }
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) {
                continue;
            }
            if (line.trim().equals("quit")) {
                break;
            }
            System.out.println(answer(line));
            System.out.flush();
        }
    }
}
