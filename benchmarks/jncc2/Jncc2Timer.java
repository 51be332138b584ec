/*
 * Times JNCC2 1.11's NCC2 warm, inside one JVM, for benchmarks/bench_ncc2.py (the way
 * benchmarks/weka/WekaTimer.java times Weka).  It sits in JNCC2's package because
 * JNCC2's classifier classes are package-private; it calls their constructors and
 * classifyInstances, nothing else.
 *
 * Compiled on demand by the Python side:
 *   javac -cp jncc2-rel1.11.jar -d build/jncc2 benchmarks/jncc2/Jncc2Timer.java
 * Run:
 *   java -cp build/jncc2:jncc2-rel1.11.jar jncc20.Jncc2Timer <train.arff> <test.arff>
 *        <repeats> <warmup> <all|none> [<sets.txt>]
 *   -> ok,<repeats>,<best_s>,<median_s>,<n_indeterminate>
 * The ARFF files hold nominal attributes only, the class last, '?' = missing (as the
 * Python side writes them).  A run is the NCC2 constructor (which learns the counts) on
 * the training rows + classifyInstances of every test row; <all> declares every feature
 * non-MAR in training and testing, <none> none.  <sets.txt> (optional): the predicted
 * classes of each test row of the last run, blank-separated, one row per line.
 */
package jncc20;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;

public class Jncc2Timer {

    static ArrayList<String> names = new ArrayList<String>();
    static ArrayList<ArrayList<String>> values = new ArrayList<ArrayList<String>>();

    static ArrayList<int[]> read(String path, boolean header) throws Exception {
        ArrayList<int[]> rows = new ArrayList<int[]>();
        BufferedReader in = new BufferedReader(new FileReader(path));
        boolean data = false;
        int seen = 0;
        for (String line; (line = in.readLine()) != null; ) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("%")) continue;
            String low = line.toLowerCase();
            if (!data && low.startsWith("@attribute")) {
                int open = line.indexOf('{');
                if (header) {
                    names.add(line.substring(10, open).trim());
                    ArrayList<String> vals = new ArrayList<String>();
                    for (String v : line.substring(open + 1, line.lastIndexOf('}')).split(","))
                        vals.add(v.trim());
                    values.add(vals);
                }
                seen++;
            } else if (low.startsWith("@data")) {
                data = true;
            } else if (data) {
                String[] f = line.split(",");
                int[] row = new int[f.length];
                for (int j = 0; j < f.length; j++) {
                    String v = f[j].trim();
                    row[j] = v.equals("?") ? -9999 : values.get(j).indexOf(v);
                }
                rows.add(row);
            }
        }
        in.close();
        return rows;
    }

    public static void main(String[] args) throws Exception {
        ArrayList<int[]> train = read(args[0], true);
        ArrayList<int[]> test = read(args[1], false);
        int repeats = Integer.parseInt(args[2]), warmup = Integer.parseInt(args[3]);
        boolean all = args[4].equals("all");
        int m = names.size() - 1;
        ArrayList<String> features = new ArrayList<String>(names.subList(0, m));
        ArrayList<String> classes = values.get(m);
        ArrayList<Integer> nv = new ArrayList<Integer>(), idx = new ArrayList<Integer>();
        for (int j = 0; j < m; j++) {
            nv.add(values.get(j).size());
            idx.add(j);
        }
        ArrayList<Integer> none = new ArrayList<Integer>();
        double[] times = new double[repeats];
        NaiveCredalClassifier2 ncc2 = null;
        for (int r = -warmup; r < repeats; r++) {
            long t0 = System.nanoTime();
            ncc2 = new NaiveCredalClassifier2(train, features, classes, nv,
                    all ? idx : none, all ? idx : none, all ? nv : none);
            ncc2.classifyInstances(test);
            double t = (System.nanoTime() - t0) / 1e9;
            if (r >= 0) times[r] = t;
        }
        int[][] sets = ncc2.getPredictions();
        int indet = 0;
        for (int[] s : sets) if (s.length > 1) indet++;
        if (args.length > 5) {
            PrintWriter out = new PrintWriter(args[5]);
            for (int[] s : sets) {
                StringBuilder b = new StringBuilder();
                for (int c : s) b.append(b.length() > 0 ? " " : "").append(c);
                out.println(b);
            }
            out.close();
        }
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        System.out.println("ok," + repeats + "," + sorted[0] + "," + sorted[repeats / 2] + "," + indet);
    }
}
