package dev.spindle.weaver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Test support: random classes of methods with {@code @Future} locals, printed as Java source for
 * javac and evaluated by an interpreter of the same tree, which is the test's model.
 *
 * <p>Every method is {@code T mK(int d, long a, …)}, static or (in some programs) an instance
 * method, with T one of int, long, double and String and up to four more parameters of int,
 * long, double and Object ({@link Param}: read and reassigned in the body, passed from
 * {@code a} or {@code acc} by the callers, added into the leaf's value) — some of them only {@code new CK(d, a, …).value},
 * the body below being the constructor's of a nested (or, in an instance program, inner) class; at {@code d <= 0} it is a leaf that may
 * throw the program's failure — {@code IllegalStateException("boom")}, or in some programs the
 * checked {@code IOException("boom")} — otherwise its body is a random block over a
 * {@code long acc}: {@code @Future} declarations and reassignments whose initializer calls a method
 * of the class with {@code d - 1} (int, long, double, String and Object variables, with widening
 * and boxing; on an instance, through {@code this} or a receiver computed by a call; arguments
 * that may read another future), reads, reassignments to a constant, plain calls,
 * {@code if}/{@code else}, {@code switch}, {@code for} and {@code do}/{@code while} loops with
 * conditional {@code break} and {@code continue} (labelled ones leaving several loops), {@code try}
 * with a catch and/or a {@code finally}, conditional {@code throw} and {@code return}, and
 * {@code synchronized} blocks. In programs whose failure is unchecked, futures of the object API
 * too ({@code Spindle.future}, {@code futureLong}, {@code futureInt}, {@code futureDouble} over a
 * lambda calling a method of the class, touched any number of times), which the weaver rewrites
 * as well. Bodies are pure: the only effect a call has is its value or its failure, so any order
 * the runtime picks gives one answer.
 *
 * <p>The interpreter evaluates a call under either semantics:
 * <ul>
 *   <li>{@link Semantics#SERIAL} — Java's own, for the unwoven class;</li>
 *   <li>{@link Semantics#DIRECTIVE} — the woven method's (docs/ARCHITECTURE.md, "What the weaver
 *   emits"): a {@code @Future} call's failure is kept in the variable's handle and raised at its
 *   first read (after which the variable reads as its default), and a failure that no read raised
 *   — its handle finished by a reassignment, a jump or fall-through out of the variable's scope, or
 *   left behind by an exception — is raised when the method returns, past its own handlers.</li>
 * </ul>
 * An object-API future means the same under both, woven or not: every touch raises its failure,
 * and a failure never touched is only reported to the pool's untouched-failure handler.
 * Every failure of a program has the same class and message, so the outcome does not depend on
 * which of two failures is raised first, only on where each surfaces — which the handlers'
 * additions to {@code acc} record. One thing the model takes from javac, not from the semantics:
 * javac records no variable whose range is empty, so a declaration that ends its block leaves no
 * trace in the class file, and its call stays serial (docs/ARCHITECTURE.md, "Limits").
 *
 * <p>{@link #smaller} gives the programs one statement smaller, for the test to shrink a failing
 * program before it reports it.
 */
final class RandomMethods {
    private RandomMethods() {
    }

    enum Semantics { SERIAL, DIRECTIVE }

    /** The type of a method's result or of a variable. */
    enum Type {
        INT("int"), LONG("long"), DOUBLE("double"), STRING("String"), OBJECT("Object");

        final String java;

        Type(String java) {
            this.java = java;
        }

        boolean accepts(Type result) {
            return switch (this) {
                case INT -> result == INT;
                case LONG -> result == INT || result == LONG;
                case DOUBLE -> result == INT || result == LONG || result == DOUBLE;
                case STRING -> result == STRING;
                case OBJECT -> true;
            };
        }

        /** A method's result, as this variable type holds it (widening; boxing keeps the result's class). */
        Object convert(Object result) {
            return switch (this) {
                case INT, STRING, OBJECT -> result;
                case LONG -> ((Number) result).longValue();
                case DOUBLE -> ((Number) result).doubleValue();
            };
        }

        Object defaultValue() {
            return switch (this) {
                case INT -> 0;
                case LONG -> 0L;
                case DOUBLE -> 0.0;
                case STRING, OBJECT -> null;
            };
        }

        String constantSource(long k) {
            return switch (this) {
                case INT -> Long.toString(k);
                case LONG -> k + "L";
                case DOUBLE -> k + ".0";
                case STRING, OBJECT -> "\"k" + k + "\"";
            };
        }

        Object constant(long k) {
            return switch (this) {
                case INT -> (int) k;
                case LONG -> k;
                case DOUBLE -> (double) k;
                case STRING, OBJECT -> "k" + k;
            };
        }

        /** A method's result of this type, from {@code acc}: the generated {@code to*} helpers. */
        Object fromAcc(long x) {
            return switch (this) {
                case INT -> (int) (x ^ (x >>> 32));
                case LONG -> x;
                case DOUBLE -> (double) Math.floorMod(x, 1_000_003L);
                case STRING -> Long.toString(Math.floorMod(x, 1_000_003L), 36);
                case OBJECT -> throw new IllegalStateException("no method returns Object");
            };
        }

        String fromAccSource(String x) {
            return switch (this) {
                case INT -> "toInt(" + x + ")";
                case LONG -> x;
                case DOUBLE -> "toDouble(" + x + ")";
                case STRING -> "toStr(" + x + ")";
                case OBJECT -> throw new IllegalStateException("no method returns Object");
            };
        }

        /** What a read adds into {@code acc}: the generated {@code use} overloads. */
        long use(Object v) {
            return switch (this) {
                case INT -> (Integer) v;
                case LONG -> (Long) v;
                case DOUBLE -> (long) ((Double) v * 3);
                case STRING, OBJECT -> Objects.hashCode(v);
            };
        }
    }

    /** A failure of the program: {@code IllegalStateException("boom")}. */
    static final class Boom extends RuntimeException {
        Boom() {
            super("boom", null, false, false);
        }
    }

    /** An early return, carrying the value computed at the return statement. */
    private static final class Ret extends RuntimeException {
        final Object value;

        Ret(Object value) {
            super(null, null, false, false);
            this.value = value;
        }
    }

    /** A {@code break} of the loop labelled {@code label}, or of the innermost loop if null. */
    private static final class Brk extends RuntimeException {
        final String label;

        Brk(String label) {
            super(null, null, false, false);
            this.label = label;
        }
    }

    /** A {@code continue} of the loop labelled {@code label}, or of the innermost loop if null. */
    private static final class Cont extends RuntimeException {
        final String label;

        Cont(String label) {
            super(null, null, false, false);
            this.label = label;
        }
    }

    /** A {@code @Future} variable of one method. */
    record Var(String name, Type type) {
    }

    /**
     * An object-API future variable: {@code LazyFuture<Object>} (type OBJECT), {@code LongFuture},
     * {@code IntFuture} or {@code DoubleFuture}.
     */
    record FutureVar(String name, Type type) {
        String declaredType() {
            return byType("LazyFuture<Object>", "LongFuture", "IntFuture", "DoubleFuture");
        }

        String factory() {
            return byType("future", "futureLong", "futureInt", "futureDouble");
        }

        String touch() {
            return byType("touch", "touchLong", "touchInt", "touchDouble");
        }

        private String byType(String object, String asLong, String asInt, String asDouble) {
            return switch (type) {
                case OBJECT -> object;
                case LONG -> asLong;
                case INT -> asInt;
                case DOUBLE -> asDouble;
                case STRING -> throw new IllegalStateException("no String future");
            };
        }
    }

    /**
     * A parameter after {@code (int d, long a)}, named {@code pJ} by its position: a method has
     * zero to four, of any mix of one- and two-slot types, so that the woven copies' parameter
     * slots, the worker parameter's place after them and the base case tested at the call (whose
     * prefix reads them in the leaf) meet every layout.
     */
    enum Param {
        INT(Type.INT), LONG(Type.LONG), DOUBLE(Type.DOUBLE), OBJECT(Type.OBJECT);

        /** The variable type of the same name: its Java spelling and what a read adds into {@code acc}. */
        final Type type;
        final String java;

        Param(Type type) {
            this.type = type;
            this.java = type.java;
        }

        Class<?> type() {
            return switch (this) {
                case INT -> int.class;
                case LONG -> long.class;
                case DOUBLE -> double.class;
                case OBJECT -> Object.class;
            };
        }

        /** The argument made from {@code x}, a long expression. */
        String argSource(String x) {
            return switch (this) {
                case INT -> "(int) (" + x + " % 1000L)";
                case LONG -> x;
                case DOUBLE -> "(double) (" + x + " % 1000L) * 0.5";
                case OBJECT -> "Long.valueOf(" + x + ")";
            };
        }

        Object arg(long x) {
            return switch (this) {
                case INT -> (int) (x % 1000L);
                case LONG -> x;
                case DOUBLE -> (double) (x % 1000L) * 0.5;
                case OBJECT -> Long.valueOf(x);
            };
        }

        /** What the leaf adds to {@code a * 7L}: plain arithmetic, so a leaf that cannot throw stays a pure prefix. */
        String leafSource(String p) {
            return switch (this) {
                case INT, LONG -> " + " + p;
                case DOUBLE -> " + (long) " + p;
                case OBJECT -> "";
            };
        }

        long leaf(Object v) {
            return switch (this) {
                case INT -> (Integer) v;
                case LONG -> (Long) v;
                case DOUBLE -> (long) (double) (Double) v;
                case OBJECT -> 0;
            };
        }

        /** What a read adds into {@code acc}: the generated {@code use} overloads, as for a variable. */
        long use(Object v) {
            return type.use(v);
        }

        String setSource(String p, long k) {
            return switch (this) {
                case INT -> p + " = " + p + " * 3 + " + k + ";";
                case LONG -> p + " = " + p + " ^ " + k + "L;";
                case DOUBLE -> p + " = " + p + " * 0.5 + " + k + ".0;";
                case OBJECT -> p + " = Long.valueOf(acc ^ " + k + "L);";
            };
        }

        Object set(Object v, long k, long acc) {
            return switch (this) {
                case INT -> (Integer) v * 3 + (int) k;
                case LONG -> (Long) v ^ k;
                case DOUBLE -> (Double) v * 0.5 + (double) k;
                case OBJECT -> Long.valueOf(acc ^ k);
            };
        }
    }

    /**
     * The argument for a callee's parameter of type {@code type}, made from {@code (a ^ k)}, or
     * from {@code (acc ^ k)} where {@code fromAcc} (never in a lambda, which captures only
     * effectively final locals).
     */
    record PArg(Param type, long k, boolean fromAcc) {
        String source() {
            return type.argSource("(" + (fromAcc ? "acc" : "a") + " ^ " + k + "L)");
        }

        Object eval(Frame f) {
            return type.arg((fromAcc ? f.acc : f.a) ^ k);
        }
    }

    /** {@code (a * ka + acc * kacc + k [+ idx] [+ use(v)])}: a read of {@code v} may raise its failure. */
    record Arg(long ka, long kacc, long k, String idx, Var v) {
        String source() {
            return "(a * " + ka + "L + acc * " + kacc + "L + " + k + "L" + (idx == null ? "" : " + " + idx)
                    + (v == null ? "" : " + use(" + v.name + ")") + ")";
        }

        long eval(Semantics sem, Frame f) {
            long x = f.a * ka + f.acc * kacc + k + (idx == null ? 0 : f.index(idx));
            return v == null ? x : x + read(sem, f, v);
        }
    }

    /** {@code Math.floorMod(acc ^ k, m) == r}. */
    record Cond(long k, long m, long r) {
        String source() {
            return "Math.floorMod(acc ^ " + k + "L, " + m + "L) == " + r + "L";
        }

        boolean eval(Frame f) {
            return Math.floorMod(f.acc ^ k, m) == r;
        }
    }

    sealed interface Stmt {
    }

    /**
     * {@code @Future T v = mK(d - 1, arg);}, or with {@code declare} false {@code v = mK(d - 1, arg);};
     * with {@code viaOther}, {@code other().mK(…)}: a receiver computed by a call.
     */
    record Call(Var v, boolean declare, int callee, Arg arg, boolean viaOther, List<PArg> pargs) implements Stmt {
    }

    /** {@code acc = acc * 31 + use(v);} */
    record Read(Var v) implements Stmt {
    }

    /**
     * {@code final long temp = arg; [Type] f = Spindle.futureX(() -> mK(d - 1, temp));}: the
     * lambda captures the argument's value, as it must (acc changes). With {@code inner}, the
     * lambda's body is {@code { @Future T w = mK(d - 1, temp); return w; }}: its own method is
     * woven for the directive, and the serial method that calls it in place calls a woven method.
     * Either way the future's outcome is the call's.
     */
    record Fork(FutureVar f, boolean declare, int callee, Arg arg, boolean viaOther, String temp, List<PArg> pargs,
            boolean inner) implements Stmt {
    }

    /** {@code acc = acc * 37 + use(f.touchX());} */
    record Touch(FutureVar f) implements Stmt {
    }

    /** {@code v = constant;} */
    record SetConstant(Var v, long k) implements Stmt {
    }

    /** {@code acc = acc * 29 + use(mK(d - 1, arg));}: a call that is not a future. */
    record PlainCall(int callee, Arg arg, boolean viaOther, List<PArg> pargs) implements Stmt {
    }

    /** {@code acc = acc * 43L + use(pJ);} */
    record ReadParam(int j, Param type) implements Stmt {
    }

    /** {@code pJ = …;}: a parameter reassigned, from itself or (an Object one) from {@code acc}. */
    record SetParam(int j, Param type, long k) implements Stmt {
    }

    /** {@code acc = acc * k + d;} */
    record Mix(long k) implements Stmt {
    }

    record If(Cond c, Block then, Block otherwise) implements Stmt {
    }

    /** {@code label: for (int idx = 0; idx < n; idx++) body}, or the same as a {@code do}/{@code while}. */
    record Loop(String label, String idx, int n, boolean doWhile, Block body) implements Stmt {
    }

    /** {@code switch ((int) Math.floorMod(acc ^ k, cases.size())) { case 0 -> … default -> … }}. */
    record Switch(long k, List<Block> cases) implements Stmt {
    }

    /** {@code try body [catch (IllegalStateException e) { acc = acc * 17 + 5; }] [finally fin]}. */
    record Try(Block body, boolean catches, Block fin) implements Stmt {
    }

    record Throw(Cond c) implements Stmt {
    }

    /** {@code if (c) return toT(acc);}, T the method's result type; in a constructor {@code if (c) { value = toT(acc); return; }}. */
    record Return(Cond c, Type result, boolean constructor) implements Stmt {
    }

    /** {@code if (c) break [label];} */
    record Break(Cond c, String label) implements Stmt {
    }

    /** {@code if (c) continue [label];} */
    record Continue(Cond c, String label) implements Stmt {
    }

    record Sync(Block body) implements Stmt {
    }

    record Block(List<Stmt> stmts) {
    }

    /**
     * {@code T mK(int d, long a, params…)}: at {@code d <= 0} fails if {@code floorMod(a * leafK + 1, leafP) == 0}
     * (never if {@code leafP} is 0: a base case that cannot throw, which the weaver may test at the call),
     * else returns from {@code a * 7} plus its numeric parameters.
     */
    record Method(int id, Type result, long leafK, long leafP, boolean locks, boolean constructor, List<Param> params, Block body) {
        /** The parameter types, for reflection. */
        Class<?>[] parameterTypes() {
            Class<?>[] types = new Class<?>[2 + params.size()];
            types[0] = int.class;
            types[1] = long.class;
            for (int j = 0; j < params.size(); j++) {
                types[2 + j] = params.get(j).type();
            }
            return types;
        }

        /** The extra parameters' values for a run from {@code a}: what the test passes and the model assumes. */
        Object[] entryParams(long a) {
            Object[] values = new Object[params.size()];
            for (int j = 0; j < values.length; j++) {
                values[j] = params.get(j).arg(a ^ (31L * j + 5));
            }
            return values;
        }

        /** {@code (d, a, params…)}, boxed for {@code Method.invoke}. */
        Object[] entryArguments(int d, long a) {
            Object[] values = entryParams(a);
            Object[] args = new Object[2 + values.length];
            args[0] = d;
            args[1] = a;
            System.arraycopy(values, 0, args, 2, values.length);
            return args;
        }

        String signature() {
            StringBuilder sb = new StringBuilder("(int d, long a");
            for (int j = 0; j < params.size(); j++) {
                sb.append(", ").append(params.get(j).java).append(" p").append(j);
            }
            return sb.append(')').toString();
        }

        /** {@code d, a, p0, …}: the parameters passed on, from the method to its constructor. */
        String passOn() {
            StringBuilder sb = new StringBuilder("d, a");
            for (int j = 0; j < params.size(); j++) {
                sb.append(", p").append(j);
            }
            return sb.toString();
        }
    }

    /**
     * @param instance its methods are instance methods (called on a new instance), else static
     * @param checked  its failure is the checked {@code java.io.IOException}, else {@code IllegalStateException}
     * @param viaApi   (instance programs) {@code other()} returns the interface {@code <className>Api},
     *                 which declares every method: its calls are {@code invokeinterface}
     */
    record Program(String className, List<Method> methods, boolean instance, boolean checked, boolean viaApi) {
        /** The outcome of a run that fails, as {@code outcome} prints it. */
        String failure() {
            return "threw " + (checked ? "java.io.IOException" : "java.lang.IllegalStateException") + ": boom";
        }

        private String fail() {
            return checked ? "throw new java.io.IOException(\"boom\");" : "throw new IllegalStateException(\"boom\");";
        }

        private String call(int callee, boolean viaOther) {
            return (viaOther ? "other()." : "") + "m" + callee;
        }

        /** {@code (d - 1, arg, pargs…)}. */
        private static String arguments(String arg, List<PArg> pargs) {
            StringBuilder sb = new StringBuilder("(d - 1, ").append(arg);
            for (PArg q : pargs) {
                sb.append(", ").append(q.source());
            }
            return sb.append(')').toString();
        }

        String source() {
            StringBuilder sb = new StringBuilder();
            sb.append("package random;\n\nimport dev.spindle.Future;\nimport dev.spindle.Spindle;\n");
            sb.append("import dev.spindle.future.DoubleFuture;\nimport dev.spindle.future.IntFuture;\n");
            sb.append("import dev.spindle.future.LazyFuture;\nimport dev.spindle.future.LongFuture;\nimport java.util.Objects;\n\n");
            String throwsClause = checked ? " throws Exception" : "";
            if (viaApi) {                                  // not nested: a class cannot implement its own member
                sb.append("interface ").append(className).append("Api {\n");
                for (Method m : methods) {
                    sb.append("    ").append(m.result.java).append(" m").append(m.id).append(m.signature()).append(throwsClause)
                            .append(";\n");
                }
                sb.append("}\n\n");
            }
            sb.append("public final class ").append(className).append(viaApi ? " implements " + className + "Api" : "").append(" {\n");
            sb.append("    static int toInt(long x) { return (int) (x ^ (x >>> 32)); }\n");
            sb.append("    static double toDouble(long x) { return (double) Math.floorMod(x, 1000003L); }\n");
            sb.append("    static String toStr(long x) { return Long.toString(Math.floorMod(x, 1000003L), 36); }\n");
            sb.append("    static long use(int v) { return v; }\n");
            sb.append("    static long use(long v) { return v; }\n");
            sb.append("    static long use(double v) { return (long) (v * 3); }\n");
            sb.append("    static long use(Object v) { return Objects.hashCode(v); }\n");
            if (instance) {
                sb.append("    ").append(className).append(viaApi ? "Api" : "").append(" other() { return this; }\n");
            }
            for (Method m : methods) {
                sb.append("\n    public ").append(instance ? "" : "static ").append(m.result.java).append(" m").append(m.id)
                        .append(m.signature()).append(throwsClause).append(" {\n");
                String in = "        ";
                if (m.constructor) {
                    sb.append(in).append("return new C").append(m.id).append('(').append(m.passOn()).append(").value;\n    }\n\n");
                    sb.append("    ").append(instance ? "" : "static ").append("final class C").append(m.id).append(" {\n");
                    sb.append("        ").append(m.result.java).append(" value;\n\n");
                    sb.append("        C").append(m.id).append(m.signature()).append(throwsClause).append(" {\n");
                    in = "            ";
                }
                sb.append(in).append("if (d <= 0) {\n");
                if (m.leafP != 0) {
                    sb.append(in).append("    if (Math.floorMod(a * ").append(m.leafK).append("L + 1L, ").append(m.leafP)
                            .append("L) == 0L) ").append(fail()).append("\n");
                }
                StringBuilder leaf = new StringBuilder("a * 7L");
                for (int j = 0; j < m.params.size(); j++) {
                    leaf.append(m.params.get(j).leafSource("p" + j));
                }
                sb.append(in).append(m.constructor ? "    value = " : "    return ").append(m.result.fromAccSource(leaf.toString()))
                        .append(m.constructor ? ";\n" + in + "    return;\n" : ";\n");
                sb.append(in).append("}\n");
                sb.append(in).append("long acc = a;\n");
                if (m.locks) {
                    sb.append(in).append("Object lock = new Object();\n");
                }
                printStmts(sb, m.body, m.constructor ? 3 : 2);
                sb.append(in).append(m.constructor ? "value = " : "return ").append(m.result.fromAccSource("acc")).append(";\n");
                sb.append(m.constructor ? "        }\n    }\n" : "    }\n");
            }
            return sb.append("}\n").toString();
        }

        private void printStmts(StringBuilder sb, Block b, int depth) {
            for (Stmt s : b.stmts) {
                print(sb, s, depth);
            }
        }

        private void print(StringBuilder sb, Stmt s, int depth) {
            String in = "    ".repeat(depth);
            switch (s) {
                case Call c -> {
                    sb.append(in);
                    if (c.declare) {
                        sb.append("@Future ").append(c.v.type.java).append(' ');
                    }
                    sb.append(c.v.name).append(" = ").append(call(c.callee, c.viaOther)).append(arguments(c.arg.source(), c.pargs))
                            .append(";\n");
                }
                case Read r -> sb.append(in).append("acc = acc * 31L + use(").append(r.v.name).append(");\n");
                case Fork k -> {
                    sb.append(in).append("final long ").append(k.temp).append(" = ").append(k.arg.source()).append(";\n");
                    String body = call(k.callee, k.viaOther) + arguments(k.temp, k.pargs);
                    if (k.inner) {
                        String w = "w" + k.temp;
                        body = "{ @Future " + k.f.type.java + " " + w + " = " + body + "; return " + w + "; }";
                    }
                    sb.append(in).append(k.declare ? k.f.declaredType() + " " : "").append(k.f.name).append(" = Spindle.")
                            .append(k.f.factory()).append("(() -> ").append(body).append(");\n");
                }
                case Touch t -> sb.append(in).append("acc = acc * 37L + use(").append(t.f.name).append('.').append(t.f.touch())
                        .append("());\n");
                case SetConstant k -> sb.append(in).append(k.v.name).append(" = ").append(k.v.type.constantSource(k.k)).append(";\n");
                case PlainCall p -> sb.append(in).append("acc = acc * 29L + use(").append(call(p.callee, p.viaOther))
                        .append(arguments(p.arg.source(), p.pargs)).append(");\n");
                case ReadParam q -> sb.append(in).append("acc = acc * 43L + use(p").append(q.j).append(");\n");
                case SetParam q -> sb.append(in).append(q.type.setSource("p" + q.j, q.k)).append('\n');
                case Mix x -> sb.append(in).append("acc = acc * ").append(x.k).append("L + d;\n");
                case If i -> {
                    sb.append(in).append("if (").append(i.c.source()).append(") {\n");
                    printStmts(sb, i.then, depth + 1);
                    sb.append(in).append("} else {\n");
                    printStmts(sb, i.otherwise, depth + 1);
                    sb.append(in).append("}\n");
                }
                case Loop l -> {
                    if (l.doWhile) {
                        sb.append(in).append("{\n");
                        sb.append(in).append("    int ").append(l.idx).append(" = 0;\n");
                        sb.append(in).append("    ").append(l.label).append(": do {\n");
                        printStmts(sb, l.body, depth + 2);
                        sb.append(in).append("    } while (++").append(l.idx).append(" < ").append(l.n).append(");\n");
                        sb.append(in).append("}\n");
                    } else {
                        sb.append(in).append(l.label).append(": for (int ").append(l.idx).append(" = 0; ").append(l.idx).append(" < ")
                                .append(l.n).append("; ").append(l.idx).append("++) {\n");
                        printStmts(sb, l.body, depth + 1);
                        sb.append(in).append("}\n");
                    }
                }
                case Switch w -> {
                    sb.append(in).append("switch ((int) Math.floorMod(acc ^ ").append(w.k).append("L, ").append(w.cases.size())
                            .append("L)) {\n");
                    for (int i = 0; i < w.cases.size(); i++) {
                        sb.append(in).append("    ").append(i == w.cases.size() - 1 ? "default" : "case " + i).append(" -> {\n");
                        printStmts(sb, w.cases.get(i), depth + 2);
                        sb.append(in).append("    }\n");
                    }
                    sb.append(in).append("}\n");
                }
                case Try t -> {
                    sb.append(in).append("try {\n");
                    printStmts(sb, t.body, depth + 1);
                    if (t.catches) {
                        sb.append(in).append(checked ? "} catch (Exception e) {\n" : "} catch (IllegalStateException e) {\n");
                        sb.append(in).append("    acc = acc * 17L + 5L;\n");
                    }
                    if (t.fin != null) {
                        sb.append(in).append("} finally {\n");
                        printStmts(sb, t.fin, depth + 1);
                    }
                    sb.append(in).append("}\n");
                }
                case Throw t -> sb.append(in).append("if (").append(t.c.source()).append(") ").append(fail()).append("\n");
                case Return r -> sb.append(in).append("if (").append(r.c.source()).append(") ")
                        .append(r.constructor ? "{ value = " : "return ").append(r.result.fromAccSource("acc"))
                        .append(r.constructor ? "; return; }\n" : ";\n");
                case Break b -> sb.append(in).append("if (").append(b.c.source()).append(") break")
                        .append(b.label == null ? "" : " " + b.label).append(";\n");
                case Continue c -> sb.append(in).append("if (").append(c.c.source()).append(") continue")
                        .append(c.label == null ? "" : " " + c.label).append(";\n");
                case Sync y -> {
                    sb.append(in).append("synchronized (lock) {\n");
                    printStmts(sb, y.body, depth + 1);
                    sb.append(in).append("}\n");
                }
            }
        }
    }

    /** Calls a method body may make per activation, counting each loop iteration: bounds the call tree. */
    private static final int CALL_BUDGET = 6;
    private static final long[] LEAF_PRIMES = {0, 5, 11, 23, 47, 1_000_003};
    private static final Type[] RESULTS = {Type.INT, Type.LONG, Type.DOUBLE, Type.STRING};
    private static final Type[] FUTURE_TYPES = {Type.OBJECT, Type.LONG, Type.INT, Type.DOUBLE};

    /** A random program of two to four methods; the same random state gives the same program. */
    static Program generate(SplittableRandom r, String className) {
        boolean instance = r.nextInt(3) == 0;
        boolean checked = r.nextInt(4) == 0;
        int n = 2 + r.nextInt(3);
        Type[] results = new Type[n];
        List<List<Param>> params = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            results[i] = RESULTS[r.nextInt(RESULTS.length)];
            List<Param> ps = new ArrayList<>();
            for (int j = r.nextBoolean() ? 0 : 1 + r.nextInt(4); j > 0; j--) {
                ps.add(Param.values()[r.nextInt(Param.values().length)]);
            }
            params.add(List.copyOf(ps));
        }
        List<Method> methods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean constructor = r.nextInt(5) == 0;
            Generator g = new Generator(r, results, params, i, instance, !checked, constructor);
            Block body = g.block(0, 1);
            methods.add(new Method(i, results[i], 1 + r.nextInt(1000), LEAF_PRIMES[r.nextInt(LEAF_PRIMES.length)], g.locks,
                    constructor, params.get(i), body));
        }
        return new Program(className, methods, instance, checked, instance && r.nextBoolean());
    }

    /** Generates one method's body, tracking the variables and loop indices in scope. */
    private static final class Generator {
        private final SplittableRandom r;
        private final Type[] results;
        private final Type result;
        /** Every method's parameters after {@code (int d, long a)}, and this method's. */
        private final List<List<Param>> params;
        private final List<Param> own;
        private final List<Var> vars = new ArrayList<>();
        private final List<String> indices = new ArrayList<>();
        private int nextVar;
        private int budget = CALL_BUDGET;
        /** Enclosing loops' labels, innermost last, and whether a switch sits inside the innermost. */
        private final List<String> labels = new ArrayList<>();
        private boolean switchInsideLoop;
        private final boolean instance;
        /** Whether object-API futures may be made: their lambdas cannot throw a checked failure. */
        private final boolean objectFutures;
        private final List<FutureVar> futures = new ArrayList<>();
        private int nextFuture;
        private int nextTemp;
        private int loops;
        boolean locks;

        private final boolean constructor;

        Generator(SplittableRandom r, Type[] results, List<List<Param>> params, int self, boolean instance, boolean objectFutures,
                boolean constructor) {
            this.r = r;
            this.results = results;
            this.result = results[self];
            this.params = params;
            this.own = params.get(self);
            this.instance = instance;
            this.objectFutures = objectFutures;
            this.constructor = constructor;
        }

        Block block(int nest, int multiplier) {
            int scope = vars.size();
            int futureScope = futures.size();
            int n = 1 + r.nextInt(nest == 0 ? 6 : 3);
            List<Stmt> stmts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                stmts.add(stmt(nest, multiplier));
            }
            vars.subList(scope, vars.size()).clear();
            futures.subList(futureScope, futures.size()).clear();
            return new Block(stmts);
        }

        private Stmt stmt(int nest, int multiplier) {
            boolean canCall = budget >= multiplier;
            boolean deep = nest >= 3;
            while (true) {
                switch (r.nextInt(objectFutures ? 20 : 17)) {
                    case 0, 1, 2, 3 -> {
                        if (canCall) {
                            budget -= multiplier;
                            int callee = r.nextInt(results.length);
                            Var v = new Var("v" + nextVar++, variableFor(results[callee]));
                            Call c = new Call(v, true, callee, arg(), viaOther(), pargs(callee, false));
                            vars.add(v);
                            return c;
                        }
                    }
                    case 4, 5 -> {
                        if (canCall && !vars.isEmpty()) {
                            Var v = vars.get(r.nextInt(vars.size()));
                            List<Integer> callees = calleesFor(v.type);
                            if (!callees.isEmpty()) {
                                budget -= multiplier;
                                int callee = callees.get(r.nextInt(callees.size()));
                                return new Call(v, false, callee, arg(), viaOther(), pargs(callee, false));
                            }
                        }
                    }
                    case 6, 7, 8 -> {
                        if (!vars.isEmpty()) {
                            return new Read(vars.get(r.nextInt(vars.size())));
                        }
                    }
                    case 9 -> {
                        if (!vars.isEmpty() && r.nextInt(3) == 0) {
                            return new SetConstant(vars.get(r.nextInt(vars.size())), r.nextInt(100));
                        }
                        if (canCall && r.nextBoolean()) {
                            budget -= multiplier;
                            int callee = r.nextInt(results.length);
                            return new PlainCall(callee, arg(), viaOther(), pargs(callee, false));
                        }
                        if (!own.isEmpty() && r.nextBoolean()) {
                            int j = r.nextInt(own.size());
                            return r.nextBoolean() ? new ReadParam(j, own.get(j)) : new SetParam(j, own.get(j), r.nextInt(100));
                        }
                        return new Mix(3 + r.nextInt(40));
                    }
                    case 10, 11 -> {
                        if (!deep) {
                            if (r.nextInt(3) == 0) {
                                boolean outer = switchInsideLoop;
                                switchInsideLoop = !labels.isEmpty();
                                List<Block> cases = new ArrayList<>();
                                for (int i = 2 + r.nextInt(2); i > 0; i--) {
                                    cases.add(block(nest + 1, multiplier));
                                }
                                switchInsideLoop = outer;
                                return new Switch(r.nextInt(1 << 20), cases);
                            }
                            return new If(cond(), block(nest + 1, multiplier), block(nest + 1, multiplier));
                        }
                    }
                    case 12 -> {
                        if (!deep) {
                            int times = 1 + r.nextInt(3);
                            int k = loops++;
                            String idx = "i" + k;
                            indices.add(idx);
                            labels.add("L" + k);
                            boolean outer = switchInsideLoop;
                            switchInsideLoop = false;
                            Block body = block(nest + 1, multiplier * times);
                            switchInsideLoop = outer;
                            labels.remove(labels.size() - 1);
                            indices.remove(idx);
                            return new Loop("L" + k, idx, times, r.nextInt(3) == 0, body);
                        }
                    }
                    case 13 -> {
                        if (!deep) {
                            Block body = block(nest + 1, multiplier);
                            boolean catches = r.nextInt(4) != 0;
                            Block fin = !catches || r.nextInt(3) == 0
                                    ? new Block(List.of(new Mix(3 + r.nextInt(40)))) : null;
                            return new Try(body, catches, fin);
                        }
                    }
                    case 14 -> {
                        return r.nextBoolean() ? new Throw(cond()) : new Return(cond(), result, constructor);
                    }
                    case 15 -> {
                        if (!labels.isEmpty()) {
                            // unlabelled inside a switch would leave the switch: a break there names its loop
                            String label = r.nextInt(3) == 0 || switchInsideLoop && r.nextBoolean()
                                    ? labels.get(r.nextInt(labels.size())) : null;
                            if (r.nextBoolean()) {
                                return new Continue(cond(), label);
                            }
                            return new Break(cond(), label == null && switchInsideLoop ? labels.get(labels.size() - 1) : label);
                        }
                    }
                    case 16 -> {
                        if (!deep && r.nextInt(2) == 0) {
                            locks = true;
                            return new Sync(block(nest + 1, multiplier));
                        }
                    }
                    case 17, 18 -> {
                        if (canCall) {
                            boolean reuse = !futures.isEmpty() && r.nextInt(3) == 0;
                            FutureVar f = reuse ? futures.get(r.nextInt(futures.size()))
                                    : new FutureVar("f" + nextFuture++, FUTURE_TYPES[r.nextInt(FUTURE_TYPES.length)]);
                            List<Integer> callees = calleesFor(f.type);
                            if (!callees.isEmpty()) {
                                budget -= multiplier;
                                if (!reuse) {
                                    futures.add(f);
                                }
                                int callee = callees.get(r.nextInt(callees.size()));
                                return new Fork(f, !reuse, callee, arg(), viaOther(), "t" + nextTemp++, pargs(callee, true),
                                        r.nextInt(3) == 0);
                            }
                        }
                    }
                    case 19 -> {
                        if (!futures.isEmpty()) {
                            return new Touch(futures.get(r.nextInt(futures.size())));
                        }
                    }
                    default -> throw new IllegalStateException();
                }
            }
        }

        /** The methods whose result a variable of type {@code t} holds. */
        private List<Integer> calleesFor(Type t) {
            List<Integer> callees = new ArrayList<>();
            for (int k = 0; k < results.length; k++) {
                if (t.accepts(results[k])) {
                    callees.add(k);
                }
            }
            return callees;
        }

        /** A variable type that holds {@code callee}'s result: mostly the same type, else widened or boxed. */
        private Type variableFor(Type callee) {
            if (r.nextInt(3) != 0) {
                return callee;
            }
            List<Type> ok = new ArrayList<>();
            for (Type t : Type.values()) {
                if (t.accepts(callee)) {
                    ok.add(t);
                }
            }
            return ok.get(r.nextInt(ok.size()));
        }

        private Arg arg() {
            String idx = indices.isEmpty() || r.nextBoolean() ? null : indices.get(r.nextInt(indices.size()));
            Var v = vars.isEmpty() || r.nextInt(4) != 0 ? null : vars.get(r.nextInt(vars.size()));
            return new Arg(1 + r.nextInt(9), r.nextInt(5), r.nextInt(1000), idx, v);
        }

        /** Arguments for {@code callee}'s parameters after {@code (d - 1, arg)}; in a lambda, none from {@code acc}. */
        private List<PArg> pargs(int callee, boolean inLambda) {
            List<PArg> out = new ArrayList<>();
            for (Param t : params.get(callee)) {
                out.add(new PArg(t, r.nextInt(1 << 16), !inLambda && r.nextBoolean()));
            }
            return List.copyOf(out);
        }

        private boolean viaOther() {
            return instance && r.nextInt(3) == 0;
        }

        /** True about one time in {@code m}. */
        private Cond cond() {
            long m = 2 + r.nextInt(5);
            return new Cond(r.nextInt(1 << 20), m, r.nextInt((int) m));
        }
    }

    /**
     * Every program one statement smaller than {@code p} that is still valid Java: one statement
     * removed (a compound one with everything in it), and with a declaration every use of its variable.
     */
    static List<Program> smaller(Program p) {
        List<Program> out = new ArrayList<>();
        for (int k = 0; k < p.methods.size(); k++) {
            Method m = p.methods.get(k);
            int n = count(m.body);
            for (int t = 0; t < n; t++) {
                Stmt target = find(m.body, new int[] {t});
                Object dropped = target instanceof Call c && c.declare ? c.v : target instanceof Fork fork && fork.declare ? fork.f : null;
                Block body = without(m.body, new int[] {t}, dropped);
                List<Method> ms = new ArrayList<>(p.methods);
                ms.set(k, new Method(m.id, m.result, m.leafK, m.leafP, m.locks, m.constructor, m.params, body));
                out.add(new Program(p.className, ms, p.instance, p.checked, p.viaApi));
            }
        }
        return out;
    }

    /** Statements in {@code p}: its size, for reports. */
    static int size(Program p) {
        int n = 0;
        for (Method m : p.methods) {
            n += count(m.body);
        }
        return n;
    }

    private static List<Block> children(Stmt s) {
        return switch (s) {
            case If i -> List.of(i.then, i.otherwise);
            case Loop l -> List.of(l.body);
            case Switch w -> w.cases;
            case Try t -> t.fin == null ? List.of(t.body) : List.of(t.body, t.fin);
            case Sync y -> List.of(y.body);
            default -> List.of();
        };
    }

    private static int count(Block b) {
        int n = 0;
        for (Stmt s : b.stmts) {
            n++;
            for (Block c : children(s)) {
                n += count(c);
            }
        }
        return n;
    }

    /** The statement numbered {@code t[0]} in pre-order, or null (t[0] counts down). */
    private static Stmt find(Block b, int[] t) {
        for (Stmt s : b.stmts) {
            if (t[0]-- == 0) {
                return s;
            }
            for (Block c : children(s)) {
                Stmt f = find(c, t);
                if (f != null) {
                    return f;
                }
            }
        }
        return null;
    }

    /** Whether {@code s} names {@code v}, a {@link Var} or a {@link FutureVar}. */
    private static boolean uses(Stmt s, Object v) {
        return v != null && (s instanceof Read r && r.v.equals(v) || s instanceof SetConstant k && k.v.equals(v)
                || s instanceof Call c && (c.v.equals(v) || v.equals(c.arg.v)) || s instanceof PlainCall c && v.equals(c.arg.v)
                || s instanceof Fork k && (k.f.equals(v) || v.equals(k.arg.v)) || s instanceof Touch t && t.f.equals(v));
    }

    private static Block without(Block b, int[] t, Object dropped) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : b.stmts) {
            boolean target = t[0]-- == 0;
            Stmt kept = switch (s) {
                case If i -> new If(i.c, without(i.then, t, dropped), without(i.otherwise, t, dropped));
                case Loop l -> new Loop(l.label, l.idx, l.n, l.doWhile, without(l.body, t, dropped));
                case Switch w -> {
                    List<Block> cases = new ArrayList<>();
                    for (Block c : w.cases) {
                        cases.add(without(c, t, dropped));
                    }
                    yield new Switch(w.k, cases);
                }
                case Try y -> new Try(without(y.body, t, dropped), y.catches, y.fin == null ? null : without(y.fin, t, dropped));
                case Sync y -> new Sync(without(y.body, t, dropped));
                default -> s;
            };
            if (!target && !uses(s, dropped)) {
                out.add(kept);
            }
        }
        return new Block(out);
    }

    /** One activation's state. */
    private static final class Frame {
        final long a;
        final int d;
        /** The parameters after {@code (d, a)}: their current values. */
        final Object[] params;
        long acc;
        final Map<String, Long> indices = new HashMap<>();
        final Map<Var, Object> values = new HashMap<>();
        /** A {@code @Future} variable's unfinished call: its value, or a {@link Boom}. */
        final Map<Var, Object> handles = new LinkedHashMap<>();
        /** An object-API future's outcome: its value, or a {@link Boom}. */
        final Map<FutureVar, Object> futures = new HashMap<>();
        boolean pendingFailure;

        Frame(int d, long a, Object[] params) {
            this.d = d;
            this.a = a;
            this.params = params;
            this.acc = a;
        }

        /** The callee's arguments after {@code (d - 1, arg)}, in source order. */
        Object[] args(List<PArg> pargs) {
            Object[] values = new Object[pargs.size()];
            for (int j = 0; j < values.length; j++) {
                values[j] = pargs.get(j).eval(this);
            }
            return values;
        }

        long index(String idx) {
            return indices.get(idx);
        }

        /** Finishes {@code v}'s call, if any: a failure is kept for the method's exit. */
        void settle(Var v) {
            Object h = handles.remove(v);
            if (h instanceof Boom) {
                pendingFailure = true;
            }
        }
    }

    /** Evaluates {@code mK(d, a, params…)} of a program: its value, or throws {@link Boom}. */
    static Object call(Program p, Semantics sem, int k, int d, long a, Object[] params) {
        Method m = p.methods.get(k);
        if (d <= 0) {
            if (m.leafP != 0 && Math.floorMod(a * m.leafK + 1L, m.leafP) == 0L) {
                throw new Boom();
            }
            long leaf = a * 7L;
            for (int j = 0; j < params.length; j++) {
                leaf += m.params.get(j).leaf(params[j]);
            }
            return m.result.fromAcc(leaf);
        }
        Frame f = new Frame(d, a, params.clone());
        Object result;
        try {
            exec(p, sem, m.body, f);
            result = m.result.fromAcc(f.acc);
        } catch (Ret r) {
            result = r.value;
        }
        if (sem == Semantics.DIRECTIVE) {
            for (Var v : new ArrayList<>(f.handles.keySet())) {
                f.settle(v);
            }
            if (f.pendingFailure) {
                throw new Boom();
            }
        }
        return result;
    }

    /** The outcome as {@code ConformanceTest.outcome} prints it, of a run from {@code (d, a)} with {@link Method#entryParams}. */
    static String outcome(Program p, Semantics sem, int k, int d, long a) {
        try {
            return "value " + call(p, sem, k, d, a, p.methods.get(k).entryParams(a));
        } catch (Boom b) {
            return p.failure();
        }
    }

    private static void exec(Program p, Semantics sem, Block b, Frame f) {
        List<Var> declared = new ArrayList<>();
        boolean normalOrJump = false;
        try {
            for (int i = 0; i < b.stmts.size(); i++) {
                Stmt s = b.stmts.get(i);
                if (s instanceof Call c && c.declare && i == b.stmts.size() - 1) {
                    // javac records no variable whose range is empty: a declaration that ends its
                    // block is invisible to the weaver, and its call is made as written.
                    long arg = c.arg.eval(sem, f);
                    f.values.put(c.v, c.v.type.convert(call(p, sem, c.callee, f.d - 1, arg, f.args(c.pargs))));
                    continue;
                }
                if (s instanceof Call c && c.declare) {
                    declared.add(c.v);
                }
                exec(p, sem, s, f);
            }
            normalOrJump = true;
        } catch (Brk | Cont | Ret j) {
            normalOrJump = true;
            throw j;
        } finally {
            if (sem == Semantics.DIRECTIVE && normalOrJump) {
                for (Var v : declared) {
                    f.settle(v);
                }
            }
        }
    }

    /** A read of {@code v}: its call's failure if it is the first read since the call, else what {@code use(v)} gives. */
    private static long read(Semantics sem, Frame f, Var v) {
        if (sem == Semantics.DIRECTIVE && f.handles.containsKey(v)) {
            Object h = f.handles.remove(v);
            if (h instanceof Boom boom) {
                throw boom;
            }
            f.values.put(v, h);
        }
        return v.type.use(f.values.get(v));
    }

    /** A call's value as a variable of type {@code t} holds it, or its {@link Boom}: a handle's content. */
    private static Object outcomeOf(Program p, Semantics sem, int callee, int d, long arg, Object[] params, Type t) {
        try {
            return t.convert(call(p, sem, callee, d, arg, params));
        } catch (Boom boom) {
            return boom;
        }
    }

    private static void exec(Program p, Semantics sem, Stmt s, Frame f) {
        switch (s) {
            case Call c -> {
                long arg = c.arg.eval(sem, f);
                Object[] params = f.args(c.pargs);
                if (sem == Semantics.SERIAL) {
                    f.values.put(c.v, c.v.type.convert(call(p, sem, c.callee, f.d - 1, arg, params)));
                } else {
                    f.settle(c.v);
                    f.handles.put(c.v, outcomeOf(p, sem, c.callee, f.d - 1, arg, params, c.v.type));
                    f.values.put(c.v, c.v.type.defaultValue());
                }
            }
            case Read r -> {
                long acc = f.acc;
                f.acc = acc * 31L + read(sem, f, r.v);
            }
            case Fork k -> {
                long arg = k.arg.eval(sem, f);
                f.futures.put(k.f, outcomeOf(p, sem, k.callee, f.d - 1, arg, f.args(k.pargs), k.f.type));
            }
            case Touch t -> {
                Object o = f.futures.get(t.f);
                if (o instanceof Boom) {
                    throw new Boom();
                }
                long acc = f.acc;
                f.acc = acc * 37L + t.f.type.use(o);
            }
            case SetConstant k -> {
                if (sem == Semantics.DIRECTIVE) {
                    f.settle(k.v);
                }
                f.values.put(k.v, k.v.type.constant(k.k));
            }
            case PlainCall c -> {
                Type t = p.methods.get(c.callee).result;
                long acc = f.acc;
                long arg = c.arg.eval(sem, f);
                f.acc = acc * 29L + t.use(call(p, sem, c.callee, f.d - 1, arg, f.args(c.pargs)));
            }
            case ReadParam q -> f.acc = f.acc * 43L + q.type.use(f.params[q.j]);
            case SetParam q -> f.params[q.j] = q.type.set(f.params[q.j], q.k, f.acc);
            case Mix x -> f.acc = f.acc * x.k + f.d;
            case If i -> exec(p, sem, i.c.eval(f) ? i.then : i.otherwise, f);
            case Switch w -> exec(p, sem, w.cases.get((int) Math.floorMod(f.acc ^ w.k, (long) w.cases.size())), f);
            case Loop l -> {
                try {
                    for (long i = 0; i < l.n; i++) {
                        f.indices.put(l.idx, i);
                        try {
                            exec(p, sem, l.body, f);
                        } catch (Brk brk) {
                            if (brk.label != null && !brk.label.equals(l.label)) {
                                throw brk;
                            }
                            break;
                        } catch (Cont cont) {
                            if (cont.label != null && !cont.label.equals(l.label)) {
                                throw cont;
                            }
                        }
                    }
                } finally {
                    f.indices.remove(l.idx);
                }
            }
            case Try t -> {
                try {
                    exec(p, sem, t.body, f);
                } catch (Boom boom) {
                    if (!t.catches) {
                        throw boom;
                    }
                    f.acc = f.acc * 17L + 5L;
                } finally {
                    if (t.fin != null) {
                        exec(p, sem, t.fin, f);
                    }
                }
            }
            case Throw t -> {
                if (t.c.eval(f)) {
                    throw new Boom();
                }
            }
            case Return r -> {
                if (r.c.eval(f)) {
                    throw new Ret(r.result.fromAcc(f.acc));
                }
            }
            case Break b -> {
                if (b.c.eval(f)) {
                    throw new Brk(b.label);
                }
            }
            case Continue c -> {
                if (c.c.eval(f)) {
                    throw new Cont(c.label);
                }
            }
            case Sync y -> exec(p, sem, y.body, f);
        }
    }
}
