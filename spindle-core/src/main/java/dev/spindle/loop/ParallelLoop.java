package dev.spindle.loop;

import dev.spindle.runtime.Task;
import dev.spindle.runtime.WorkDescriptor;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One execution of a parallel loop: the single descriptor all participants share (seed 003's
 * "work descriptor"), with the schedule's claiming state. Iterations are numbered by offset
 * {@code 0 .. n-1} from the first index, so ranges that touch {@code Integer/Long.MIN_VALUE} or
 * {@code MAX_VALUE} never overflow; subclasses map offsets back to indices and call the body.
 *
 * <h2>Implementation overview</h2>
 * The caller must be a worker ({@link Loops} moves a call from any other thread onto one). For
 * static, dynamic and guided schedules the descriptor is a {@link WorkDescriptor}: the caller
 * offers it in its worker's slot — private, like a fork, until someone is hungry — runs member 0,
 * then claims the members nobody took, and waits for the ones helpers claimed (one atomic add per
 * claim and per finish on this object; no task per member, no deque, no per-member join). So with
 * every worker busy, a loop costs its own iterations plus a few plain writes; nothing waits for a
 * worker that is not there. While the descriptor is private, the caller runs its share in pieces
 * and opens it as soon as a worker becomes hungry (see {@link #participate}). A loop started
 * inside a member its caller runs itself finds the slot taken and pushes its members as
 * {@link LoopMember} tasks on the deque instead, with the same sharing between pieces.
 * <ul>
 * <li>static blocks: member {@code k} runs block {@code k}; static chunks: chunks {@code k,
 *     k + team, …} — no shared writes at all;</li>
 * <li>dynamic: the chunks are cut into one contiguous share per member (at most 64 shares; with
 *     more members, member {@code k} starts in share {@code k % 64}), each with its own claim
 *     counter on its own cache line; a member claims its own share's chunks one atomic add at a
 *     time, then the other shares' in turn (OpenMP 5's default, nonmonotonic dynamic: which
 *     member runs which chunk is not promised, only that a free member gets one). A member thus
 *     works on the same part of the data loop after loop and the claims of two members do not
 *     touch one line until one of them has run out — the shared-counter version, where the
 *     members' chunks interleave, ran Stress ~25% slower than static in some host phases
 *     (docs/PERFORMANCE.md, "Park binding"). A counter passes its share's end by at most one add
 *     per member, so it cannot overflow (where that could pass {@code Long.MAX_VALUE}, the claim is a
 *     CAS that stops at the end);</li>
 * <li>guided: members claim chunks from one counter, on a cache line of its own in the same padded
 *     array as dynamic's counters, with a CAS each (a chunk's size depends on what remains, and
 *     the counter never passes {@code n}); as a field of this descriptor, its CAS on every chunk
 *     invalidated the line of the fields every member reads on every chunk (LUAppl: 22–24 ms and
 *     one JVM at ~37 ms, against dynamic's ~20);</li>
 * <li>auto: the caller alone starts on the whole range, runs it in steps of at most a grain
 *     (n / (16 × team)) and, between steps, splits off the upper half of what remains as a
 *     {@link RangeSplit} task whenever another worker wants work ({@link Worker#isWorkWanted()}:
 *     a few plain loads) or the worker that split off the piece being run waits for it
 *     ({@link RangeSplit#awaited}: it has run dry), and the rest is worth a steal: its time,
 *     estimated from the steps run so far, is at least {@link #MIN_SPLIT_NANOS} (with a doubling
 *     back-off after a "too small"). A reduction steps and splits on grain boundaries, so its
 *     leaves are the same whoever runs them; a plain loop, once split, times its steps, sizes
 *     them to about {@link #STEP_NANOS} of work, and splits anywhere, so that a skewed loop's expensive end is
 *     shared finely. Split-off halves split again the same way wherever they run; each joins its
 *     splits newest first, running any that nobody took itself.</li>
 * </ul>
 * Allocation per loop: this descriptor (for dynamic, with its claim counters: 64 bytes per
 * share plus two lines of padding, at most 4.2 KB), plus its completion task once it is opened (static, dynamic, guided) or
 * one small task per split (auto); nothing per chunk or iteration. Memory ordering: the fields a
 * participant reads are final or were written before the descriptor was opened (or the task that
 * carries it was pushed); completion is observed through the descriptor's finish count or the
 * splits' joins, which give happens-before from every iteration to the caller's return.
 */
abstract class ParallelLoop extends WorkDescriptor {
    private static final VarHandle CLAIMS = MethodHandles.arrayElementVarHandle(long[].class);
    /**
     * Longs between two shares' claim counters: one 64-byte line each. Share {@code j}'s counter
     * is at {@code (j + 1) × CLAIM_STRIDE}, with a line of padding after the last one: the first
     * line holds the array's header, whose length every claim reads for its bounds check, and the
     * line after the array holds whatever was allocated next. With share 0's counter beside the
     * header, the owner's add on every chunk invalidated the line the helper read on every chunk
     * of its own share: LUAppl's dynamic schedule ran at ~29 instead of ~20 ms in three JVMs of four,
     * depending on where the array fell in its cache line (docs/PERFORMANCE.md, "A claim counter
     * beside an array header").
     */
    private static final int CLAIM_STRIDE = 8;
    /** At most this many dynamic shares (members beyond it start in share {@code k % MAX_SHARES}). */
    private static final int MAX_SHARES = 64;

    final long n;
    final Schedule schedule;
    final int team;
    /** Static/dynamic chunk, guided minimum, auto grain. */
    final long chunk;
    final LoopFailure failure = new LoopFailure();
    /**
     * Dynamic: share {@code j}'s next unclaimed chunk index at {@code claims[(j + 1) × CLAIM_STRIDE]},
     * starting at the share's first chunk. Guided: the first unclaimed offset at
     * {@code claims[CLAIM_STRIDE]}. Null for the other schedules.
     */
    private final long[] claims;
    /** Dynamic only: how many shares the chunks are cut into, min(team, chunks, MAX_SHARES). */
    private final int shares;

    ParallelLoop(long n, Schedule schedule, int team) {
        this(n, schedule, team, schedule.kind() == Schedule.Kind.AUTO ? autoGrain(n, team) : schedule.chunk());
    }

    /** With an explicit chunk (a reduction coarsens the schedule's chunk). */
    ParallelLoop(long n, Schedule schedule, int team, long chunk) {
        this.n = n;
        this.schedule = schedule;
        this.team = team;
        this.chunk = chunk;
        if (schedule.kind() == Schedule.Kind.DYNAMIC) {
            long chunks = (n - 1) / chunk + 1;
            shares = (int) Math.min(Math.min(team, MAX_SHARES), chunks);
            claims = new long[(shares + 2) * CLAIM_STRIDE];
            for (int j = 0; j < shares; j++) {
                claims[(j + 1) * CLAIM_STRIDE] = shareStart(j, chunks);
            }
        } else {
            shares = 0;
            claims = schedule.kind() == Schedule.Kind.GUIDED ? new long[3 * CLAIM_STRIDE] : null;
        }
    }

    /**
     * Claims the next chunk of dynamic share {@code j}: its index, or a value {@code >= end} once
     * the share is used up. One atomic add; a CAS that never passes {@code end} only where one
     * add per member past the end could overflow (a share ending within {@code team} of
     * {@code Long.MAX_VALUE}).
     */
    private long claim(int j, long end) {
        int at = (j + 1) * CLAIM_STRIDE;
        if (end <= Long.MAX_VALUE - team) {
            return (long) CLAIMS.getAndAdd(claims, at, 1L);
        }
        for (;;) {
            long c = (long) CLAIMS.getVolatile(claims, at);
            if (c >= end || CLAIMS.compareAndSet(claims, at, c, c + 1)) {
                return c;
            }
        }
    }

    /** The first chunk of share {@code j} of {@code chunks} (blocks, the first ones one larger). */
    private long shareStart(int j, long chunks) {
        return j * (chunks / shares) + Math.min(j, chunks % shares);
    }

    /**
     * Auto's grain: 16 grains per worker. Demand is checked between grains, so this bounds both
     * the imbalance at the end (one grain) and the overhead (measured with EmptyLoopBenchmark:
     * 64 grains per worker cost 0.87 µs for an empty 1000-iteration loop, more than a stream).
     */
    static long autoGrain(long n, int team) {
        return Math.max(1L, n / (16L * team));
    }

    /** Runs offsets {@code [lo, hi)}. */
    abstract void runChunk(long lo, long hi);

    /** On a worker: runs the whole loop to completion, then rethrows the first failure. */
    final void execute(Worker w) {
        if (schedule.kind() == Schedule.Kind.AUTO) {
            runAuto(w, 0L, n, null);
        } else {
            int members = (int) Math.min(team, chunksFor(schedule.kind()));
            if (members == 1) {
                participate(0, w);
            } else if (!runAll(w, members)) {
                runMembersOnDeque(w, members);     // a loop inside a member this worker runs
            }
        }
        failure.rethrow();
    }

    /** A team member's share, as a {@link WorkDescriptor} member. */
    @Override
    protected final void runMember(int k, Worker owner) {
        participate(k, owner);
    }

    /**
     * The members as tasks on the caller's deque, for a loop whose caller already offers a
     * descriptor (a loop started inside a member of another loop that this worker runs).
     */
    private void runMembersOnDeque(Worker w, int members) {
        LoopMember head = null;
        for (int k = members - 1; k >= 1; k--) {
            LoopMember m = new LoopMember(this, k, head);
            w.pushForOthers(m, false);
            head = m;
        }
        participate(0, w);
        // member 1 was pushed last: the chain runs newest first, as tryUnfork needs
        for (LoopMember m = head; m != null; m = m.next) {
            if (w.tryUnfork(m)) {
                participate(m.member, null);
            } else {
                m.quietlyJoin();
            }
        }
    }

    private long chunksFor(Schedule.Kind kind) {
        return kind == Schedule.Kind.STATIC ? n : (n - 1) / chunk + 1;
    }

    /**
     * How many pieces the loop's caller cuts its own static block into while its members are still
     * private: between pieces it looks whether a worker became hungry and, if so, shares them.
     */
    static final int OWNER_PIECES = 8;

    /**
     * Member {@code k}'s share of a static, dynamic or guided loop.
     *
     * @param k     the member
     * @param owner the loop's caller running member 0 while the other members wait on its deque,
     *              or null. Between chunks (static blocks: between eighths of its block, unless the
     *              block is a reduction's leaf) the owner shares the members if a worker became
     *              hungry after they were pushed: a worker that was finishing the previous loop's
     *              member when this loop pushed its own would otherwise find nothing until the
     *              caller's whole block ends, and the caller would then run the loop alone
     */
    final void participate(int k, Worker owner) {
        try {
            switch (schedule.kind()) {
                case STATIC -> {
                    long q = n / team, r = n % team;
                    long lo = k * q + Math.min(k, r);
                    long hi = lo + q + (k < r ? 1 : 0);
                    // a reduction's block is one leaf: it is run in one piece
                    boolean watch = owner != null && !fixedLeaves() && owner.holdsPrivateWork();
                    long piece = watch ? Math.max(1L, (hi - lo) / OWNER_PIECES) : hi - lo;
                    while (lo < hi && !failure.stopped) {
                        if (watch && shareIfWanted(owner)) {
                            watch = false;
                            piece = hi - lo;                     // shared: the rest in one piece
                        }
                        long end = hi - lo <= piece ? hi : lo + piece;
                        runChunk(lo, end);
                        lo = end;
                    }
                }
                case STATIC_CHUNKED -> {
                    long c = chunk;
                    if (k != 0 && c > (n - 1) / k) {
                        return;                                  // k * c >= n
                    }
                    long stride = c > Long.MAX_VALUE / team ? Long.MAX_VALUE : c * team;
                    for (long lo = k * c; !failure.stopped; ) {
                        long hi = n - lo <= c ? n : lo + c;
                        runChunk(lo, hi);
                        if (stride >= n - lo) {
                            break;
                        }
                        lo += stride;
                        shareIfWanted(owner);
                    }
                }
                case DYNAMIC -> {
                    // Own share first, then the others' in turn, one chunk per atomic add. A
                    // counter passes its share's end by at most one add per member.
                    long chunks = (n - 1) / chunk + 1;
                    int own = k % shares;
                    for (int i = 0; i < shares && !failure.stopped; i++) {
                        int j = own + i < shares ? own + i : own + i - shares;
                        long end = j + 1 == shares ? chunks : shareStart(j + 1, chunks);
                        while (!failure.stopped) {
                            long c = claim(j, end);
                            if (c >= end) {
                                break;
                            }
                            long lo = c * chunk;
                            runChunk(lo, n - lo <= chunk ? n : lo + chunk);
                            shareIfWanted(owner);
                        }
                    }
                }
                case GUIDED -> {
                    while (!failure.stopped) {
                        long lo = (long) CLAIMS.getVolatile(claims, CLAIM_STRIDE);
                        if (lo >= n) {
                            return;
                        }
                        long rem = n - lo;
                        long size = Math.max(chunk, rem / (2L * team));
                        long hi = rem <= size ? n : lo + size;
                        if (CLAIMS.compareAndSet(claims, CLAIM_STRIDE, lo, hi)) {
                            runChunk(lo, hi);
                            shareIfWanted(owner);
                        }
                    }
                }
                case AUTO -> throw new IllegalStateException("auto loops do not have members");
            }
        } catch (Throwable t) {
            failure.add(t);
        }
    }

    /**
     * Between an owner's chunks: shares its still-private members if a worker became hungry.
     *
     * @return true if it shared them
     */
    private static boolean shareIfWanted(Worker owner) {
        if (owner != null && owner.isPrivateWorkWanted()) {
            owner.shareWork();
            return true;
        }
        return false;
    }

    /**
     * Auto's granularity test: split only if the rest of the piece, estimated from the time its
     * grains took so far, is worth a steal (a wake-up and a join cost microseconds here).
     */
    static final long MIN_SPLIT_NANOS = 10_000L;

    /**
     * Whether chunk boundaries must fall on multiples of the grain whoever runs them (a
     * reduction's leaves). A plain loop may split an auto range anywhere.
     */
    boolean fixedLeaves() {
        return false;
    }

    /**
     * How long a plain auto loop's step between two looks at demand should take, once steps are
     * timed: a worker that runs dry waits about this long for the runner to notice it.
     */
    static final long STEP_NANOS = 50_000L;

    /**
     * Auto: runs {@code [lo, hi)} in steps, splitting off the upper half whenever work is wanted
     * and the rest is worth it. A reduction steps and splits on grain boundaries, so its leaves
     * are the same whoever runs them. A plain loop times its steps and sizes them to about
     * {@link #STEP_NANOS} (never more than a grain), and splits at any iteration, so that a worker
     * that runs dry near the expensive end of a skewed loop waits for microseconds, not for a
     * whole grain. It reads the clock only in split-off pieces and in a root that has split (a
     * loop nobody shares, like an empty one, never does), and stops when a whole grain takes under
     * a microsecond.
     */
    final void runAuto(Worker w, long lo, long hi, RangeSplit piece) {
        RangeSplit splits = null;
        final long g = chunk;
        final boolean anywhere = !fixedLeaves();
        boolean timing = anywhere && piece != null;         // a root times its steps once it split
        long clock = timing ? System.nanoTime() : 0L;
        long step = g;
        long start = 0L, startLo = lo;
        int skip = 0, backoff = 1;
        try {
            while (lo < hi && !failure.stopped) {
                long rem = hi - lo;
                if ((anywhere ? rem >= 2 : rem > g) && --skip < 0 && ((piece != null && piece.awaited) || w.isWorkWanted())) {
                    long now = System.nanoTime();
                    if (start == 0L || lo == startLo) {
                        start = now;                        // first look: time a step first
                        startLo = lo;
                    } else if ((double) (now - start) / (lo - startLo) * rem >= MIN_SPLIT_NANOS) {
                        long mid = anywhere ? lo + (rem >>> 1)
                                : lo + ((((rem - 1) / g) + 1) >>> 1) * g;   // on a grain boundary
                        RangeSplit s = new RangeSplit(this, mid, hi, splits);
                        w.pushForOthers(s, true);
                        splits = s;
                        hi = mid;
                        backoff = 1;
                        if (anywhere && !timing) {
                            timing = true;
                            clock = now;
                        }
                        continue;
                    } else {
                        skip = backoff;                     // too small for now: look again later
                        backoff <<= 1;
                    }
                }
                long end = rem <= step ? hi : lo + step;
                runChunk(lo, end);
                if (timing) {
                    long now = System.nanoTime(), took = now - clock, len = end - lo;
                    clock = now;
                    if (took < 1_000L && len >= g) {
                        timing = false;                     // cheap grains: a grain is short enough
                    } else {
                        step = Math.max(1L, Math.min(g, (long) ((double) len * STEP_NANOS / Math.max(took, 1L))));
                    }
                }
                lo = end;
            }
        } catch (Throwable t) {
            failure.add(t);
        }
        for (RangeSplit s = splits; s != null; s = s.next) {      // newest first
            if (w.tryUnfork(s)) {
                runAuto(w, s.lo, s.hi, piece);                      // still inside the same piece
            } else if (!s.isDone()) {
                s.awaited = true;                                   // its runner splits at its next step
                s.quietlyJoin();                                    // and this join steals the split
            }
        }
    }

    /** A team member of a static, dynamic or guided loop. */
    static final class LoopMember extends Task<Void> {
        final ParallelLoop loop;
        final int member;
        final LoopMember next;

        LoopMember(ParallelLoop loop, int member, LoopMember next) {
            this.loop = loop;
            this.member = member;
            this.next = next;
        }

        @Override
        protected Void compute() {
            loop.participate(member, null);
            return null;
        }
    }

    /** A half of an auto loop's range, split off for another worker. */
    static final class RangeSplit extends Task<Void> {
        final ParallelLoop loop;
        final long lo;
        final long hi;
        final RangeSplit next;
        /**
         * Set by the worker that split this piece off and now waits for it: it has nothing else
         * to do, so whoever runs this piece (or a part of it it kept) splits again at its next
         * step if the rest is worth it, instead of waiting until the idle worker parks and shows
         * up in the pool's idle count. A plain flag read between steps; no atomic operation.
         */
        volatile boolean awaited;

        RangeSplit(ParallelLoop loop, long lo, long hi, RangeSplit next) {
            this.loop = loop;
            this.lo = lo;
            this.hi = hi;
            this.next = next;
        }

        @Override
        protected Void compute() {
            loop.runAuto((Worker) Thread.currentThread(), lo, hi, this);
            return null;
        }
    }
}
