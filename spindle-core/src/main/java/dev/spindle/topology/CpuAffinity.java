package dev.spindle.topology;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.BitSet;
import java.util.Locale;
import java.util.Optional;

/**
 * The CPU affinity of the calling thread, on Linux: which CPUs the kernel may run it on
 * ({@code sched_getaffinity} / {@code sched_setaffinity} with pid 0, i.e. the calling thread).
 * Seed 003, §5.2 asks for a way to bind Java threads to processors; {@code SpindlePool}'s optional
 * worker pinning is built on this.
 *
 * <p><b>How the call is made.</b> Through the Foreign Function &amp; Memory API
 * ({@code java.lang.foreign}), final since JDK 22. Spindle compiles with {@code --release 21},
 * where that API is still a preview, so this class reaches it by reflection once, at class
 * initialization, and keeps two {@link MethodHandle}s; each call then allocates a 128-byte (or
 * larger) mask in a confined arena. The alternatives were rejected for spindle-core, which has no
 * runtime dependencies: OpenHFT's Java-Thread-Affinity and JNA would each add a library (and JNA
 * a native one) for two system calls. On JDK 21, on other operating systems, or where the symbols
 * cannot be linked, {@link #isSupported()} is false and {@link #unsupportedReason()} says why.
 *
 * <p>JDK 22+ prints a warning the first time a restricted FFM method is used unless the JVM runs
 * with {@code --enable-native-access=ALL-UNNAMED} (or the module's name); {@code ./spindle} and the
 * build's tests pass it.
 *
 * <pre>{@code
 * if (CpuAffinity.isSupported()) {
 *     BitSet before = CpuAffinity.ofCurrentThread();    // e.g. {0, 1}
 *     CpuAffinity.setCurrentThread(BitSet.valueOf(new long[]{0b10}));   // CPU 1 only
 *     CpuAffinity.setCurrentThread(before);
 * }
 * }</pre>
 */
public final class CpuAffinity {

    private static final Native NATIVE;
    private static final String UNSUPPORTED;

