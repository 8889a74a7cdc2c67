package dev.spindle.runtime;

import dev.spindle.topology.CpuAffinity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.BitSet;

/**
 * Park binding: while a worker is parked it is bound to the CPU it parked on, so that its wake-up
 * puts it back on that CPU and not on the CPU of the thread that woke it.
 *
 * <h2>Why</h2>
 * Linux places a woken thread on the waker's CPU or on the thread's previous one, and takes another
 * CPU only if it believes that one idle. In a virtual machine whose halted vCPUs the guest kernel
 * sees as preempted (this project's 2-vCPU Firecracker/KVM guest), it believes no CPU idle: a worker
 * parked for 20 ms and woken by a busy thread landed on the waker's vCPU in 22 of 30 wake-ups, with
 * the other vCPU idle, and stayed there for the next 2 ms (docs/PERFORMANCE.md, loops suite, "Park
 * binding"). The worker that shared a parallel loop's members and the worker
 * woken to take them then time-share one vCPU, and the loop runs at one-worker speed. A thread
 * whose affinity allows one CPU is placed on that CPU: bound while it sleeps, the worker wakes where
 * it last ran.
 *
 * <h2>Protocol</h2>
 * Only the worker changes its own affinity, and never while it runs a task. Just before it parks
 * (after the idle protocol's re-check, see {@link IdleProtocol#park}) it restricts itself to the
 * CPU {@code sched_getcpu} reports; as soon as it leaves the park loop, for whatever reason, it
 * restores the CPU set it had when it started, before it looks for work. Each is one
 * {@code sched_setaffinity} call on a mask prepared in native memory ({@link CpuAffinity.Binding}):
 * about 3 µs to bind and 4–5 µs to restore here, on the idle path and the woken worker's own time,
 * nothing on the waker's.
 *
 * <p>The bound CPU may be the waker's own: two workers that last ran time-sharing one CPU park
 * bound to it. A worker waking another therefore prefers a parked worker bound elsewhere
 * ({@link IdleProtocol}'s wake-up), and if there is none it first <em>steers</em> the one it wakes:
 * it restricts that sleeping thread to the worker's CPUs minus its own ({@link #steerAwayFrom},
 * ~20 µs, paid only then). Steering and the owner's restore exclude each other through
 * {@code phase} (a CAS each, on the idle path only): the waker steers only while the owner is still
 * bound, and the owner restores only when no steering is in progress, so a steer can never land
 * after the restore and leave a running worker restricted.
 *
 * <p>Pinned workers ({@link SpindlePool#setWorkerPinning}) are bound already
 * and skip both. A failed bind leaves the worker as it was; a failed restore (the CPU set it
 * started with is no longer allowed: the process's cpuset changed) falls back to every CPU the
 * kernel allows, logs a WARNING and turns park binding off for the pool. A task that changes its
 * worker's affinity itself has it reset to the starting set at the worker's next park (use
 * {@link SpindlePool#setWorkerPinning} to place workers, or turn park binding off).
 *
 * <h2>When it is on</h2>
 * {@code -Dspindle.parkBinding=true|false} sets it for every pool; {@link SpindlePool#setParkBinding}
 * for one. Unset, it is on where {@link CpuAffinity#isSupported() affinity can be set} (Linux,
 * JDK 22+) and the JVM was started with native access enabled for Spindle
 * ({@code --enable-native-access}), so that it never makes the JVM print a restricted-method
 * warning; otherwise off. It changes where a worker sleeps, not where it runs: unlike pinning, a
 * woken worker may run on any CPU it was allowed before.
 */
class ParkBinding {
    static final String PROPERTY = "spindle.parkBinding";

    private static final System.Logger LOG = System.getLogger(ParkBinding.class.getName());

