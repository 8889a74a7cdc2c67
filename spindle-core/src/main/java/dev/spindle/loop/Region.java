package dev.spindle.loop;

import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The shared state of one parallel region: team formation, the barrier, and the current
 * work-sharing construct.
 *
 * <h2>Forming the team: why a barrier never deadlocks</h2>
 * SPMD code with barriers needs every member running at the same time on its own thread; a
 * member that never starts would leave the others waiting forever, and two members on one
 * thread would wait for each other. So the size is not promised up front. The starting worker
 * pushes {@code requested - 1} {@link Member} tasks, visible to other workers at once, and waits
 * briefly (while some worker is idle or searching, at most {@value #FORMING_NANOS} ns) for others
 * to take them. Then it takes back every member still on its own deque; only members another
 * worker took (a worker runs a task it stole at once) join the team. The size is published
 * before any member runs the body, ids are handed out in order of arrival, and a member waiting at
 * a barrier never runs other work on its thread. With every worker busy a region runs with a
 * team of one, like OpenMP's dynamic adjustment of the number of threads.
 *
 * <h2>Barrier</h2>
 * Sense-reversing and centralized: an arrival count and a phase. The last arriver resets the
 * count, advances the phase (volatile: everything members did before the barrier happens-before
 * everything after it) and unparks the members. Waiters spin, then yield, then park with a short
 * timeout. If a member fails, the region is broken: waiters leave with a {@link Aborted} that
 * unwinds their body, and the starter rethrows the first failure.
 */
final class Region {
    static final long FORMING_NANOS = 1_000_000L;
    private static final VarHandle ARRIVED;
    private static final VarHandle SINGLE;
    private static final VarHandle SHARE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ARRIVED = l.findVarHandle(Region.class, "arrived", int.class);
            SINGLE = l.findVarHandle(Region.class, "singles", int.class);
            SHARE = l.findVarHandle(Region.class, "share", WorkShare.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Consumer<Team> body;
    final LoopFailure failure = new LoopFailure();
    private final AtomicInteger arrivals = new AtomicInteger();
    private final Thread[] threads;
    volatile int size;
    @SuppressWarnings("unused") private volatile int arrived;
    private volatile int phase;
    @SuppressWarnings("unused") private volatile int singles;
    @SuppressWarnings("unused") private volatile WorkShare share;

    private record WorkShare(int construct, ParallelLoop loop) {
    }

    /** Thrown in members waiting at a barrier of a region that failed; never escapes the region. */
    static final class Aborted extends RuntimeException {
        Aborted() {
            super("parallel region aborted by another member's failure", null, false, false);
        }
    }

    private Region(int requested, Consumer<Team> body) {
        this.body = body;
        this.threads = new Thread[requested];
    }

    /** On worker {@code w}: forms the team, runs member 0, waits for the others, rethrows a failure. */
    static void run(Worker w, int requested, Consumer<Team> body) {
        Region r = new Region(requested, body);
        Member head = null;
        for (int k = requested - 1; k >= 1; k--) {
            Member m = new Member(r, head);
            w.pushForOthers(m, true);
            head = m;
        }
        if (head != null) {
            long start = System.nanoTime();
            for (int spins = 0; r.arrivals.get() < requested - 1 && w.pool().hasIdleWorkers()
                    && System.nanoTime() - start < FORMING_NANOS; spins++) {
                if (spins < 256) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
        int taken = requested - 1;
        for (Member m = head; m != null; m = m.next) {        // member 1 was pushed last: newest first
            if (w.tryUnfork(m)) {
                m.reclaimed = true;
                taken--;
            }
        }
        r.threads[0] = w;
        r.size = 1 + taken;                                    // volatile: members wait for it
        r.runMember(0);
        for (Member m = head; m != null; m = m.next) {
            if (!m.reclaimed) {
                m.quietlyJoin();
            }
        }
        r.failure.rethrow();
    }

    /** A taken member: arrives, waits for the size, runs the body. */
    private void arrive() {
        int id = arrivals.incrementAndGet();
        threads[id] = Thread.currentThread();
        for (int spins = 0; size == 0; spins++) {
            if (spins < 1024) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        runMember(id);
    }

    private void runMember(int id) {
        try {
            body.accept(new Team(this, id));
        } catch (Aborted a) {
            // another member failed first; its failure is the one reported
        } catch (Throwable t) {
            fail(t);
        }
    }

    void fail(Throwable t) {
        failure.add(t);
        wakeAll();
    }

    /** True for the first member to reach {@code single} construct number {@code construct}. */
    boolean claimSingle(int construct) {
        int cur = (int) SINGLE.getVolatile(this);
        return cur < construct && SINGLE.compareAndSet(this, cur, construct);
    }

    /** The loop of work-sharing construct number {@code construct}: the first member to arrive creates it. */
    ParallelLoop workShare(int construct, int from, int to, Schedule s, IntLoopBody body) {
        if (from >= to) {
            return null;
        }
        for (;;) {
            WorkShare cur = (WorkShare) SHARE.getVolatile(this);
            if (cur != null && cur.construct == construct) {
                return cur.loop;
            }
            Schedule eff = s.kind() == Schedule.Kind.AUTO
                    ? Schedule.guided((int) Math.min(Integer.MAX_VALUE, ParallelLoop.autoGrain((long) to - from, size)))
                    : s;
            WorkShare next = new WorkShare(construct, new BodyLoops.IntEach(from, to, eff, size, body));
            if (SHARE.compareAndSet(this, cur, next)) {
                return next.loop;
            }
        }
    }

    void barrier() {
        int n = size;
        if (n == 1) {
            if (failure.stopped) {
                throw new Aborted();
            }
            return;
        }
        int ph = phase;
        if ((int) ARRIVED.getAndAdd(this, 1) == n - 1) {
            arrived = 0;
            phase = ph + 1;
            wakeAll();
        } else {
            boolean interrupted = false;
            try {
                for (int spins = 0; phase == ph; spins++) {
                    if (failure.stopped) {
                        throw new Aborted();
                    }
                    if (spins < 1024) {
                        Thread.onSpinWait();
                    } else if (spins < 1024 + 64) {
                        Thread.yield();
                    } else {
                        LockSupport.parkNanos(this, 50_000L);
                        interrupted |= Thread.interrupted();   // cleared so parking blocks; set again below
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();        // a barrier is not interruptible, but keeps the status
                }
            }
        }
        if (failure.stopped) {
            throw new Aborted();
        }
    }

    private void wakeAll() {
        Thread self = Thread.currentThread();
        for (Thread t : threads) {
            if (t != null && t != self) {
                LockSupport.unpark(t);
            }
        }
    }

    /** A team member other than the starter, as a task another worker may take. */
    static final class Member extends Task<Void> {
        private final Region region;
        final Member next;
        /** Written and read by the starter only: taken back from its deque, never run. */
        boolean reclaimed;

        Member(Region region, Member next) {
            this.region = region;
            this.next = next;
        }

        @Override
        protected Void compute() {
            region.arrive();
            return null;
        }
    }
}
