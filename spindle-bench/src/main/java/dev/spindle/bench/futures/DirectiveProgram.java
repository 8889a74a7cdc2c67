package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;
import dev.spindle.bench.suite.Variants;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.weaver.ClassHierarchy;
import dev.spindle.weaver.Weaver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A program of the {@code directive} suite: {@link DirectiveCode} woven by the Maven plugin
 * ({@code spindle-directive}), the same class unwoven ({@code seq}) and, where the weaver tests a
 * recursion's base case at its calls, unwoven but given that rewrite ({@code seq-base-case}: no
 * target's baseline, the sequential time the rewrite alone reaches), and the futures suite's
 * object-API version ({@code spindle-object}) and tuned ForkJoinPool baseline ({@code fjp-tuned}),
 * on the same inputs.
 *
 * @param <I> input
 * @param <R> result
 */
public final class DirectiveProgram<I, R> implements Benchmark<I, R> {
    /** Where the plugin keeps the original bytes of the classes it wove (see spindle-bench's pom). */
    static final String UNWOVEN = "META-INF/spindle-unwoven/";

    private final FutureProgram<I, R> program;
    private final DirectiveCode<I, R> woven;
    private final DirectiveCode<I, R> unwoven;
    /** The unwoven copy given the weaver's base-case rewrite alone, or null where it rewrites nothing. */
    private final DirectiveCode<I, R> baseCaseAtCall;

    DirectiveProgram(FutureProgram<I, R> program, DirectiveCode<I, R> woven) {
        this.program = program;
        this.woven = woven;
        this.unwoven = unwovenCopy(woven, false);
        this.baseCaseAtCall = unwovenCopy(woven, true);
    }

    /**
     * The class of {@code woven} defined again from its unwoven copy (the suite's {@code seq}), or
     * with {@code baseCaseAtCall} given the weaver's base-case rewrite alone (null where that
     * rewrites nothing).
     */
    @SuppressWarnings("unchecked")
    static <I, R> DirectiveCode<I, R> unwovenCopy(DirectiveCode<I, R> woven, boolean baseCaseAtCall) {
        try {
            UnwovenLoader loader = new UnwovenLoader(woven.getClass().getName(), baseCaseAtCall);
            Class<?> c = loader.loadClass(woven.getClass().getName());
            if (baseCaseAtCall && !loader.rewritten) {
                return null;
            }
            return (DirectiveCode<I, R>) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load the unwoven copy of " + woven.getClass().getName(), e);
        }
    }

    @Override
    public String name() {
        return program.name();
    }

    @Override
    public I prepare(Size size) {
        return program.prepare(size);
    }

    @Override
    public I fresh(I input) {
        return program.fresh(input);
    }

    @Override
    public String mismatch(R expected, R actual) {
        return program.mismatch(expected, actual);
    }

    @Override
    public String describe(Size size) {
        return program.describe(size).replace("a future at every call", "@Future at every call")
                + "; written as serial code + @Future";
    }

    @Override
    public List<Variant<I, R>> variants() {
        List<Variant<I, R>> v = new ArrayList<>();
        v.add(Variants.seq(unwoven::run));
        if (baseCaseAtCall != null) {
            // not a baseline of any target: the sequential code given the weaver's base-case
            // rewrite, beside which a woven time shows what the futures cost apart from it
            v.add(Variants.simple("seq-base-case", baseCaseAtCall::run));
        }
        java.util.concurrent.atomic.AtomicLong potential = new java.util.concurrent.atomic.AtomicLong();
        v.add(Variants.pooled("spindle-directive", Variants::spindlePool, (pool, in) -> {
            R r = pool.invoke(new Task<R>() {
                @Override
                protected R compute() {
                    return woven.run(in);
                }
            });
            potential.addAndGet(woven.potentialFutures(in));
            return r;
        }, pool -> counters(pool, potential.get())));
        for (Variant<I, R> p : program.variants()) {
            if (p.name().equals("spindle")) {
                v.add(p.named("spindle-object"));
            } else if (p.name().equals("fjp-tuned")) {
                v.add(p);
            }
        }
        return v;
    }

    /** The futures suite's counters, with {@code futures} = potential futures (the runtime counts only deferred calls). */
    private static Map<String, Long> counters(SpindlePool pool, long potentialFutures) {
        Map<String, Long> m = FutureProgram.spindleCounters(pool);
        long deferred = m.get("futures");
        m.remove("futures_inline");
        m.put("futures", potentialFutures);
        m.put("futures_deferred", deferred);
        return m;
    }

    /** Defines one class from its unwoven copy; everything else comes from the application loader. */
    private static final class UnwovenLoader extends ClassLoader {
        private final String name;
        private final boolean baseCaseAtCall;
        boolean rewritten;

        UnwovenLoader(String name, boolean baseCaseAtCall) {
            super("unwoven", DirectiveProgram.class.getClassLoader());
            this.name = name;
            this.baseCaseAtCall = baseCaseAtCall;
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            if (!n.equals(name)) {
                return super.loadClass(n, resolve);
            }
            synchronized (getClassLoadingLock(n)) {
                Class<?> c = findLoadedClass(n);
                if (c == null) {
                    String path = UNWOVEN + n.replace('.', '/') + ".class";
                    try (InputStream in = getParent().getResourceAsStream(path)) {
                        if (in == null) {
                            throw new ClassNotFoundException(n + ": no unwoven copy at " + path
                                    + " (is spindle-bench built with spindle-maven-plugin's unwovenCopies?)");
                        }
                        byte[] b = in.readAllBytes();
                        if (baseCaseAtCall) {
                            byte[] r = new Weaver(ClassHierarchy.ofLoader(getParent())).baseCasesAtCallsOnly(b);
                            rewritten = r != null;
                            b = r != null ? r : b;
                        }
                        c = defineClass(n, b, 0, b.length);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return c;
            }
        }
    }
}