    static {
        Native n = null;
        String why;
        String os = System.getProperty("os.name", "?");
        int feature = Runtime.version().feature();
        if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
            why = "CPU affinity uses sched_setaffinity, which only Linux has; this is " + os;
        } else if (feature < 22) {
            why = "CPU affinity calls the FFM API, final from JDK 22; this JVM is " + Runtime.version();
        } else {
            try {
                n = new Native();
                why = null;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                Throwable c = e.getCause() != null ? e.getCause() : e;
                why = "could not link sched_setaffinity through the FFM API: " + c;
            }
        }
        NATIVE = n;
        UNSUPPORTED = why;
    }

    private CpuAffinity() {
    }

    /**
     * Whether this JVM can read and set thread affinity.
     *
     * @return true on Linux with JDK 22 or later
     */
    public static boolean isSupported() {
        return NATIVE != null;
    }

    /**
     * Why {@link #isSupported()} is false.
     *
     * @return the reason, or null if supported
     */
    public static String unsupportedReason() {
        return UNSUPPORTED;
    }

    /**
     * The CPUs the calling thread may run on.
     *
     * @return a new set of CPU numbers
     * @throws UnsupportedOperationException if not {@link #isSupported() supported}, with the reason
     * @throws IllegalStateException         if the system call fails, naming errno
     */
    public static BitSet ofCurrentThread() {
        return supported().get();
    }

    /**
     * Restricts the calling thread to {@code cpus}.
     *
     * @param cpus CPU numbers, not empty
     * @throws IllegalArgumentException      if cpus is empty
     * @throws UnsupportedOperationException if not {@link #isSupported() supported}, with the reason
     * @throws IllegalStateException         if the kernel refuses (for example a CPU that is offline or
     *                                       outside the process's cpuset), naming the CPUs and errno
     */
    public static void setCurrentThread(BitSet cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("empty CPU set: a thread must be allowed at least one CPU");
        }
        supported().set(cpus);
    }

    /**
     * The CPU the calling thread is running on ({@code sched_getcpu}); it may have moved by the time
     * the caller looks at the answer.
     *
     * @return a CPU number
     * @throws UnsupportedOperationException if not {@link #isSupported() supported}, with the reason
     */
    public static int currentCpu() {
        return supported().currentCpu();
    }

    /**
     * Prepares {@code cpus} as a {@link Binding}: a CPU set the calling thread can later be
     * restricted to with one system call and no allocation.
     *
     * @param cpus CPU numbers, not empty
     * @return the prepared set
     * @throws IllegalArgumentException      if cpus is empty
     * @throws UnsupportedOperationException if not {@link #isSupported() supported}, with the reason
     */
    public static Binding binding(BitSet cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("empty CPU set: a thread must be allowed at least one CPU");
        }
        return supported().binding(cpus);
    }

    /**
     * The calling thread's kernel thread id ({@code gettid}), which {@link Binding#applyToThread}
     * takes.
     *
     * @return the thread id
     * @throws UnsupportedOperationException if not {@link #isSupported() supported}, or if the C
     *                                       library has no {@code gettid}, with the reason
     */
    public static int currentThreadId() {
        return supported().currentThreadId();
    }

    /**
     * A CPU set prepared once, in native memory, that a thread can be restricted to with one
     * {@code sched_setaffinity} call, no allocation and no reflection. A worker's idle path uses
     * these ({@code SpindlePool}'s park binding).
     */
    public static final class Binding {
        private final MethodHandle apply;           // (int tid) -> int
        private final BitSet cpus;

        Binding(MethodHandle apply, BitSet cpus) {
            this.apply = apply;
            this.cpus = (BitSet) cpus.clone();
        }

        /**
         * Restricts the calling thread to this set.
         *
         * @return true if the kernel accepted it; false if it refused (for example every CPU of
         *         the set went offline or left the process's cpuset), the affinity then unchanged
         */
        public boolean applyToCurrentThread() {
            return applyToThread(0);
        }

        /**
         * Restricts the thread with kernel id {@code tid} ({@link #currentThreadId()}) to this set.
         * If that thread is asleep, it will wake up on a CPU of the set.
         *
         * @param tid a kernel thread id of this process
         * @return true if the kernel accepted it; false if it refused (no such thread, or no CPU
         *         of the set allowed), the affinity then unchanged
         */
        public boolean applyToThread(int tid) {
            try {
                return (int) apply.invokeExact(tid) == 0;
            } catch (Throwable t) {
                throw new IllegalStateException("calling sched_setaffinity failed", t);
            }
        }

        /**
         * The CPUs of this set.
         *
         * @return a new copy
         */
        public BitSet cpus() {
            return (BitSet) cpus.clone();
        }

        @Override
        public String toString() {
            return "CpuAffinity.Binding" + cpus;
        }
    }

    private static Native supported() {
        if (NATIVE == null) {
            throw new UnsupportedOperationException(UNSUPPORTED);
        }
        return NATIVE;
    }

    /** The two linked calls and the reflective pieces of the FFM API they need. */
    private static final class Native {
        private static final int EINVAL = 22;
        private static final long MAX_MASK_BYTES = 1 << 16;

        private final MethodHandle getAffinity;
        private final MethodHandle setAffinity;
        /** {@code sched_setaffinity} without errno capture, for {@link Binding}s. */
        private final MethodHandle setAffinityPlain;
        private final MethodHandle getCpu;
        private final MethodHandle getTid;
        private final Method ofAuto;
        private final Method ofConfined;
        private final Method allocate;
        private final Method close;
        private final Method getLong;
        private final Method setLong;
        private final Method getInt;
        private final Object javaLong;
        private final Object javaInt;
        private final long stateBytes;
        private final long errnoOffset;

        Native() throws ReflectiveOperationException {
            Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
            Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
            Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
            Class<?> pathClass = Class.forName("java.lang.foreign.MemoryLayout$PathElement");
            Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
            Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
            Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
            Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
            Class<?> arenaClass = Class.forName("java.lang.foreign.Arena");
            Class<?> ofLong = Class.forName("java.lang.foreign.ValueLayout$OfLong");
            Class<?> ofInt = Class.forName("java.lang.foreign.ValueLayout$OfInt");

            Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
            Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
            javaInt = valueLayoutClass.getField("JAVA_INT").get(null);
            javaLong = valueLayoutClass.getField("JAVA_LONG").get(null);
            Object address = valueLayoutClass.getField("ADDRESS").get(null);

            // int sched_{get,set}affinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask), errno captured
            Object args = Array.newInstance(layoutClass, 3);
            Array.set(args, 0, javaInt);
            Array.set(args, 1, javaLong);
            Array.set(args, 2, address);
            Object descriptor = descriptorClass.getMethod("of", layoutClass, args.getClass()).invoke(null, javaInt, args);
            Object options = Array.newInstance(optionClass, 1);
            Array.set(options, 0, optionClass.getMethod("captureCallState", String[].class)
                    .invoke(null, (Object) new String[]{"errno"}));
            Object stateLayout = optionClass.getMethod("captureStateLayout").invoke(null);
            stateBytes = (long) layoutClass.getMethod("byteSize").invoke(stateLayout);
            Object path = Array.newInstance(pathClass, 1);
            Array.set(path, 0, pathClass.getMethod("groupElement", String.class).invoke(null, "errno"));
            errnoOffset = (long) layoutClass.getMethod("byteOffset", path.getClass()).invoke(stateLayout, path);

            Method find = lookupClass.getMethod("find", String.class);
            Method downcall = linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass, options.getClass());
            getAffinity = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "sched_getaffinity"), descriptor, options);
            setAffinity = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "sched_setaffinity"), descriptor, options);

            Object noOptions = Array.newInstance(optionClass, 0);
            setAffinityPlain = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "sched_setaffinity"), descriptor, noOptions);
            Object intOnly = descriptorClass.getMethod("of", layoutClass, Array.newInstance(layoutClass, 0).getClass())
                    .invoke(null, javaInt, Array.newInstance(layoutClass, 0));
            getCpu = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "sched_getcpu"), intOnly, noOptions);
            Optional<?> tid = (Optional<?>) find.invoke(lookup, "gettid");     // glibc 2.30+; optional
            getTid = tid.isPresent() ? (MethodHandle) downcall.invoke(linker, tid.get(), intOnly, noOptions) : null;
            ofAuto = arenaClass.getMethod("ofAuto");
            ofConfined = arenaClass.getMethod("ofConfined");
            allocate = arenaClass.getMethod("allocate", long.class, long.class);
            close = arenaClass.getMethod("close");
            getLong = segmentClass.getMethod("get", ofLong, long.class);
            setLong = segmentClass.getMethod("set", ofLong, long.class, long.class);
            getInt = segmentClass.getMethod("get", ofInt, long.class);
            get();                                    // fail here, not at first use, if the call does not work
        }

        private static Object symbol(Method find, Object lookup, String name) throws ReflectiveOperationException {
            Optional<?> s = (Optional<?>) find.invoke(lookup, name);
            return s.orElseThrow(() -> new IllegalStateException("symbol " + name + " not found in the C library"));
        }

        BitSet get() {
            for (long bytes = 128; ; bytes *= 2) {
                try (Mask m = new Mask(bytes)) {
                    int rc = m.call(getAffinity);
                    if (rc == 0) {
                        return m.read();
                    }
                    int errno = m.errno();
                    if (errno != EINVAL || bytes >= MAX_MASK_BYTES) {
                        throw new IllegalStateException("sched_getaffinity failed, errno " + errno);
                    }
                }                                     // EINVAL: the kernel's mask is larger; retry
            }
        }

        int currentCpu() {
            try {
                return (int) getCpu.invokeExact();
            } catch (Throwable t) {
                throw new IllegalStateException("calling sched_getcpu failed", t);
            }
        }

        int currentThreadId() {
            if (getTid == null) {
                throw new UnsupportedOperationException("this C library has no gettid (glibc 2.30 or later has)");
            }
            try {
                return (int) getTid.invokeExact();
            } catch (Throwable t) {
                throw new IllegalStateException("calling gettid failed", t);
            }
        }

        Binding binding(BitSet cpus) {
            long bytes = Math.max(128, ((cpus.length() + 63) / 64) * 8L);
            try {
                Object arena = ofAuto.invoke(null);  // freed with the last Binding that reaches it
                Object mask = allocate.invoke(arena, bytes, 8L);
                long[] words = cpus.toLongArray();
                for (int i = 0; i < words.length; i++) {
                    setLong.invoke(mask, javaLong, 8L * i, words[i]);
                }
                MethodHandle bound = MethodHandles.insertArguments(setAffinityPlain, 1, bytes, mask);
                return new Binding(bound, cpus);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("preparing the CPU mask " + cpus + " failed", e);
            }
        }

        void set(BitSet cpus) {
            long bytes = Math.max(128, ((cpus.length() + 63) / 64) * 8L);
            try (Mask m = new Mask(bytes)) {
                m.write(cpus);
                int rc = m.call(setAffinity);
                if (rc != 0) {
                    throw new IllegalStateException("sched_setaffinity(" + cpus + ") failed, errno " + m.errno()
                            + (m.errno() == EINVAL ? " (EINVAL: no CPU of the set is online and allowed to this process)" : ""));
                }
            }
        }

        /** A CPU mask and an errno slot, in a confined arena closed after the call. */
        private final class Mask implements AutoCloseable {
            private final Object arena;
            private final Object mask;
            private final Object state;
            private final long bytes;

            Mask(long bytes) {
                this.bytes = bytes;
                try {
                    arena = ofConfined.invoke(null);
                    mask = allocate.invoke(arena, bytes, 8L);
                    state = allocate.invoke(arena, Math.max(stateBytes, 8L), 8L);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("FFM allocation failed", e);
                }
            }

            int call(MethodHandle h) {
                try {
                    return (int) h.invokeWithArguments(state, 0, bytes, mask);
                } catch (Throwable t) {
                    throw new IllegalStateException("calling the C library failed", t);
                }
            }

            BitSet read() {
                long[] words = new long[(int) (bytes / 8)];
                try {
                    for (int i = 0; i < words.length; i++) {
                        words[i] = (long) getLong.invoke(mask, javaLong, 8L * i);
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("reading the CPU mask failed", e);
                }
                return BitSet.valueOf(words);         // cpu_set_t is an array of unsigned longs, CPU 0 = bit 0
            }

            void write(BitSet cpus) {
                long[] words = cpus.toLongArray();
                try {
                    for (int i = 0; i < words.length; i++) {
                        setLong.invoke(mask, javaLong, 8L * i, words[i]);
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("writing the CPU mask failed", e);
                }
            }

            int errno() {
                try {
                    return (int) getInt.invoke(state, javaInt, errnoOffset);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("reading errno failed", e);
                }
            }

            @Override
            public void close() {
                try {
                    close.invoke(arena);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("closing the arena failed", e);
                }
            }
        }
    }
}