    /** The CPU set the worker started with; null if park binding cannot apply to it. */
    private final CpuAffinity.Binding home;
    private final BitSet homeCpus;
    /** Single-CPU bindings, by CPU number, prepared on first use. */
    private final CpuAffinity.Binding[] single;
    /** "Its CPUs minus CPU i", by i, prepared on first use by a steering waker. */
    private final CpuAffinity.Binding[] allBut;
    /** The worker's kernel thread id, for steering; 0 if unknown (then it is never steered). */
    private final int tid;
    /** The CPU the worker is bound to while parked, or -1. Written under {@code phase}. */
    private volatile int boundCpu = -1;
    /** FREE, STEERING (a waker is changing the sleeper's affinity) or RESTORING (its owner is). */
    private volatile int phase;

    private static final int FREE = 0;
    private static final int STEERING = 1;
    private static final int RESTORING = 2;
    private static final VarHandle PHASE;

    static {
        try {
            PHASE = MethodHandles.lookup().findVarHandle(ParkBinding.class, "phase", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ParkBinding(CpuAffinity.Binding home, int tid) {
        this.home = home;
        this.homeCpus = home == null ? null : home.cpus();
        this.single = home == null ? null : new CpuAffinity.Binding[homeCpus.length()];
        this.allBut = home == null ? null : new CpuAffinity.Binding[homeCpus.length()];
        this.tid = tid;
    }

    /**
     * For tests of the steer / restore exclusion (jcstress): a binding already bound to
     * {@code cpu}, whose system calls {@link #restoreHome} and {@link #steer} a subclass replaces.
     */
    ParkBinding(int tid, int cpu) {
        this.home = null;
        this.homeCpus = null;
        this.single = null;
        this.allBut = null;
        this.tid = tid;
        this.boundCpu = cpu;
    }

    /** Binding that never binds: affinity unsupported, or a worker allowed a single CPU. */
    static final ParkBinding NONE = new ParkBinding(null, 0);

    /**
     * Prepares park binding for the calling worker thread from its current affinity.
     *
     * @return a binding, or {@link #NONE} where it cannot apply
     */
    static ParkBinding ofCurrentThread() {
        if (!CpuAffinity.isSupported()) {
            return NONE;
        }
        try {
            BitSet cpus = CpuAffinity.ofCurrentThread();
            if (cpus.cardinality() < 2) {
                return NONE;
            }
            int tid;
            try {
                tid = CpuAffinity.currentThreadId();
            } catch (UnsupportedOperationException e) {
                tid = 0;                            // binds and restores, but is never steered
            }
            return new ParkBinding(CpuAffinity.binding(cpus), tid);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, () -> Thread.currentThread().getName()
                    + " cannot read its CPU affinity and parks unbound: " + e.getMessage(), e);
            return NONE;
        }
    }

    /**
     * The default for new pools: the system property if set, else on where supported and native
     * access is enabled.
     *
     * @throws IllegalStateException if the property is neither true nor false
     */
    static boolean configuredDefault() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) {
            return nativeAccessEnabled() && CpuAffinity.isSupported();
        }
        if (v.trim().equalsIgnoreCase("true")) {
            return true;
        }
        if (v.trim().equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalStateException("-D" + PROPERTY + "=" + v + " is not true or false");
    }

    /**
     * Whether Spindle's module may call restricted FFM methods without a warning
     * ({@code Module.isNativeAccessEnabled}, JDK 22+; read reflectively since we compile for 21).
     * Checked before anything links a native call.
     */
    static boolean nativeAccessEnabled() {
        try {
            Object on = Module.class.getMethod("isNativeAccessEnabled").invoke(ParkBinding.class.getModule());
            return Boolean.TRUE.equals(on);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Binds the calling worker to its current CPU, just before it parks.
     *
     * @param w the calling worker
     * @return true if bound; the caller must then {@link #unbind} when it stops parking
     */
    boolean bind(Worker w) {
        if (home == null || w.pinnedCpu() >= 0 || !w.pool.isParkBinding()) {
            return false;
        }
        try {
            int cpu = CpuAffinity.currentCpu();
            if (cpu < 0 || cpu >= single.length || !homeCpus.get(cpu)) {
                return false;                       // not a CPU it started with: leave it alone
            }
            CpuAffinity.Binding one = single[cpu];
            if (one == null) {
                BitSet b = new BitSet();
                b.set(cpu);
                single[cpu] = one = CpuAffinity.binding(b);
            }
            if (!one.applyToCurrentThread()) {
                return false;
            }
            boundCpu = cpu;                         // owner only, and nobody steers an unbound worker
            return true;
        } catch (RuntimeException e) {
            w.pool.setParkBinding(false);
            LOG.log(System.Logger.Level.WARNING, () -> w.getName() + " could not bind itself while parked;"
                    + " park binding is off for its pool: " + e.getMessage(), e);
            return false;
        }
    }

    /**
     * Restores the calling worker's CPU set after a {@link #bind}, before it looks for work.
     *
     * @param w the calling worker
     */
    void unbind(Worker w) {
        while (!PHASE.compareAndSet(this, FREE, RESTORING)) {
            Thread.onSpinWait();                    // a waker is steering us: ~20 µs at most
        }
        boundCpu = -1;
        boolean ok = restoreHome();
        phase = FREE;
        if (ok) {
            return;
        }
        w.pool.setParkBinding(false);
        BitSet any = new BitSet();
        any.set(0, Math.max(homeCpus.length(), Runtime.getRuntime().availableProcessors()) + 1024);
        boolean restored = CpuAffinity.binding(any).applyToCurrentThread();
        LOG.log(System.Logger.Level.WARNING, () -> w.getName() + " could not return to its CPUs " + homeCpus
                + " after parking and " + (restored ? "now runs on every CPU the kernel allows" : "stays bound")
                + "; park binding is off for its pool");
    }

    /**
     * Called by a worker that has just claimed this (parked, bound) worker's wake-up and runs on
     * {@code cpu}, the CPU this one is bound to: restricts the sleeper to its CPUs minus
     * {@code cpu}, so that it wakes elsewhere. Does nothing if the owner is already restoring or
     * no longer bound there, or if its thread id is unknown. Failures are ignored: the wake-up
     * then lands where the kernel puts it, as without park binding.
     *
     * @param cpu the waker's CPU
     */
    void steerAwayFrom(int cpu) {
        if (tid == 0 || cpu < 0 || !PHASE.compareAndSet(this, FREE, STEERING)) {
            return;
        }
        try {
            if (boundCpu == cpu && steer(cpu)) {
                boundCpu = -2;                      // bound, but to several CPUs: not "beside" anyone
            }
        } catch (RuntimeException ignored) {
            // steering is an optimization; the wake-up proceeds unsteered
        } finally {
            phase = FREE;
        }
    }

    /** The owner's system call: back to the CPU set it started with. */
    boolean restoreHome() {
        return home.applyToCurrentThread();
    }

    /** The waker's system call: the sleeper's CPUs minus {@code cpu}. */
    boolean steer(int cpu) {
        if (cpu >= allBut.length) {
            return false;
        }
        CpuAffinity.Binding b = allBut[cpu];
        if (b == null) {
            BitSet rest = (BitSet) homeCpus.clone();
            rest.clear(cpu);
            allBut[cpu] = b = CpuAffinity.binding(rest);   // racy publication: Binding is immutable
        }
        return b.applyToThread(tid);
    }

    /**
     * The CPU the calling thread runs on, or -1 if that cannot be read.
     *
     * @return a CPU number or -1
     */
    static int currentCpu() {
        try {
            return CpuAffinity.currentCpu();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The worker's kernel thread id, or 0 if unknown. */
    int tid() {
        return tid;
    }

    /**
     * The CPU the worker is bound to while parked, or -1.
     *
     * @return a CPU number or -1
     */
    int boundCpu() {
        return boundCpu;
    }
}
