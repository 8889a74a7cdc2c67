package dev.spindle.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A job of {@code members} independent parts that the worker running it offers to the other
 * workers through one slot of its own (seed 003's shared "work descriptor"): one owner, any
 * number of helpers, each member run exactly once, and the owner returns only after every member
 * has finished. The loops runtime's static, dynamic and guided loops are work descriptors whose
 * members are the team's shares.
 *
 * <h2>Implementation overview</h2>
 * A loop's members used to be one task each, pushed on the owner's deque, stolen through it and
 * joined one by one. A descriptor replaces all of that with two counters on the one object every
 * participant already reads: a thief that finds it claims a member with one atomic add on
 * {@code claimed} and reports it finished with one atomic add on {@code pending}; the owner waits
 * for {@code pending} to reach zero. No task per member, no deque traffic, no per-member join.
 * <ul>
 * <li><b>Private until wanted.</b> The owner installs the descriptor in its worker's slot
 * ({@link Worker#install}, a release store) with {@code claimed = PRIVATE}: thieves see it but may
 * not claim, and the owner claims members with plain writes to a field only it uses. Like a
 * deque's private region, it is opened only when somebody wants work: a searching or parked worker
 * in the pool's idle word, or a thief that found it private and set {@code wanted} (a worker
 * helping in a join, which the idle word does not count). The owner looks between its chunks
 * ({@link Worker#isPrivateWorkWanted()}); with every worker busy a loop therefore costs its
 * iterations and a few plain writes — no CAS, no fence, no allocation beyond the descriptor.</li>
 * <li><b>Opening</b> ({@link #open}): creates the completion task, then publishes the next
 * unclaimed member with a volatile store of {@code claimed}. From then on everyone, the owner
 * included, claims with {@code getAndAdd(claimed, 1)}; a result {@code >= members} means nothing
 * is left. Thieves read {@code claimed} first and add only if it is below {@code members}, so
 * the counter passes {@code members} by at most one add per thread.</li>
 * <li><b>Finishing.</b> {@code pending} starts at {@code members}. A helper subtracts one after
 * its member; the owner subtracts all the members it ran at once. Whoever brings it to zero is
 * last: a helper completes {@link #completion()}, which wakes the owner if it waits; if the owner
 * is last, nobody waits.</li>
 * <li><b>Waiting.</b> The owner spins briefly on {@code pending} and then joins the completion like a task
 * ({@link Task#quietlyJoin()}): while a helper runs a member it advertises the completion as its
 * running steal, so the owner's helping join takes work that member created (a nested loop's
 * descriptor or its deque) and parks only when nothing is runnable.</li>
 * </ul>
 *
 * <p><b>Memory ordering.</b> Everything the owner wrote before opening (the descriptor's fields,
 * the completion, {@code pending}) happens-before a thief's claim: the thief's acquire read of
 * {@code claimed} sees the store of opening or a later add. Everything a helper did in
 * its member happens-before the owner's return: the helper's add to {@code pending} is a volatile
 * read-modify-write, and the owner either reads {@code pending} as zero after its own add, or
 * reads it as zero while it spins, or returns from the completion's join, whose volatile status
 * read follows the last helper's add.
 * The slot is written only by the owner; a thief may read a descriptor the owner has since
 * removed: {@code claimed >= members} then, or its claim returns that, and it leaves it alone.
 *
 * <p><b>No lost wake-up.</b> Opening is a volatile write of work followed by
 * {@link IdleProtocol#signalWork()}, and a parking worker re-scans every slot after counting
 * itself parked ({@link SpindlePool#hasVisibleWork()}): the Dekker pattern of {@link IdleProtocol}.
 */
public abstract class WorkDescriptor {
    /** {@code claimed} while the descriptor is private: thieves may not claim. */
    static final int PRIVATE = -1;

    private static final VarHandle CLAIMED;
    private static final VarHandle PENDING;
    private static final VarHandle WANTED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CLAIMED = l.findVarHandle(WorkDescriptor.class, "claimed", int.class);
            PENDING = l.findVarHandle(WorkDescriptor.class, "pending", int.class);
            WANTED = l.findVarHandle(WorkDescriptor.class, "wanted", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How many members; set by the owner before it installs the descriptor. */
    private int members;
    /** The next member to hand out once open; {@link #PRIVATE} before. */
    private volatile int claimed = PRIVATE;
    /** Members not yet finished, counted once the descriptor is open. */
    private volatile int pending;
    /** Set by a thread that found the descriptor private and would have claimed a member. */
    private volatile boolean wanted;
    /** Owner only: the next member it will run while the descriptor is private. */
    private int nextPrivate;
    /** Owner only: whether it opened the descriptor. */
    private boolean opened;
    /** Created at opening; completed by the helper that finishes the last member. */
    private Completion completion;
    /** The owner's innermost running steal when it installed this descriptor (see {@link #belongsTo}). */
    private Task<?> context;

    /** Constructor for subclasses. */
    protected WorkDescriptor() {
    }

    /**
     * Runs member {@code k}. Should not throw: a member's failure is the subclass's to record and
     * report (a loop stops its other members and rethrows it from {@link #runAll}'s caller). If it
     * throws on the owner anyway, the owner runs no further member, still waits for the members
     * helpers claimed, and then rethrows it from {@link #runAll}.
     *
     * @param k     the member, {@code 0 <= k < members}
     * @param owner the descriptor's owner when it runs the member itself (it opens the descriptor
     *              between chunks if work is wanted: {@link Worker#isPrivateWorkWanted()},
     *              {@link Worker#shareWork()}), or null on a helper
     */
    protected abstract void runMember(int k, Worker owner);

    /**
     * On the worker {@code w}, the calling thread: runs every member of this descriptor, offering
     * them to the other workers while it runs, and returns once all have finished. Member 0 runs
     * first, on this thread.
     *
     * @param w       the current worker
     * @param members how many members, at least 1
     * @return false, without running anything, if {@code w}'s slot already holds a descriptor (a
     *         loop started inside a member the owner runs): run the members some other way
     * @throws IllegalStateException if {@code w} is not the current thread or the descriptor was
     *                               already run
     */
    public final boolean runAll(Worker w, int members) {
        if (Thread.currentThread() != w) {
            throw new IllegalStateException("runAll called from " + Thread.currentThread().getName()
                    + ", not from worker " + w.getName());
        }
        if (members < 1) {
            throw new IllegalArgumentException("members must be at least 1: " + members);
        }
        if (this.members != 0) {
            throw new IllegalStateException("work descriptor already run: " + this);
        }
        if (w.installed() != null) {
            return false;
        }
        prepare(members);
        this.context = w.runningSteal;
        w.install(this);
        int ran = 1;                                // member 0, and then each member it claims
        Throwable broken = null;
        try {
            if (members > 1 && w.isPrivateWorkWanted()) {
                w.shareWork();                      // somebody is already looking: open at once
            }
            runMember(0, w);
            for (int k; (k = ownerClaim()) < members; ) {
                ran++;
                runMember(k, w);
            }
        } catch (Throwable t) {
            // runMember broke its contract. Nothing may be left running or unaccounted for: take
            // every member nobody claimed, without running it, so that pending can reach zero.
            broken = t;
            while (ownerClaim() < members) {
                ran++;
            }
        } finally {
            w.uninstall();
        }
        if (!ownerFinished(ran)) {
            awaitHelpers();
        }
        if (broken != null) {
            Task.sneakyThrow(broken);
        }
        return true;
    }

    /** Owner, before installing: {@code members} members, member 0 taken by the owner. */
    final void prepare(int members) {
        this.members = members;
        this.pending = members;                     // plain until opening publishes it
        this.nextPrivate = 1;
    }

    /** Whether every member has finished, once the descriptor is open (a volatile read). */
    final boolean allFinished() {
        return (int) PENDING.getVolatile(this) == 0;
    }

    /** Owner: the next member it runs itself, or a value {@code >= members} if none is left. */
    final int ownerClaim() {
        if (!opened) {
            return nextPrivate < members ? nextPrivate++ : members;
        }
        return (int) CLAIMED.getAndAdd(this, 1);
    }

    /**
     * Owner, after its last member: counts the {@code ran} members it ran as finished.
     *
     * @return true if every member has finished (the descriptor was never opened, or the
     *         helpers' members finished first); false if the owner must wait for
     *         {@link #completion()}
     */
    final boolean ownerFinished(int ran) {
        return !opened || (int) PENDING.getAndAdd(this, -ran) == ran;
    }

    /**
     * Owner: waits for the members helpers claimed, spinning briefly on {@code pending}, then
     * joining the completion. The spin reads the count itself, not the completion: the last
     * helper's add reaches this line one cache miss before its completion does.
     */
    private void awaitHelpers() {
        for (int spins = 0; spins < AWAIT_SPINS; spins++) {
            if (allFinished()) {
                return;
            }
            Thread.onSpinWait();
        }
        completion.quietlyJoin();
    }

    /**
     * Spins of the owner on the completion before it joins it: a helper's last member usually
     * ends within a few microseconds of the owner's, and a spin sees that a cache miss after it
     * happens, where the helping join's first scan costs several.
     */
    private static final int AWAIT_SPINS = 256;

    /**
     * Owner: opens the descriptor to thieves if it is still private and members are left, and
     * wakes a parked worker. Called through {@link Worker#shareWork()}.
     */
    final void open() {
        if (opened) {
            return;
        }
        opened = true;
        completion = new Completion(this);
        // A volatile store: it publishes the fields above and pending, and orders this write of
        // work before the idle word's read in the signalWork that follows (Dekker).
        CLAIMED.setVolatile(this, nextPrivate);
    }

    /** Owner: whether members are left to hand out while the descriptor is private. */
    final boolean holdsPrivateMembers() {
        return !opened && nextPrivate < members;
    }

    /** Owner: whether a thief found the descriptor private and wanted a member. */
    final boolean isWanted() {
        return wanted;
    }

    /**
     * A thread other than the owner: claims a member, or marks the descriptor wanted if it is
     * still private.
     *
     * @return the member to run (then {@link #finishMember()} must follow its run), or -1
     */
    final int tryClaim() {
        int c = (int) CLAIMED.getAcquire(this);
        if (c == PRIVATE) {
            if (!wanted) {
                WANTED.setVolatile(this, true);
            }
            return -1;
        }
        if (c >= members) {
            return -1;
        }
        int k = (int) CLAIMED.getAndAdd(this, 1);
        return k < members ? k : -1;
    }

    /** Whether a thief could claim a member now (open, with members left). A volatile read. */
    final boolean isClaimable() {
        int c = (int) CLAIMED.getAcquire(this);
        return c != PRIVATE && c < members;
    }

    /** A helper, after running a member it claimed: the last one completes {@link #completion()}. */
    final void finishMember() {
        if ((int) PENDING.getAndAdd(this, -1) == 1) {
            completion.complete(null);
        }
    }

    /** The task that completes when the last member a helper ran finishes; null before opening. */
    final Task<Void> completion() {
        return completion;
    }

    /**
     * Whether this descriptor was installed while {@code t} was its owner's innermost running
     * steal: its members are then part of {@code t}'s computation, which a future's toucher may
     * help with.
     */
    final boolean belongsTo(Task<?> t) {
        return context == t;
    }

    /**
     * The completion of an open descriptor, as a task: helpers advertise it as their running
     * steal, and the owner joins it. It is never pushed or run.
     */
    static final class Completion extends Task<Void> {
        final WorkDescriptor descriptor;

        Completion(WorkDescriptor descriptor) {
            this.descriptor = descriptor;
        }

        @Override
        protected Void compute() {
            throw new UnsupportedOperationException("a work descriptor's completion is never run");
        }
    }
}
