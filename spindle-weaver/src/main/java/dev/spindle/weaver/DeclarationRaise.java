package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * In the serial method of a split ({@link DeferringSplit}), lets the failure of a call made at its
 * declaration propagate from the declaration, where no handler of the method could tell it from
 * the failure raised at the variable's first read.
 *
 * <p>{@link MethodWeaver} wraps each call made in place in a catch that keeps a failure in the
 * variable's handle for the first read (or the method's exit) to throw. The directive's semantics
 * allow the code between the declaration and that read to have run or not, so throwing at the
 * declaration differs from throwing at the read only in which handlers receive the exception. This
 * rewrite compares, for every variable, the method's handlers (all but the weaver's per-call
 * catches) that cover the call with those covering every instruction that would raise the kept
 * failure — each load of the variable's handle (its touches, settles and lock finishes) and of the
 * method's {@code pending} failure (the exit checks) — outside the weaver's catch-all handler. If
 * they are the same list everywhere, for every variable of the method, the per-call catches go
 * and their handler code with them: in the serial method no handle then ever holds a failure,
 * the checks on handles that stay in the bytecode test a constant null, which C2 folds, and the
 * compiled serial method is the source method plus the split's prologue (deleting those checks
 * and the catch-all from the bytecode too was measured slower at two workers; ARCHITECTURE.md
 * §10). If one variable fails the test the method keeps every
 * catch: a failure kept by one variable must still be raised in the order the reads ask for it,
 * and a failure thrown early by another would overtake it.
 *
 * <p>Measured on the directive suite's Knapsack at one worker (Zen 5 host, 2026-11-27, nine JVMs
 * each): median 411 ms with the catches, 401 without; seq 353–388 (docs/PERFORMANCE.md, directive
 * suite, "Eighteenth session").
 */
final class DeclarationRaise {
    private DeclarationRaise() {
    }

    /**
     * Removes the per-call catches of the serial method {@code mn} if no handler can tell.
     *
     * @param mn           the serial method (its begins already made null)
     * @param siteHandlers the weaver's per-call catches, in {@code mn.tryCatchBlocks}
     * @param catchAll     the weaver's catch-all, whose handler code settles every handle
     * @param pending      the slot of the method's pending failure
     * @return whether the catches were removed
     */
    static boolean apply(MethodNode mn, List<TryCatchBlockNode> siteHandlers, TryCatchBlockNode catchAll, int pending) {
        if (siteHandlers.isEmpty() || catchAll == null || !mn.tryCatchBlocks.containsAll(siteHandlers)
                || !mn.tryCatchBlocks.contains(catchAll)) {
            return false;
        }
        InsnList l = mn.instructions;
        Map<AbstractInsnNode, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < l.size(); i++) {
            index.put(l.get(i), i);
        }
        Set<TryCatchBlockNode> sites = Collections.newSetFromMap(new IdentityHashMap<>());
        sites.addAll(siteHandlers);
        List<TryCatchBlockNode> others = new ArrayList<>();
        for (TryCatchBlockNode t : mn.tryCatchBlocks) {
            if (!sites.contains(t)) {
                others.add(t);
            }
        }
        Integer settling = index.get(catchAll.end);            // the catch-all's handler code follows its range
        if (settling == null) {
            return false;
        }
        List<Integer> pendingLoads = loads(l, pending, settling);
        for (TryCatchBlockNode s : siteHandlers) {
            int handle = handleOf(s);
            if (handle < 0) {
                return false;
            }
            List<TryCatchBlockNode> atCall = coverage(others, index, index.get(FutureVariableFinder.nextReal(s.start)));
            List<Integer> points = loads(l, handle, settling);
            points.addAll(pendingLoads);
            for (int p : points) {
                if (!coverage(others, index, p).equals(atCall)) {
                    return false;
                }
            }
        }
        mn.tryCatchBlocks.removeAll(sites);
        UnreachableCode.remove(mn);                               // the catches' handler code
        return true;
    }

    /** The handle slot a per-call catch stores its failure in: its handler's first instruction. */
    private static int handleOf(TryCatchBlockNode s) {
        return FutureVariableFinder.nextReal(s.handler) instanceof VarInsnNode v && v.getOpcode() == Opcodes.ASTORE ? v.var : -1;
    }

    /** Positions of the loads of {@code slot} before {@code limit}. */
    private static List<Integer> loads(InsnList l, int slot, int limit) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            if (l.get(i) instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD && v.var == slot) {
                at.add(i);
            }
        }
        return at;
    }

    /** The handlers covering position {@code at}, in the order the JVM tries them. */
    private static List<TryCatchBlockNode> coverage(List<TryCatchBlockNode> handlers, Map<AbstractInsnNode, Integer> index, int at) {
        List<TryCatchBlockNode> c = new ArrayList<>();
        for (TryCatchBlockNode t : handlers) {
            if (index.get(t.start) <= at && at < index.get(t.end)) {
                c.add(t);
            }
        }
        return c;
    }
}
