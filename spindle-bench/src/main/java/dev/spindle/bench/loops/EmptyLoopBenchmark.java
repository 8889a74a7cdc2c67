package dev.spindle.bench.loops;

import dev.spindle.loop.Loops;
import dev.spindle.loop.Schedule;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The cost of an empty parallel loop at two workers (issue #5's target: ≤ 2 µs, ≥ 50× cheaper
 * than a thread per loop, ≥ 2× cheaper than a parallel stream). Each invocation runs a batch of
 * loops from where a program's loops start — a Spindle worker, a ForkJoinPool worker for
 * streams, the team's caller for wd and jth — and JMH divides by the batch.
 * Run: {@code ./spindle jmh EmptyLoop}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class EmptyLoopBenchmark {
    private static final int BATCH = 1000;
    private static final int ITERATIONS = 1000;

    private SpindlePool spindle;
    private ForkJoinPool fjp;
    private WorkDescriptorTeam wd;
    private ThreadPerLoop jth;

    @Setup(Level.Trial)
    public void setUp() {
        spindle = new SpindlePool(2);
        fjp = new ForkJoinPool(2);
        wd = new WorkDescriptorTeam(2);
        jth = new ThreadPerLoop(2);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        spindle.close();
        fjp.close();
        wd.close();
    }

    private void spindleBatch(Schedule s) {
        spindle.invoke(new Task<Void>() {
            @Override
            protected Void compute() {
                for (int k = 0; k < BATCH; k++) {
                    Loops.parallelFor(0, ITERATIONS, s, i -> { });
                }
                return null;
            }
        });
    }

    /** Spindle, auto schedule. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void spindleAuto() {
        spindleBatch(Schedule.auto());
    }

    /** Spindle, static blocks. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void spindleStatic() {
        spindleBatch(Schedule.staticBlocks());
    }

    /** Seed 003's WD: a pre-created team fed one shared descriptor per loop. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void wd() {
        for (int k = 0; k < BATCH; k++) {
            wd.parallelFor(0, ITERATIONS, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    // empty
                }
            });
        }
    }

    /** IntStream.range(...).parallel().forEach on a two-worker ForkJoinPool. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void streams() {
        fjp.submit(() -> {
            for (int k = 0; k < BATCH; k++) {
                IntStream.range(0, ITERATIONS).parallel().forEach(i -> { });
            }
        }).join();
    }

    /** Seed 003's JTH: a new thread per loop. */
    @Benchmark
    @OperationsPerInvocation(BATCH / 10)
    public void jth() {
        for (int k = 0; k < BATCH / 10; k++) {
            jth.parallelFor(0, ITERATIONS, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    // empty
                }
            });
        }
    }
}
