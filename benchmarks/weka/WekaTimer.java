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
 *       -> ok,<classifier>,<allocated_mb>,<retained_mb>,<peak_low_mb>,<peak_high_mb>,<gcs>
 *       one untimed run: the bytes the thread allocated during it (an upper bound on
 *       its peak heap) and the growth of the heap in use after a full GC with the model
 *       still held (what the model keeps).  The peak of the live heap during the run,
 *       over the live heap before it (data loaded), lies between <peak_low_mb> (the
 *       largest heap in use right after a full collection, or the model at the end) and
 *       <peak_high_mb> (the largest heap in use right before any collection, or at the
 *       end); <gcs> collections happened.  The bounds are tight when the JVM collects
 *       often and fully: the Python side starts this JVM with
 *         -XX:+UseSerialGC -Xmn512k -Xms2m -XX:MinHeapFreeRatio=1 -XX:MaxHeapFreeRatio=5
 *         -XX:-ShrinkHeapInSteps -XX:MarkSweepDeadRatio=0
 *       (a young generation of 512 KB; an old generation kept a few percent above its
 *       live part, so that it fills and is fully collected after every few hundred KB
 *       promoted; full collections that leave no dead space).  Checked with "mem check
 *       <mb>": a run that holds <mb> MB while 32 MB of arrays of 32 KB pass through a
 *       ring of 16 (promoted, then dead): true peak <mb> + 0.5 MB.  For 0, 0.1, 0.5, 3
 *       and 20 MB held the bounds were 0.02 MB and 0.4-0.75 MB above it, ~200 collections,
 *       0.3 s a run.  With the default collectors the same check gave bounds several MB
 *       wide, and lower "bounds" from young collections above the truth (dead promoted
 *       objects).
 *   sample <classifier> <train.arff> <test.arff> <runs> <seconds>
 *       -> ok,<classifier>,<peak_low_mb>,<peak_high_mb>,<runs_done>,<samples>
 *       for a run that allocates too little for collections to happen during it (the
 *       bounds of "mem" then stay wide): 5 untimed warm-up runs, then <runs> runs (fewer
 *       if <seconds> have passed; at least one) while a second thread forces full
 *       collections back to back.  <peak_low_mb>: the largest heap in use right after
 *       one of them (read from the full collector's last GcInfo, kept only when no other
 *       collection came in between: <samples> readings), less the largest such reading
 *       with the main thread idle (what the collecting thread and the management beans
 *       hold); <peak_high_mb>: the sum over the heap's pools of their peak use, an upper
 *       bound.  Both over the live heap at rest (data loaded).  The notification
 *       listeners of "mem" are off meanwhile (their pending notifications are live
 *       objects).  Checked with "sample check <mb> <runs> <seconds>" (a run holds <mb> MB
 *       while 4 MB of 1 KB arrays pass through a ring of 16: true peak <mb> + 0.016 MB):
 *       for 0.01, 0.05, 0.2 and 1 MB the low bound read 0.0011-0.0012 MB above the truth
 *       (for 0 MB, from 73 readings, 0.007 MB below it), the high one 0.4-0.6 MB above.
 *   quit
 * Errors answer "error,<message>" and the session goes on.  With arguments, each
 * argument is one command (e.g. "run weka.classifiers.trees.J48 a.arff b.arff 5").
 * The first line printed is "ready,<Weka version>".
 */

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import com.sun.management.GarbageCollectionNotificationInfo;
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

    // Heap in use just before and just after each collection, recorded while a "mem" run
    // is under way (GC notifications arrive on a JMX thread).  Only a full collection
    // leaves nothing but live objects (with -XX:MarkSweepDeadRatio=0: by default the
    // serial collector leaves up to 5% of dead space uncompacted); after a young one the
    // old generation still holds what was promoted, or allocated there, and died since.
    private static final Object GC_LOCK = new Object();
    private static boolean recording;
    private static long gcSeen, maxBefore, maxAfterFull, lastFull;

    private static final NotificationListener LISTENER = (n, hb) -> {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        boolean full = info.getGcAction().contains("major");
        long before = heapUsed(info.getGcInfo().getMemoryUsageBeforeGc());
        long after = heapUsed(info.getGcInfo().getMemoryUsageAfterGc());
        synchronized (GC_LOCK) {
            gcSeen++;
            if (full) {
                lastFull = after;
            }
            if (recording) {
                maxBefore = Math.max(maxBefore, before);
                if (full) {
                    maxAfterFull = Math.max(maxAfterFull, after);
                }
            }
            GC_LOCK.notifyAll();
        }
    };

    /** Turns the notification listener on each collector on or off. */
    private static void listen(boolean on) throws Exception {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (on) {
                ((NotificationEmitter) gc).addNotificationListener(LISTENER, null, null);
            } else {
                ((NotificationEmitter) gc).removeNotificationListener(LISTENER);
            }
        }
        synchronized (GC_LOCK) {
            gcSeen = gcCount();   // the collections while it was off (or before: start-up)
        }
    }

    static {
        try {
            listen(true);
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Heap in use: the sum over the heap's memory pools (eden, survivor, old). */
    private static long heapUsed(Map<String, MemoryUsage> pools) {
        long used = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = pools.get(p.getName());
            if (p.getType() == MemoryType.HEAP && u != null) {
                used += u.getUsed();
            }
        }
        return used;
    }

    private static long heapUsedNow() {
        long used = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                used += p.getUsage().getUsed();
            }
        }
        return used;
    }

    private static long gcCount() {
        long k = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            k += Math.max(gc.getCollectionCount(), 0);
        }
        return k;
    }

    /** The heap in use after full collections (their notification's figure: read at
     *  once, it would count the garbage the JMX thread makes in the meantime). */
    private static long liveAfterFullGc() throws InterruptedException {
        usedAfterGc();
        awaitNotifications(gcCount());
        synchronized (GC_LOCK) {
            return lastFull;
        }
    }

    /** Waits until the notifications of the first {@code k} collections have arrived. */
    private static void awaitNotifications(long k) throws InterruptedException {
        long end = System.currentTimeMillis() + 5000;
        synchronized (GC_LOCK) {
            while (gcSeen < k && System.currentTimeMillis() < end) {
                GC_LOCK.wait(50);
            }
        }
    }

    private static String mem(String[] a) throws Exception {
        String name = a[1];
        boolean check = name.equals("check");   // "mem check <mb>": a run that holds <mb> MB
        Instances train = check ? null : load(a[2]), test = check ? null : load(a[3]);
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long base = liveAfterFullGc();    // the data loaded, nothing built yet
        long gcs0 = gcCount();
        synchronized (GC_LOCK) {
            recording = true;
            maxBefore = maxAfterFull = 0;
        }
        long before = threads.getThreadAllocatedBytes(id);
        Object keep;
        if (check) {
            // <mb> MB held, and 32 MB churned through a ring of 16 arrays of 32 KB: live
            // long enough to be promoted, then garbage in the old generation.  Peak: <mb>
            // MB + 0.5 MB.
            byte[] held = new byte[(int) (Double.parseDouble(a[2]) * 1024 * 1024)];
            byte[][] ring = new byte[16][];
            for (int i = 0; i < 1024; i++) {
                ring[i % 16] = new byte[32 * 1024];
            }
            keep = new Object[] {held, ring};
        } else {
            Classifier c = make(name);
            c.buildClassifier(train);
            for (int i = 0; i < test.numInstances(); i++) {
                c.classifyInstance(test.instance(i));
            }
            keep = c;
        }
        long end = heapUsedNow();
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        long gcs = gcCount() - gcs0;
        awaitNotifications(gcs0 + gcs);
        long hi, lo;
        synchronized (GC_LOCK) {
            recording = false;
            hi = Math.max(maxBefore, end) - base;
            lo = maxAfterFull - base;
        }
        long retained = liveAfterFullGc() - base;
        // keeps the model and the data reachable until after the GC
        if (keep.toString().isEmpty() || (!check && train.numInstances() + test.numInstances() < 0)) {
            retained = -1;
        }
        lo = Math.max(lo, retained);        // the model is live at the end of the run
        double mb = 1024.0 * 1024.0;
        return String.format(Locale.ROOT, "ok,%s,%.3f,%.3f,%.3f,%.3f,%d", name, allocated / mb,
                             retained / mb, Math.max(lo, 0) / mb, Math.max(hi, 0) / mb, gcs);
    }

    // Set by the collecting thread of "sample", read by the main thread after join().
    private static volatile boolean collecting;
    private static volatile long sampledMax;
    private static volatile int sampled;

    private static String sample(String[] a) throws Exception {
        String name = a[1];
        boolean check = name.equals("check");   // "sample check <mb> <runs> <seconds>"
        Instances train = check ? null : load(a[2]), test = check ? null : load(a[3]);
        double held = check ? Double.parseDouble(a[2]) : 0;
        int runs = Integer.parseInt(a[check ? 3 : 4]);
        double seconds = Double.parseDouble(a[check ? 4 : 5]);
        if (runs < 1 || !(seconds > 0)) {
            throw new IllegalArgumentException("runs must be >= 1 and seconds > 0");
        }
        com.sun.management.GarbageCollectorMXBean full = null;
        GarbageCollectorMXBean young = null;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (g.getName().equals("MarkSweepCompact")) {
                full = (com.sun.management.GarbageCollectorMXBean) g;
            } else {
                young = g;
            }
        }
        if (full == null || young == null) {
            throw new IllegalStateException("sample needs the serial collector (-XX:+UseSerialGC)");
        }
        for (int w = 0; w < 5 && !check; w++) {
            once(name, train, test);
        }
        final com.sun.management.GarbageCollectorMXBean f = full;
        final GarbageCollectorMXBean y = young;
        listen(false);
        try {
            long rest = Long.MAX_VALUE;
            for (int k = 0; k < 5; k++) {
                System.gc();
                rest = Math.min(rest, heapUsed(f.getLastGcInfo().getMemoryUsageAfterGc()));
            }
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                p.resetPeakUsage();
            }
            sampledMax = 0;
            sampled = 0;
            collecting = true;
            Thread t = new Thread(() -> {
                while (collecting) {
                    long y0 = y.getCollectionCount(), f0 = f.getCollectionCount();
                    System.gc();
                    com.sun.management.GcInfo info = f.getLastGcInfo();
                    // a young collection in between, or a second full one: not this one's figure
                    if (info == null || y.getCollectionCount() != y0
                            || f.getCollectionCount() != f0 + 1 || info.getId() != f0 + 1) {
                        continue;
                    }
                    sampledMax = Math.max(sampledMax, heapUsed(info.getMemoryUsageAfterGc()));
                    sampled++;
                }
            });
            t.setDaemon(true);
            t.start();
            long wait = System.currentTimeMillis() + 5000;
            while (sampled < 200 && System.currentTimeMillis() < wait) {
                Thread.sleep(1);
            }
            long idle = Math.max(sampledMax, rest);
            sampledMax = 0;
            sampled = 0;
            long start = System.nanoTime();
            int done = 0;
            long sum = 0;
            while (done < runs && (done == 0 || (System.nanoTime() - start) * 1e-9 < seconds)) {
                if (check) {
                    byte[] h = new byte[(int) (held * 1024 * 1024)];
                    byte[][] ring = new byte[16][];
                    for (int i = 0; i < 4096; i++) {
                        ring[i % 16] = new byte[1024];
                    }
                    sum += h.length + ring[3].length;
                } else {
                    sum += once(name, train, test).length;
                }
                done++;
            }
            collecting = false;
            t.join();
            long peaks = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP) {
                    peaks += p.getPeakUsage().getUsed();
                }
            }
            if (sum < 0) {   // keeps the runs' results used
                throw new IllegalStateException();
            }
            double mb = 1024.0 * 1024.0;
            return String.format(Locale.ROOT, "ok,%s,%.4f,%.4f,%d,%d", name,
                                 Math.max(sampledMax - idle, 0) / mb, Math.max(peaks - rest, 0) / mb,
                                 done, sampled);
        } finally {
            listen(true);
        }
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
                case "sample":
                    if (a.length != 6 && !(a.length == 5 && a[1].equals("check"))) {
                        throw new IllegalArgumentException(
                            "usage: sample <classifier> <train> <test> <runs> <seconds>, "
                            + "or sample check <mb> <runs> <seconds>");
                    }
                    return sample(a);
                case "mem":
                    if (a.length != 4 && !(a.length == 3 && a[1].equals("check"))) {
                        throw new IllegalArgumentException(
                            "usage: mem <classifier> <train> <test>, or mem check <mb>");
                    }
                    return mem(a);
                default:
                    throw new IllegalArgumentException("unknown command " + a[0]
                                                       + " (run, mem, sample, quit)");
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
