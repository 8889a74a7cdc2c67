package dev.spindle.bench.futures;

import java.util.Arrays;
import java.util.Locale;

/**
 * Shows the host's phases: one thread sums the same 1M-node trees ({@link TreeSum}'s) with the
 * same compiled code, over and over, and prints the median time per tree per round. On a quiet
 * machine every figure is the same; on the 2-vCPU reference VM whole rounds move together between
 * about 9.7 and 14–18 ms with no recompilation in between (check with
 * {@code -XX:+PrintCompilation}), which is why single ratios between JVMs taken minutes apart
 * move by tens of percent. Run:
 * {@code java -Xms2g -Xmx8g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar dev.spindle.bench.futures.MachinePhases [rounds]}
 */
public final class MachinePhases {
    private static final int TREES = 6;
    private static final int NODES = 1 << 20;
    private static final int SAMPLES = 15;

    private MachinePhases() {
    }

    /**
     * Entry point.
     *
     * @param args optional: the number of rounds (default 5)
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        }
        TreeSum.Node[] trees = new TreeSum.Node[TREES];
        for (int i = 0; i < TREES; i++) {
            trees[i] = TreeSum.build(0, NODES);
        }
        System.gc();
        long check = 0;
        for (int w = 0; w < 5; w++) {
            check += time(trees[0])[1];
        }
        for (int r = 0; r < rounds; r++) {
            StringBuilder line = new StringBuilder("round " + r + ", ms per 4 sums of each tree:");
            for (TreeSum.Node t : trees) {
                long[] m = time(t);
                check += m[1];
                line.append(String.format(Locale.ROOT, " %6.2f", m[0] / 1e6));
            }
            System.out.println(line);
        }
        System.out.println("(checksum " + check + ")");
    }

    /** Median nanoseconds of {@link #SAMPLES} samples of four sums, and the last sum. */
    private static long[] time(TreeSum.Node root) {
        long[] t = new long[SAMPLES];
        long s = 0;
        for (int i = 0; i < SAMPLES; i++) {
            long t0 = System.nanoTime();
            for (int k = 0; k < 4; k++) {
                s = TreeSum.seq(root);
            }
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return new long[] {t[SAMPLES / 2], s};
    }
}
