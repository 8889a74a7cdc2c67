package dev.spindle.loop;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.*;

/** Parallel regions: ids, barriers, single, master, work-sharing, failures, busy pools. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RegionTest {

    @Test
    void idsAreDistinctAndBarriersSeparatePhases() {
        try (SpindlePool pool = new SpindlePool(4)) {
            for (int rep = 0; rep < 50; rep++) {
                Set<Integer> ids = ConcurrentHashMap.newKeySet();
                AtomicInteger size = new AtomicInteger();
                int phases = 20;
                AtomicIntegerArray arrivedAt = new AtomicIntegerArray(phases);
                AtomicInteger violations = new AtomicInteger();
                pool.invoke(new Task<Void>() {
                    @Override
                    protected Void compute() {
                        Loops.parallelRegion(team -> {
                            ids.add(team.id());
                            size.set(team.size());
                            for (int p = 0; p < phases; p++) {
                                arrivedAt.incrementAndGet(p);
                                team.barrier();
                                if (arrivedAt.get(p) != team.size()) {
                                    violations.incrementAndGet();     // someone passed before all arrived
                                }
                                team.barrier();
                            }
                        });
                        return null;
                    }
                });
                assertEquals(size.get(), ids.size(), "ids " + ids);
                for (int id = 0; id < size.get(); id++) {
                    assertTrue(ids.contains(id), "missing id " + id + " in " + ids);
                }
                assertEquals(0, violations.get(), "a barrier let a member through early");
            }
        }
    }

    @Test
    void singleRunsOnceMasterRunsOnMemberZeroAndForEachSharesTheWork() {
        try (SpindlePool pool = new SpindlePool(3)) {
            AtomicInteger singles = new AtomicInteger();
            AtomicInteger masterNotZero = new AtomicInteger();
            AtomicIntegerArray seen = new AtomicIntegerArray(10_000);
            Loops.parallelRegion(team -> {
                for (int round = 0; round < 10; round++) {
                    int k = round;
                    team.single(singles::incrementAndGet);
                    team.master(() -> {
                        if (team.id() != 0) {
                            masterNotZero.incrementAndGet();
                        }
                    });
                    for (Schedule s : new Schedule[]{Schedule.staticBlocks(), Schedule.dynamic(7), Schedule.guided(3), Schedule.auto()}) {
                        team.forEach(0, 1000, s, i -> seen.incrementAndGet(i + 1000 * k));
                    }
                }
            });
            assertEquals(10, singles.get());
            assertEquals(0, masterNotZero.get());
            for (int i = 0; i < 10_000; i++) {
                assertEquals(4, seen.get(i), "index " + i + " (four work-sharing loops each)");
            }
        }
    }

    @Test
    void jacobiWithABarrierPerStepMatchesTheSequentialResult() {
        int n = 2000, steps = 200;
        double[] seqA = initial(n), seqB = seqA.clone();
        for (int s = 0; s < steps; s++) {
            for (int i = 1; i < n - 1; i++) {
                seqB[i] = (seqA[i - 1] + seqA[i + 1]) * 0.5;
            }
            double[] t = seqA; seqA = seqB; seqB = t;
        }
        try (SpindlePool pool = new SpindlePool(2)) {
            double[][] grids = {initial(n), initial(n)};
            pool.invoke(new Task<Void>() {
                @Override
                protected Void compute() {
                    Loops.parallelRegion(team -> {
                        for (int s = 0; s < steps; s++) {
                            double[] cur = grids[s & 1], next = grids[(s + 1) & 1];
                            int per = (n - 2 + team.size() - 1) / team.size();
                            int lo = 1 + team.id() * per, hi = Math.min(n - 1, lo + per);
                            for (int i = lo; i < hi; i++) {
                                next[i] = (cur[i - 1] + cur[i + 1]) * 0.5;
                            }
                            team.barrier();
                        }
                    });
                    return null;
                }
            });
            assertArrayEquals(seqA, grids[steps & 1]);
        }
    }

    private static double[] initial(int n) {
        double[] a = new double[n];
        Arrays.fill(a, 0.0);
        a[0] = 1.0;
        a[n - 1] = -1.0;
        return a;
    }

    @Test
    void aRegionOnABusyPoolShrinksInsteadOfDeadlocking() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            // Both workers busy: one runs a region asking for 8 members (nobody free to take them),
            // nested in a region of its own; every barrier must still be passed.
            AtomicInteger innerSizes = new AtomicInteger();
            pool.invoke(new Task<Void>() {
                @Override
                protected Void compute() {
                    Loops.parallelRegion(2, outer -> {
                        Loops.parallelRegion(8, inner -> {
                            inner.barrier();
                            inner.single(() -> innerSizes.addAndGet(inner.size()));
                            inner.barrier();
                        });
                        outer.barrier();
                    });
                    return null;
                }
            });
            assertTrue(innerSizes.get() >= 1 && innerSizes.get() <= 16, "inner team sizes " + innerSizes.get());
        }
    }

    @Test
    void aFailingMemberAbortsTheRegionAndTheFailureReachesTheStarter() {
        try (SpindlePool pool = new SpindlePool(2)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Loops.parallelRegion(team -> {
                team.barrier();
                if (team.id() == team.size() - 1) {
                    throw new IllegalStateException("member " + team.id() + " failed");
                }
                team.barrier();                       // the others must not wait here forever
                team.barrier();
            }));
            assertTrue(e.getMessage().contains("failed"), e.getMessage());
            IllegalArgumentException inLoop = assertThrows(IllegalArgumentException.class, () -> Loops.parallelRegion(team ->
                    team.forEach(0, 100, i -> {
                        if (i == 50) {
                            throw new IllegalArgumentException("iteration 50");
                        }
                    })));
            assertEquals("iteration 50", inLoop.getMessage());
        }
    }
}
