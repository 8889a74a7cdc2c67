package dev.spindle.bench.futures;

import dev.spindle.bench.runner.HandOffLatency;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The best Ts/T2 any scheduler could reach on TreeSum on this host: no scheduler at all, two
 * threads that never park, and each sum split once, by hand. The main thread hands the left half of
 * every sum to a helper thread that spins on a volatile sequence number, sums the right half
 * itself, then spins until the helper's result arrives: two cache-line transfers to start the
 * helper, one to return its result, nothing else. A scheduler adds to that at least a decision
 * (which work, to whom), a deque and a join; so where this probe reads below a Ts/T2 target on a
 * tree, that target is out of reach on this host for that tree, whatever the runtime does.
 *
 * <p>Both halves are taken two levels below the root (the two threads get two grandchildren each)
 * and the one-thread walk sums the same four grandchildren, so every walk starts at the same depth
 * parity as the suite's walks from the root ({@link InliningParity}: a walk entered one level down
 * runs ~1.5× faster on HotSpot, which would flatter this ceiling). It also reports the round trip
 * of a value between two spinning threads ({@link HandOffLatency}), the floor under every steal
 * and every join with a thief.
 *
 * <p>Run: {@code java -Xms4g -Xmx4g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar
 * dev.spindle.bench.futures.HandOffCeiling [rounds]}; ms are medians of the rounds after the first
 * quarter.
 */
public final class HandOffCeiling {
    private HandOffCeiling() {
    }

    /** The four grandchildren's subtrees and the top three values, on one thread. */
    private static long alone(TreeSum.Node r) {
        TreeSum.Node a = r.left;
        TreeSum.Node b = r.right;
        return TreeSum.seq(a.left) + TreeSum.seq(a.right) + TreeSum.seq(b.left) + TreeSum.seq(b.right) + a.value + b.value + r.value;
    }

    /** A thread that sums the subtree it is handed, spinning (never parking) in between. */
    private static final class Helper extends Thread {
        final AtomicLong request = new AtomicLong();   // sequence of the last hand-off
        final AtomicLong done = new AtomicLong();      // sequence of the last result
        volatile TreeSum.Node work;
        long result;                                   // published by done's release store
        volatile boolean stop;

        Helper() {
            super("hand-off helper");
            setDaemon(true);
        }

        @Override
        public void run() {
            long seen = 0;
            while (!stop) {
                long r = request.get();
                if (r == seen) {
                    Thread.onSpinWait();
                    continue;
                }
                seen = r;
                TreeSum.Node a = work;
                result = TreeSum.seq(a.left) + TreeSum.seq(a.right) + a.value;
                done.set(r);
            }
        }

        /** Sums r with the helper: it takes r.left, the caller r.right. */
        long split(TreeSum.Node r, long seq) {
            work = r.left;
            request.set(seq);
            TreeSum.Node b = r.right;
            long mine = TreeSum.seq(b.left) + TreeSum.seq(b.right) + b.value + r.value;
            while (done.get() != seq) {
                Thread.onSpinWait();
            }
            return mine + result;
        }
    }

    /**
     * @param args optional: rounds per tree (default 40; the first quarter is warm-up)
     */
    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        if (rounds < 4) {
            throw new IllegalArgumentException("rounds must be at least 4, got " + rounds);
        }
        System.out.println("JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
        System.out.printf(Locale.ROOT, "round trip of a value between two spinning threads: %.0f ns%n", HandOffLatency.measureNanos());
        System.out.printf(Locale.ROOT, "%-10s %6s %14s %14s %18s%n", "tree", "sums", "one thread ms", "two threads ms", "ceiling Ts/T2");
        int[][] trees = {{(1 << 10) - 1, 8192}, {(1 << 20) - 1, 4}, {(1 << 24) - 1, 1}};
        for (int[] tree : trees) {
            TreeSum.Node root = TreeSum.build(0, tree[0]);
            int reps = tree[1];
            long expected = (long) tree[0] * (tree[0] - 1) / 2 * reps;
            Helper helper = new Helper();
            helper.start();
            double[][] t = new double[2][rounds - rounds / 4];
            long seq = 0;
            for (int r = 0; r < rounds; r++) {
                for (int v = 0; v < 2; v++) {
                    long s = 0;
                    long t0 = System.nanoTime();
                    for (int i = 0; i < reps; i++) {
                        s += v == 0 ? alone(root) : helper.split(root, ++seq);
                    }
                    long ns = System.nanoTime() - t0;
                    if (s != expected) {
                        throw new AssertionError("sum " + s + ", expected " + expected);
                    }
                    if (r >= rounds / 4) {
                        t[v][r - rounds / 4] = ns / 1e6;
                    }
                }
            }
            helper.stop = true;
            helper.join();
            double one = InliningParity.median(t[0]);
            double two = InliningParity.median(t[1]);
            System.out.printf(Locale.ROOT, "%-10s %6d %14.2f %14.2f %18.2f%n", tree[0] + 1 + "", reps, one, two, one / two);
        }
    }
}
