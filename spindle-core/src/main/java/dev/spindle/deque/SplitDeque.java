package dev.spindle.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A single-owner, multi-thief work-stealing deque whose owner end needs no lock, no CAS and no
 * fence: a <em>split deque</em> (after Dinan et al. 2009 and Lace, van Dijk and van de Pol 2014).
 *
 * <p>Guarantees: one owner thread calls {@link #push}, {@link #pop}, {@link #popIf} and
 * {@link #share}; any number of other threads call {@link #steal} (or its bounded and conditional
 * forms {@link #stealAtOrAbove} and {@link #stealIf}). The owner works LIFO at the top; thieves
 * take the oldest shared element (FIFO) at the base. Every pushed element is returned exactly
 * once, by {@code pop}, {@code popIf} or one of the steals. The deque grows without bound.
 *
 * <h2>Implementation overview</h2>
 *
 * Elements live in a power-of-two ring indexed by ever-increasing {@code int} indices (they wrap
 * modulo 2<sup>32</sup>; all comparisons are by difference). The live indices {@code [base, top)}
 * are cut in two by {@code split}:
 *
 * <pre>
 *   base            split                top
 *    | shared region  | private region    |
 *    | thieves take   | only the owner    |
 *    | from here, CAS | touches it, plain |
 * </pre>
 *
 * <ul>
 * <li><b>Owner push/pop</b> work in the private region with plain reads and writes: the private
 *     region is invisible to thieves, so there is nobody to synchronize with. The only extra
 *     cost is reading {@code shareRequested}, a plain load on x86 and ARM.</li>
 * <li><b>Sharing.</b> When a thief finds the shared region empty while the owner has private
 *     elements, it sets {@code shareRequested}. At its next push or pop the owner sees the flag
 *     (the caller decides when: see {@link #isShareRequested}) and calls {@link #share}, which moves
 *     {@code split} up over the older half of the private region with one CAS on {@code state}.
 *     That CAS releases the slot writes, so a thief that later reads {@code state} sees them.</li>
 * <li><b>Stealing.</b> A thief reads {@code state}, reads the element at {@code base}, and claims
 *     it by CAS of {@code state} from (base, len, tag) to (base+1, len-1, tag). It then clears the
 *     slot with a release store, which tells the owner the slot may be reused.</li>
 * <li><b>Reclaiming.</b> When the private region is empty the owner pops from the top of the shared
 *     region: it CASes {@code state} to shrink the shared region by half (at least one element)
 *     and takes the reclaimed part back into its private region. This is the only place thieves
 *     and owner race for the same elements, and the CAS on the single {@code state} word decides.</li>
 * </ul>
 *
 * <p><b>Why a tag.</b> Reclaiming lowers {@code split}; a later share raises it again. Without a
 * tag a thief that read (base, len), stalled, and then CASed could succeed against the same
 * (base, len) holding a different element (ABA). Every owner CAS increments a 20-bit tag, so the
 * thief's CAS fails unless fewer than 2<sup>20</sup> owner reclaim/share operations — each one a
 * response to a thief — happened during the stall with base and length again equal.
 *
 * <p><b>Memory ordering.</b> (1) An element written to a slot by the owner is published by the
 * owner's CAS on {@code state} that shares it; a thief's volatile read of {@code state} that sees
 * that share (or any later value) happens-after it, so the thief's plain read of the slot sees the
 * element. (2) The ring array is published with a release store when it grows, after its slots are
 * copied; a thief reads {@code state} first and the array second, so the array it sees holds every
 * index the state it saw calls shared. (3) The owner overwrites a ring slot only if it reads it as
 * null with acquire semantics: the thief cleared it with a release store after reading it, so a
 * thief that won a CAS but has not read its element yet is never overwritten — the owner grows the
 * ring instead. Growth copies only live indices {@code [base, top)}. The owner also takes that
 * path with a ring that is not full every so many pushes (counted; 256 at first, doubling to 64K),
 * to keep the ring young (see {@link #grow}).
 *
 * <p>Shared length is at most {@value #MAX_SHARED} elements; sharing stops there (thieves only ever
 * want the oldest few).
 *
 * <pre>{@code
 * SplitDeque<String> d = new SplitDeque<>();
 * d.push("a"); d.push("b");              // owner thread
 * d.share();                             // make the older half ("a") stealable
 * String stolen = d.steal();             // any other thread: "a"
 * String mine = d.pop();                 // owner: "b"
 * }</pre>
 *
 * @param <E> element type
 */
public final class SplitDeque<E> extends SplitDequePad2<E> {

    /** Initial ring capacity. */
    public static final int INITIAL_CAPACITY = 1 << 6;
    /** Largest ring capacity (indices are compared by int difference). */
    public static final int MAX_CAPACITY = 1 << 30;
    /** Largest number of shared elements at once (12 bits of state). */
    public static final int MAX_SHARED = (1 << 12) - 1;
    /** Pushes between two renewals of the ring ({@link #grow}), once warmed up: 64K. */
    private static final int RENEW_MASK = (1 << 16) - 1;

    private static final int LEN_SHIFT = 32;
    private static final int TAG_SHIFT = 44;
    private static final long LEN_MASK = (1L << 12) - 1;
    private static final long TAG_MASK = (1L << 20) - 1;

    private static final VarHandle STATE;
    private static final VarHandle SHARE_REQUESTED;
    private static final VarHandle TOP;
    private static final VarHandle SLOTS;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(SplitDequeSharedFields.class, "state", long.class);
            SHARE_REQUESTED = l.findVarHandle(SplitDequeSharedFields.class, "shareRequested", int.class);
            TOP = l.findVarHandle(SplitDequeOwnerFields.class, "top", int.class);
            SLOTS = l.findVarHandle(SplitDequeOwnerFields.class, "slots", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Creates an empty deque with the default initial capacity. */
    public SplitDeque() {
        this(INITIAL_CAPACITY);
    }

    /**
     * Creates an empty deque.
     *
     * @param initialCapacity a power of two in 2..{@value #MAX_CAPACITY}
     * @throws IllegalArgumentException if initialCapacity is not such a power of two
     */
    public SplitDeque(int initialCapacity) {
        if (initialCapacity < 2 || initialCapacity > MAX_CAPACITY || Integer.bitCount(initialCapacity) != 1) {
            throw new IllegalArgumentException(
                    "initialCapacity must be a power of two in 2.." + MAX_CAPACITY + ", was " + initialCapacity);
        }
        slots = new Object[initialCapacity];
        STATE.setRelease(this, 0L);
    }

    static long pack(int base, int len, long tag) {
        return (base & 0xFFFF_FFFFL) | ((long) len << LEN_SHIFT) | ((tag & TAG_MASK) << TAG_SHIFT);
    }

    static int baseOf(long s) {
        return (int) s;
    }

    static int lenOf(long s) {
        return (int) ((s >>> LEN_SHIFT) & LEN_MASK);
    }

    static long tagOf(long s) {
        return (s >>> TAG_SHIFT) & TAG_MASK;
    }

    // ------------------------------------------------------------------ owner operations

    /**
     * Owner only: pushes an element onto the private top. No lock, CAS or fence unless the ring
     * must grow.
     *
     * @param e the element, not null
     */
    public void push(E e) {
        Objects.requireNonNull(e, "e");
        Object[] a = slots;
        int t = top;
        int i = t & (a.length - 1);
        int n = pushes + 1;
        pushes = n;
        if (SLOT.getAcquire(a, i) != null      // full, or a thief has not collected its element
                || (n & renewMask) == 0) {    // or time to renew the ring (see grow)
            a = grow(t);
            i = t & (a.length - 1);
        }
        a[i] = e;
        TOP.setOpaque(this, t + 1);
    }

    /**
     * Owner only: removes and returns the newest element, or null if the deque is empty. The
     * private region is served with plain accesses; if it is empty the owner reclaims the top of
     * the shared region with one CAS, racing thieves.
     *
     * @return the newest element, or null
     */
    public E pop() {
        int t = top;
        if (t - ownerSplit > 0) {
            return takePrivate(t);
        }
        return reclaimAndPop(null);
    }

    /**
     * Owner only: removes the newest element if and only if it is {@code expected}.
     *
     * @param expected the element hoped to be on top
     * @return true if it was on top and has been removed
     */
    public boolean popIf(E expected) {
        int t = top;
        if (t - ownerSplit > 0) {
            Object[] a = slots;
            int i = (t - 1) & (a.length - 1);
            if (a[i] != expected) {
                return false;
            }
            a[i] = null;
            TOP.setOpaque(this, t - 1);
            return true;
        }
        return reclaimAndPop(expected) != null;
    }

    @SuppressWarnings("unchecked")
    private E takePrivate(int t) {
        Object[] a = slots;
        int i = (t - 1) & (a.length - 1);
        Object e = a[i];
        a[i] = null;
        TOP.setOpaque(this, t - 1);
        return (E) e;
    }

    /**
     * The private region is empty. Reclaim the newer half (at least one) of the shared region and
     * pop its top. If {@code expected} is non-null, only do so when the top element is it.
     */
    private E reclaimAndPop(E expected) {
        Object[] a = slots;
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            int len = lenOf(s);
            if (len == 0) {
                return null;
            }
            int b = baseOf(s);
            int sp = b + len;                       // == ownerSplit == top
            if (expected != null && a[(sp - 1) & (a.length - 1)] != expected) {
                return null;
            }
            int keep = len >>> 1;                   // thieves keep the older half
            if (STATE.compareAndSet(this, s, pack(b, keep, tagOf(s) + 1))) {
                ownerSplit = b + keep;
                return takePrivate(top);
            }
        }
    }

    /**
     * Owner only: true if a thief asked for work since the last {@link #share}. A plain load.
     *
     * @return whether sharing was requested
     */
    public boolean isShareRequested() {
        return (int) SHARE_REQUESTED.getOpaque(this) != 0;
    }

    /**
     * Owner only: moves the older half (at least one) of the private region into the shared region
     * so thieves can take it, and clears the share request. One CAS on the state word.
     *
     * @return the number of elements shared (0 if the private region was empty or sharing is full)
     */
    public int share() {
        if ((int) SHARE_REQUESTED.getOpaque(this) != 0) {
            SHARE_REQUESTED.setOpaque(this, 0);
        }
        int priv = top - ownerSplit;
        if (priv <= 0) {
            return 0;
        }
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            int len = lenOf(s);
            int n = Math.min((priv + 1) >>> 1, MAX_SHARED - len);
            if (n <= 0) {
                return 0;
            }
            if (STATE.compareAndSet(this, s, pack(baseOf(s), len + n, tagOf(s) + 1))) {
                ownerSplit += n;
                return n;
            }
        }
    }

    /**
     * Owner: moves the live indices to a fresh ring, twice as large if at least half full. Also
     * called every {@code RENEW_MASK + 1} pushes, so that the ring stays in G1's young generation:
     * a store of a new task into a ring in an old region takes the post-write barrier's StoreLoad
     * fence on every push (fine-grained fork/join after a full GC: 23–25% slower, docs/PERFORMANCE.md).
     * Pushes are counted, not indices: the top index of a deque that empties between forks comes
     * back to the same value, and a test on it renewed the ring at every such fork (312 bytes
     * allocated per fork, measured). The period starts at 256 and doubles at each renewal, so the
     * test is taken while the method is being profiled and C2 compiles it as a branch, not as an
     * uncommon trap whose first hit would deoptimize every method that inlined the push.
     */
    private Object[] grow(int t) {
        int m = renewMask;
        if (m < RENEW_MASK) {
            renewMask = m << 1 | 1;
        }
        Object[] old = slots;
        int oldCap = old.length;
        long s = (long) STATE.getVolatile(this);
        int b = baseOf(s);
        int live = t - b;
        int newCap = live >= oldCap >>> 1 ? oldCap << 1 : oldCap;
        if (live >= oldCap && oldCap >= MAX_CAPACITY || newCap > MAX_CAPACITY) {
            throw new IllegalStateException("SplitDeque capacity exceeded: " + live + " elements");
        }
        // Live indices [b, t) move to a fresh ring. A slot of the old ring that a thief claimed but
        // has not read stays intact: the old ring is never written again.
        Object[] a = new Object[newCap];
        int om = oldCap - 1, nm = newCap - 1;
        for (int i = b; i != t; i++) {
            a[i & nm] = old[i & om];
        }
        SLOTS.setRelease(this, a);
        return a;
    }

    // ------------------------------------------------------------------ thief operations

    /**
     * Any thread but the owner: removes and returns the oldest shared element, or null if the
     * shared region is empty (then asks the owner to share, if it has private elements). Retries
     * internally when it loses a race to another thief or to the owner.
     *
     * @return the oldest shared element, or null
     */
    public E steal() {
        return take(0, false, null);
    }

    /**
     * Any thread but the owner: like {@link #steal()}, but only an element the owner pushed at
     * index {@code floor} or later (see {@link #topIndex()}); returns null if the oldest shared
     * element is older. A joiner uses this to take only work created after some point in the
     * owner's execution.
     *
     * @param floor an index the owner read with {@link #topIndex()}
     * @return the oldest shared element if it is at or above {@code floor}, or null
     */
    public E stealAtOrAbove(int floor) {
        return take(floor, true, null);
    }

    /**
     * Any thread but the owner: removes and returns the oldest shared element if {@code test}
     * accepts it, else returns null and leaves the deque as it was. For discarding an element
     * nobody may run any more (a task already claimed elsewhere) that a bounded steal
     * ({@link #stealAtOrAbove}) cannot get past.
     *
     * @param test decides, on the oldest shared element, whether to take it
     * @return the element taken, or null
     */
    public E stealIf(Predicate<? super E> test) {
        return take(0, false, Objects.requireNonNull(test, "test"));
    }

    /**
     * Owner only: the index the next pushed element gets. Elements pushed later have indices at
     * or above it (compared by difference) until the owner pops below it.
     *
     * @return the current top index
     */
    public int topIndex() {
        return top;
    }

    /**
     * Takes the oldest shared element: only if it is at or above {@code floor} when
     * {@code bounded}, and only if {@code test} accepts it when a test is given (a conditional steal
     * finding nothing shared does not ask the owner to share).
     */
    @SuppressWarnings("unchecked")
    private E take(int floor, boolean bounded, Predicate<? super E> test) {
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            int len = lenOf(s);
            int b = baseOf(s);
            if (bounded && b - floor < 0) {
                return null;
            }
            if (len == 0) {
                if (test == null) {
                    requestShareIfUseful(b);
                }
                return null;
            }
            Object[] a = (Object[]) SLOTS.getAcquire(this);
            int i = b & (a.length - 1);
            Object e = a[i];
            if (e != null) {
                if (test != null && !test.test((E) e)) {
                    if ((long) STATE.getVolatile(this) == s) {
                        return null;                    // e was the oldest shared element: leave it
                    }
                    continue;                           // the deque moved: look again
                }
                if (STATE.compareAndSet(this, s, pack(b + 1, len - 1, tagOf(s)))) {
                    SLOT.setRelease(a, i, null);
                    return (E) e;
                }
            }
            Thread.onSpinWait();
        }
    }

    private void requestShareIfUseful(int b) {
        // Test the flag (thieves' cache line) before top (the owner's line, written on every push
        // and pop): a spinning thief must not keep pulling the owner's line away from it.
        if ((int) SHARE_REQUESTED.getOpaque(this) != 0) {
            return;
        }
        int t = (int) TOP.getOpaque(this);
        if (t - b > 0) {
            SHARE_REQUESTED.setVolatile(this, 1);
        }
    }

    /**
     * Any thread: true if thieves could take something right now. Racy by nature.
     *
     * @return whether the shared region is non-empty
     */
    public boolean hasShared() {
        return lenOf((long) STATE.getVolatile(this)) != 0;
    }

    /**
     * Any thread: true if {@link #stealAtOrAbove} with this floor could take something right now.
     * Racy by nature.
     *
     * @param floor an index the owner read with {@link #topIndex()}
     * @return whether the oldest shared element exists and is at or above {@code floor}
     */
    public boolean hasSharedAtOrAbove(int floor) {
        long s = (long) STATE.getVolatile(this);
        return lenOf(s) != 0 && baseOf(s) - floor >= 0;
    }

    /**
     * Any thread: an estimate of the number of elements (exact for the owner when quiescent).
     *
     * @return estimated size
     */
    public int sizeEstimate() {
        long s = (long) STATE.getVolatile(this);
        int n = (int) TOP.getOpaque(this) - baseOf(s);
        return Math.max(n, 0);
    }

    /**
     * Owner only: number of elements in the private region.
     *
     * @return private element count
     */
    public int privateSize() {
        return top - ownerSplit;
    }
}
