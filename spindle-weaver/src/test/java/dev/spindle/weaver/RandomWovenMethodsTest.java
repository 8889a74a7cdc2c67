package dev.spindle.weaver;

import dev.spindle.Spindle;
import dev.spindle.future.SpawnMode;
import dev.spindle.future.UntouchedFailureHandler;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random methods with {@code @Future} locals ({@link RandomMethods}): each program is compiled by
 * javac (half with {@code -g}, half without a LocalVariableTable), woven, and every method run
 * from several inputs — unwoven against the interpreter's serial semantics (which checks the
 * generator and the model), and woven on the calling thread and on pools of 1 and 2 workers, twice
 * each, against the interpreter's directive semantics. Each program is also woven twice (the same
 * bytes) and its woven classes again (unchanged). Surefire runs this class under spawn=auto, always
 * and never, as it does the conformance corpus. A failure, a hang or a refusal names the seed, the
 * program's class and method, the input and the program's source.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RandomWovenMethodsTest {
    /** Programs per run ({@code -Dspindle.test.randomMethods}); a soak run raises it. */
    private static final int PROGRAMS = Integer.getInteger("spindle.test.randomMethods", 120);
    /** The generator's seed ({@code -Dspindle.test.seed}, default 0): a failure names it to replay. */
    private static final long SEED = Long.getLong("spindle.test.seed", 0L);
    /** Each method runs at depth 3 from these inputs, and at depth 5 (up to ~8,000 calls) from the first. */
    private static final long[] INPUTS = {0, 1, 7, 1234, -99};
    private static final int DEPTH = 3;
    private static final int DEEP = 5;

    @Test
    void wovenMethodsMatchTheDirectiveSemanticsAndUnwovenOnesJava() throws Exception {
        SplittableRandom r = new SplittableRandom(0x5eedL + SEED);
        List<RandomMethods.Program> programs = new ArrayList<>();
        for (int i = 0; i < PROGRAMS; i++) {
            programs.add(RandomMethods.generate(r.split(), "Random" + i));
        }
        Map<String, byte[]> plain = new LinkedHashMap<>();
        plain.putAll(compile(everyOther(programs, 0), "-g"));
        plain.putAll(compile(everyOther(programs, 1), "-g:lines,source"));
        Map<String, byte[]> woven = weave(programs, plain, true);
        Corpus.Loader plainLoader = new Corpus.Loader("plain-random", plain);
        Corpus.Loader wovenLoader = new Corpus.Loader("woven-random", woven);

        SpindlePool one = new SpindlePool(1);
        SpindlePool two = new SpindlePool(2);
        // object-API futures that fail untouched are the programs' design, not news: counted, not logged
        AtomicLong untouched = new AtomicLong();
        UntouchedFailureHandler count = (future, failure) -> untouched.incrementAndGet();
        for (SpindlePool pool : new SpindlePool[] {one, two, Spindle.defaultPool()}) {
            pool.setUntouchedFailureHandler(count);
        }
        int[] tally = new int[2];
        try {
            for (int i = 0; i < programs.size(); i++) {
                RandomMethods.Program p = programs.get(i);
                String mismatch;
                try {
                    Class<?> plainClass = Class.forName("random." + p.className(), true, plainLoader);
                    Class<?> wovenClass = Class.forName("random." + p.className(), true, wovenLoader);
                    mismatch = check(p, plainClass, wovenClass, one, two, tally);
                } catch (LinkageError e) {
                    mismatch = p.className() + " does not load: " + e;       // the class format, or the verifier
                }
                if (mismatch != null) {
                    String debug = i % 2 == 0 ? "-g" : "-g:lines,source";
                    RandomMethods.Program small = minimize(p, debug, one, two);
                    fail(mismatch + "\n" + context(p) + "\nThe same failure with " + RandomMethods.size(small) + " of its "
                            + RandomMethods.size(p) + " statements (javac " + debug + "): "
                            + checkOrThrown(small, debug, one, two) + "\n" + small.source());
                }
            }
        } finally {
            Spindle.defaultPool().setUntouchedFailureHandler(UntouchedFailureHandler.LOG);
            one.shutdown();
            two.shutdown();
            assertTrue(one.awaitTermination(30, TimeUnit.SECONDS), "the pool of 1 worker did not terminate within 30 s");
            assertTrue(two.awaitTermination(30, TimeUnit.SECONDS), "the pool of 2 workers did not terminate within 30 s");
        }
        int runs = tally[0];
        int failures = tally[1];
        // The generator must keep producing both outcomes, or half of what this test checks is idle.
        assertTrue(failures > runs / 20 && failures < runs - runs / 20,
                "of " + runs + " runs, " + failures + " fail under the directive semantics: the generator lost its balance");
    }

    /**
     * Runs every method of {@code p} from every input: unwoven against the model's serial
     * semantics, woven on the calling thread and twice on each pool against its directive
     * semantics. Returns the first disagreement, or null; {@code tally} counts runs and failing runs.
     */
    private static String check(RandomMethods.Program p, Class<?> plainClass, Class<?> wovenClass, SpindlePool one, SpindlePool two,
            int[] tally) throws Exception {
        Object plainTarget = p.instance() ? plainClass.getConstructor().newInstance() : null;
        Object wovenTarget = p.instance() ? wovenClass.getConstructor().newInstance() : null;
        for (RandomMethods.Method m : p.methods()) {
            Method unwoven = plainClass.getMethod("m" + m.id(), m.parameterTypes());
            Method woven = wovenClass.getMethod("m" + m.id(), m.parameterTypes());
            for (int run = 0; run <= INPUTS.length; run++) {
                long a = INPUTS[run % INPUTS.length];
                int d = run < INPUTS.length ? DEPTH : DEEP;
                Object[] args = m.entryArguments(d, a);
                String where = p.className() + ".m" + m.id() + Arrays.toString(args);
                String serial = RandomMethods.outcome(p, RandomMethods.Semantics.SERIAL, m.id(), d, a);
                String actual = outcome(unwoven, plainTarget, args);
                if (!serial.equals(actual)) {
                    return where + " unwoven: " + actual + ", but the model's serial semantics give " + serial
                            + " (the generator or the model is wrong)";
                }
                String directive = RandomMethods.outcome(p, RandomMethods.Semantics.DIRECTIVE, m.id(), d, a);
                tally[0]++;
                tally[1] += directive.startsWith("threw") ? 1 : 0;
                actual = outcome(woven, wovenTarget, args);
                if (!directive.equals(actual)) {
                    return where + " woven, on the calling thread: " + actual + ", expected " + directive;
                }
                for (int round = 0; round < 2; round++) {
                    for (SpindlePool pool : new SpindlePool[] {one, two}) {
                        actual = onPool(pool, woven, wovenTarget, args, where, p);
                        if (!directive.equals(actual)) {
                            return where + " woven, on a pool of " + pool.parallelism() + " worker(s), round " + round + ": "
                                    + actual + ", expected " + directive;
                        }
                    }
                }
            }
        }
        return null;
    }

    /** {@link #check} of one program compiled and woven alone; a refusal is a disagreement too. */
    private static String check(RandomMethods.Program p, String debug, SpindlePool one, SpindlePool two) throws Exception {
        Map<String, byte[]> plain = compile(List.of(p), debug);
        Map<String, byte[]> woven = weave(List.of(p), plain, false);
        String name = "random." + p.className();
        return check(p, Class.forName(name, true, new Corpus.Loader("plain-min", plain)),
                Class.forName(name, true, new Corpus.Loader("woven-min", woven)), one, two, new int[2]);
    }

    private static String checkOrThrown(RandomMethods.Program p, String debug, SpindlePool one, SpindlePool two) {
        try {
            return check(p, debug, one, two);
        } catch (Exception | LinkageError | AssertionError e) {
            return e.toString();
        }
    }

    /**
     * The failing program made smaller, a statement at a time, while it still fails (any
     * disagreement counts): bounded to 60 s, it reports whatever it reached.
     */
    private static RandomMethods.Program minimize(RandomMethods.Program p, String debug, SpindlePool one, SpindlePool two) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        RandomMethods.Program current = p;
        boolean shrunk = true;
        while (shrunk && System.nanoTime() - deadline < 0) {
            shrunk = false;
            for (RandomMethods.Program candidate : RandomMethods.smaller(current)) {
                if (System.nanoTime() - deadline > 0) {
                    break;
                }
                String m = checkOrThrown(candidate, debug, one, two);
                if (m != null) {
                    current = candidate;
                    shrunk = true;
                    break;
                }
            }
        }
        return current;
    }

    private static List<RandomMethods.Program> everyOther(List<RandomMethods.Program> programs, int parity) {
        List<RandomMethods.Program> out = new ArrayList<>();
        for (int i = parity; i < programs.size(); i += 2) {
            out.add(programs.get(i));
        }
        return out;
    }

    private static String context(RandomMethods.Program p) {
        return "seed " + SEED + " (-Dspindle.test.seed), spawn=" + SpawnMode.current().name().toLowerCase() + ", source:\n" + p.source();
    }

    /** Compiles the programs in one javac run. */
    private static Map<String, byte[]> compile(List<RandomMethods.Program> programs, String debug) throws IOException {
        Path dir = Files.createTempDirectory("spindle-random-methods");
        try {
            Files.createDirectories(dir.resolve("random"));
            for (RandomMethods.Program p : programs) {
                Files.writeString(dir.resolve("random").resolve(p.className() + ".java"), p.source(), StandardCharsets.UTF_8);
            }
            return Corpus.compile(dir, debug);
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }

    /**
     * Weaves each class (a program's nested classes too), twice (deterministic), and its woven
     * bytes again (idempotent). A refusal fails the test.
     */
    private static Map<String, byte[]> weave(List<RandomMethods.Program> programs, Map<String, byte[]> plain, boolean mostWoven) {
        Weaver w = new Weaver(ClassHierarchy.ofLoader(RandomWovenMethodsTest.class.getClassLoader()).withFirst(plain::get));
        Map<String, RandomMethods.Program> byName = new LinkedHashMap<>();
        for (RandomMethods.Program p : programs) {
            byName.put("random/" + p.className(), p);
        }
        Map<String, byte[]> out = new LinkedHashMap<>();
        java.util.Set<String> woven = new java.util.HashSet<>();
        for (Map.Entry<String, byte[]> e : plain.entrySet()) {
            String name = e.getKey();
            int nested = name.indexOf('$');
            String top = nested < 0 ? name : name.substring(0, nested);
            RandomMethods.Program p = byName.getOrDefault(top, byName.get(top.replaceFirst("Api$", "")));
            byte[] in = e.getValue();
            WeaveResult first = w.weave(in);
            if (!first.refusals().isEmpty()) {
                fail(name + ": refused " + first.refusals() + "\n" + context(p));
            }
            if (!first.changed()) {
                // javac records no variable whose range is empty: a @Future declaration that ends
                // its block unread leaves no trace in the class file, and its call stays serial.
                out.put(name, in);
                continue;
            }
            woven.add(p.className());
            assertArrayEquals(first.bytes(), w.weave(in).bytes(), () -> name + ": weaving twice gave different bytes\n" + context(p));
            WeaveResult again = w.weave(first.bytes());
            assertFalse(again.changed(), () -> name + ": weaving the woven class changed it\n" + context(p));
            out.put(name, first.bytes());
        }
        assertTrue(!mostWoven || woven.size() > programs.size() * 3 / 4,
                "only " + woven.size() + " of " + programs.size() + " programs had a woven method");
        return out;
    }

    /** The value, or the exception's class and message (and, unless it is a program's failure, its stack). */
    private static String outcome(Method m, Object target, Object[] args) {
        try {
            return "value " + m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            return "threw " + t.getClass().getName() + ": " + t.getMessage()
                    + ("boom".equals(t.getMessage()) ? "" : " " + Arrays.toString(t.getStackTrace()));
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static String onPool(SpindlePool pool, Method m, Object target, Object[] args, String where, RandomMethods.Program p)
            throws InterruptedException {
        Task<String> t = new Task<>() {
            @Override
            protected String compute() {
                return outcome(m, target, args);
            }
        };
        pool.submit(t);
        try {
            return t.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(where + " on a pool of " + pool.parallelism() + " worker(s) did not finish within 30 s\n"
                    + context(p), e);
        } catch (ExecutionException e) {
            throw new AssertionError(where + " failed outside its outcome\n" + context(p), e.getCause());
        }
    }
}
