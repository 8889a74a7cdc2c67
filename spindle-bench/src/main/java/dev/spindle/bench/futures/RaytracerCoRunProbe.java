package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Size;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The floor of the directive suite's Raytracer row "T2 within 5% of fjp-tuned", with no scheduler:
 * the image computed by the directive source's recursion down to one pixel ({@code rec}) and by
 * fjp-tuned's recursion down to 16,384-pixel loop leaves ({@code leaf}), plain Java, on one thread
 * and on two threads at once, each of the two computing the whole image into its own array (the
 * same work per thread, so no split can be unbalanced). Alone, {@code rec / leaf} is what the
 * one-pixel leaves cost; at once, it is that plus whatever two busy vCPUs take from one code more
 * than from the other. Rounds alternate the four measurements, the first in each round rotating;
 * prints each one's median over the last three quarters of the rounds and the per-round ratios'
 * medians. Usage: {@code java -Xms1g -Xmx1g -cp spindle-bench/target/spindle-bench.jar
 * dev.spindle.bench.futures.RaytracerCoRunProbe ROUNDS} (PERFORMANCE.md, "The fifty-first session").
 */
public final class RaytracerCoRunProbe {
    private static final String[] NAMES = {"rec, one thread", "leaf, one thread", "rec, two threads at once", "leaf, two threads at once"};

    private RaytracerCoRunProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: RaytracerCoRunProbe ROUNDS, not " + Arrays.toString(args));
        }
        int rounds = Integer.parseInt(args[0]);
        if (rounds < 4) {
            throw new IllegalArgumentException("ROUNDS must be at least 4 (the first quarter warms up), not " + rounds);
        }
        Raytracer.Scene s = new Raytracer().prepare(Size.DEFAULT);
        int n = s.width() * s.height();
        int[] mine = new int[n];
        int[] other = new int[n];
        double[][] ms = new double[4][rounds];
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 4; k++) {
                    int which = (k + r) % 4;
                    boolean rec = which % 2 == 0;
                    long t0 = System.nanoTime();
                    if (which < 2) {
                        image(s, mine, rec);
                    } else {
                        Future<?> a = two.submit(() -> image(s, mine, rec));
                        Future<?> b = two.submit(() -> image(s, other, rec));
                        a.get();
                        b.get();
                    }
                    ms[which][r] = (System.nanoTime() - t0) / 1e6;
                }
                if (!Arrays.equals(mine, other)) {
                    throw new IllegalStateException("round " + r + ": the two images differ");
                }
            }
        } finally {
            two.shutdown();
        }
        int from = rounds / 4;
        for (int v = 0; v < 4; v++) {
            double[] tail = Arrays.copyOfRange(ms[v], from, rounds);
            Arrays.sort(tail);
            System.out.printf(Locale.ROOT, "%-26s median %.2f ms (min %.2f, max %.2f)%n", NAMES[v], tail[tail.length / 2],
                    tail[0], tail[tail.length - 1]);
        }
        System.out.printf(Locale.ROOT, "rec / leaf: one thread %.3f, two threads at once %.3f; "
                        + "one thread / two at once (1 = no slowdown): rec %.3f, leaf %.3f%n",
                ratio(ms[0], ms[1], from), ratio(ms[2], ms[3], from), ratio(ms[0], ms[2], from), ratio(ms[1], ms[3], from));
    }

    private static void image(Raytracer.Scene s, int[] img, boolean rec) {
        if (rec) {
            rec(s, img, 0, img.length);
        } else {
            leaf(s, img, 0, img.length);
        }
    }

    /** The directive source's split (DirectiveRaytracer.trace) without its futures. */
    static void rec(Raytracer.Scene s, int[] img, int lo, int hi) {
        if (hi - lo == 1) {
            img[lo] = Raytracer.pixel(s, lo);
            return;
        }
        int mid = (lo + hi) >>> 1;
        rec(s, img, lo, mid);
        rec(s, img, mid, hi);
    }

    /** fjp-tuned's split (Raytracer.spawned at its tuned cutoff) without its tasks. */
    static void leaf(Raytracer.Scene s, int[] img, int lo, int hi) {
        if (hi - lo <= 16384) {
            for (int p = lo; p < hi; p++) {
                img[p] = Raytracer.pixel(s, p);
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        leaf(s, img, lo, mid);
        leaf(s, img, mid, hi);
    }

    /** The median over rounds {@code from..} of {@code a[r] / b[r]}. */
    private static double ratio(double[] a, double[] b, int from) {
        double[] q = new double[a.length - from];
        for (int r = from; r < a.length; r++) {
            q[r - from] = a[r] / b[r];
        }
        Arrays.sort(q);
        return q[q.length / 2];
    }
}
