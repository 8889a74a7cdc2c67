package dev.spindle.weaver;

import dev.spindle.future.SpawnMode;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;
import dev.spindle.runtime.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The conformance corpus ({@code src/test/resources/corpus}): every {@code shape*} method,
 * compiled here by javac, woven, and run on the calling thread and on pools of 1 and 2 workers,
 * gives exactly what the unwoven method gives — its value, or its exception's class and message.
 * Surefire runs this class three times: spawn=auto (this JVM's default), always and never. The
 * corpus is compiled twice: with a LocalVariableTable ({@code -g}) and without ({@code -g:lines,source}).
 */
class ConformanceTest {
    private static final List<Variant> VARIANTS = new ArrayList<>();

    /** The corpus classes whose shapes are compared: {@code @Future} variables, and the object API's futures. */
    private static final List<String> CLASSES = List.of("corpus.Shapes", "corpus.ObjectFutures");

    private record Variant(String name, Class<?> plain, Class<?> woven) {
    }

    @BeforeAll
    static void compileAndWeave() throws Exception {
        for (String[] opt : new String[][] {{"-g"}, {"-g:lines,source"}}) {
            Map<String, byte[]> plain = Corpus.compile(Corpus.resourceDir("corpus/corpus"), opt);
            Map<String, byte[]> woven = Corpus.weaveAll(plain);
            Corpus.Loader plainLoader = new Corpus.Loader("plain", plain);
            Corpus.Loader wovenLoader = new Corpus.Loader("woven", woven);
            for (String c : CLASSES) {
                VARIANTS.add(new Variant(c + " " + String.join(" ", opt), Class.forName(c, true, plainLoader),
                        Class.forName(c, true, wovenLoader)));
            }
        }
    }

    @TestFactory
    List<DynamicTest> everyShapeMatchesTheUnwovenMethod() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Variant v : VARIANTS) {
            List<Method> shapes = new ArrayList<>(Arrays.stream(v.plain().getDeclaredMethods())
                    .filter(m -> m.getName().startsWith("shape") && Modifier.isStatic(m.getModifiers()))
                    .toList());
            shapes.sort((a, b) -> a.getName().compareTo(b.getName()));
            assertTrue(shapes.size() >= (v.plain().getSimpleName().equals("Shapes") ? 40 : 15),
                    "the corpus class " + v.plain().getName() + " has " + shapes.size() + " shapes");
            for (Method plain : shapes) {
                for (int workers : new int[] {0, 1, 2}) {
                    String name = plain.getName() + " [" + v.name() + ", spawn=" + SpawnMode.current().name().toLowerCase()
                            + ", " + (workers == 0 ? "caller thread" : workers + " worker(s)") + "]";
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        Method woven = v.woven().getDeclaredMethod(plain.getName());
                        String expected = expectation(v.woven(), plain.getName(), outcome(plain));
                        for (int round = 0; round < 3; round++) {
                            String actual = workers == 0 ? outcome(woven) : onPool(workers, woven);
                            assertEquals(expected, actual, name + ", round " + round);
                        }
                    }));
                }
            }
        }
        return tests;
    }

    /**
     * Under spawn=always (where a deferred call is promoted as it is declared): a woven call that
     * fails on another worker is raised at its read as the original exception, with a
     * {@code TouchSite} whose stack is the read's — the reading method's frame at the read's line.
     */
    @Test
    void aFailureOnAnotherWorkerIsRaisedAtTheReadWithItsTouchSite() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.ALWAYS, "needs spawn=always: only then is the call sure to run elsewhere");
        Class<?> remote = wovenCorpusClass("Remote");
        Method m = remote.getDeclaredMethod("failsElsewhere");
        int readLine = remote.getField("READ_LINE").getInt(null);
        SpindlePool pool = new SpindlePool(2);
        try {
            Throwable thrown = pool.invoke(new Task<Throwable>() {
                @Override
                protected Throwable compute() throws IllegalAccessException {
                    try {
                        m.invoke(null);
                        return null;
                    } catch (InvocationTargetException e) {
                        return e.getCause();
                    }
                }
            });
            assertNotNull(thrown, "failsElsewhere returned normally");
            assertEquals(IllegalStateException.class, thrown.getClass(), () -> "thrown: " + thrown);
            assertTrue(thrown.getMessage().startsWith("failed on "), thrown.getMessage());
            Throwable site = Arrays.stream(thrown.getSuppressed()).filter(s -> s.getClass().getSimpleName().equals("TouchSite"))
                    .findFirst().orElseThrow(() -> new AssertionError("no TouchSite on " + thrown));
            assertTrue(Arrays.stream(site.getStackTrace()).anyMatch(e -> e.getClassName().equals("corpus.Remote")
                    && e.getMethodName().equals("failsElsewhere") && e.getLineNumber() == readLine),
                    () -> "the touch site does not name failsElsewhere at line " + readLine + ": " + Arrays.toString(site.getStackTrace()));
            assertTrue(Arrays.stream(thrown.getStackTrace()).noneMatch(e -> e.getMethodName().equals("failsElsewhere")),
                    "the failure's own stack is the other worker's, yet names the reading method");
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "pool running failsElsewhere did not terminate within 30 s");
        }
    }

    /**
     * Under spawn=auto: a call deferred while another worker is parked reaches that worker with
     * no request. The worker asked for work before it parked; the declaring worker answers that
     * request with "nothing to give" first (as a call deep in its recursion would), so only the
     * deferral itself can wake the parked worker. Before the fix the call stayed latent until the
     * declaring task read it.
     */
    @Test
    void aCallDeferredWhileAnotherWorkerIsParkedReachesIt() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "needs spawn=auto: always promotes every call, never defers none");
        Method m = wovenCorpusClass("Parked").getDeclaredMethod("deferWhileAnotherWorkerIsParked");
        SpindlePool pool = new SpindlePool(2);
        try {
            String[] names = pool.invoke(new Task<String[]>() {
                @Override
                protected String[] compute() throws Exception {
                    Worker me = (Worker) Thread.currentThread();
                    Worker other = Thread.getAllStackTraces().keySet().stream()
                            .filter(t -> t instanceof Worker w && w.pool() == pool && w != me)
                            .map(Worker.class::cast).findFirst().orElseThrow(() -> new AssertionError("no other worker"));
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    // Parked idle: it asked this worker for work on its way, and asks no more. Parked
                    // for the pool as well as for the JVM: a wake-up from this worker's own start
                    // (it was the last searcher when it found this task) moves the other worker to
                    // "searching" in the pool's count before the unpark reaches the thread — then the
                    // thread still looks WAITING, the deferral sees nobody parked, and the other worker,
                    // finding nothing, parks again while this one blocks on the latch below.
                    while (other.getState() != Thread.State.WAITING || LockSupport.getBlocker(other) != pool
                            || !pool.hasParkedWorkers()) {
                        if (System.nanoTime() - deadline > 0) {
                            throw new AssertionError(other.getName() + " did not park within 10 s: " + other.getState()
                                    + ", pool counts a parked worker: " + pool.hasParkedWorkers());
                        }
                        Thread.onSpinWait();
                    }
                    me.latentStack().serviceIfRequested();
                    try {
                        return new String[] {me.getName(), (String) m.invoke(null)};
                    } catch (InvocationTargetException e) {
                        throw new AssertionError(e.getCause().getMessage(), e.getCause());
                    }
                }
            });
            assertTrue(!names[0].equals(names[1]), "the deferred call ran on the declaring worker " + names[0]);
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "pool running deferWhileAnotherWorkerIsParked did not terminate within 30 s");
        }
    }

    /** A class of the corpus, compiled with {@code -g} and woven, in a loader of its own. */
    private static Class<?> wovenCorpusClass(String simpleName) throws Exception {
        Map<String, byte[]> woven = Corpus.weaveAll(Corpus.compile(Corpus.resourceDir("corpus/corpus"), "-g"));
        return Class.forName("corpus." + simpleName, true, new Corpus.Loader("woven-" + simpleName, woven));
    }

    /**
     * The unwoven outcome, or — for a shape whose future call throws where the serial code would
     * let it escape but the woven code raises it at a read inside a handler — the outcome the
     * directive's semantics define, declared by the corpus as {@code expect_<shape>}.
     */
    static String expectation(Class<?> shapes, String shape, String unwoven) throws ReflectiveOperationException {
        for (java.lang.reflect.Field f : shapes.getDeclaredFields()) {
            if (f.getName().equals("expect_" + shape)) {
                f.setAccessible(true);
                String e = (String) f.get(null);
                assertTrue(!e.equals(unwoven), shape + " declares an expectation equal to the serial outcome");
                return e;
            }
        }
        return unwoven;
    }

    /** The method's value, or its exception's class and message. */
    static String outcome(Method m) {
        try {
            Object r = m.invoke(null);
            return "value " + (r instanceof int[] a ? Arrays.toString(a) : Objects.toString(r));
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            return "threw " + t.getClass().getName() + ": " + t.getMessage();
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    static String onPool(int workers, Method m) throws InterruptedException {
        SpindlePool pool = new SpindlePool(workers);
        try {
            Task<String> t = new Task<>() {
                @Override
                protected String compute() {
                    return outcome(m);
                }
            };
            pool.submit(t);
            try {
                return t.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(m.getDeclaringClass().getName() + "." + m.getName() + " on a pool of " + workers
                        + " worker(s) did not finish within 60 s", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError(m.getName() + " failed outside its outcome", e.getCause());
            }
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "pool of " + workers + " running " + m.getName()
                    + " did not terminate within 30 s");
        }
    }
}
