package dev.mgpu.tests;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Well-formed kernels from a fuzzer's bytes: each choice is read from the bytes while they last, then from a
 * generator seeded by them, so that one input always gives the same programs. A kernel is a sequence of arith,
 * math, memref, scf and gpu operations over i1 to i128, f16, bf16, f32, f64 and index, on memref and scalar
 * arguments, each operand of the type its operation takes: most programs pass the verifier, and what a target
 * cannot do is its located error.
 */
final class KernelGenerator {
    static final List<String> INTS = List.of("i1", "i8", "i16", "i32", "i64", "i128");
    static final List<String> FLOATS = List.of("f16", "bf16", "f32", "f64");
    private static final List<String> SCALARS = List.of("i1", "i8", "i16", "i32", "i64", "i128", "f16", "bf16",
            "f32", "f64", "index");
    private static final List<String> INT_BINARY = List.of("addi", "subi", "muli", "divsi", "divui", "remsi",
            "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui",
            "ceildivsi", "ceildivui", "floordivsi");
    private static final List<String> FLOAT_BINARY = List.of("addf", "subf", "mulf", "divf", "remf", "maximumf",
            "minimumf", "maxnumf", "minnumf");
    private static final List<String> MATH_UNARY = List.of("sqrt", "rsqrt", "absf", "exp", "exp2", "log", "log2",
            "sin", "cos", "tanh", "floor", "ceil", "round", "roundeven", "trunc", "erf", "tan", "asin", "acos",
            "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log10", "log1p", "expm1", "cbrt", "erfc");
    private static final List<String> MATH_BINARY = List.of("powf", "atan2", "copysign");
    private static final List<String> MATH_INT = List.of("absi", "ctlz", "cttz", "ctpop");
    private static final List<String> MATH_CLASS = List.of("isnan", "isinf", "isfinite", "isnormal");
    private static final List<String> CMPI = List.of("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt",
            "uge");
    private static final List<String> CMPF = List.of("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
            "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true");
    private static final List<String> ATOMIC_INT = List.of("addi", "maxs", "mins", "maxu", "minu", "andi", "ori",
            "assign", "muli");
    private static final List<String> ATOMIC_FLOAT = List.of("addf", "maximumf", "minimumf", "assign", "mulf");
    private static final List<String> REDUCE_INT = List.of("add", "mul", "minui", "minsi", "maxui", "maxsi", "and",
            "or", "xor");
    private static final List<String> REDUCE_FLOAT = List.of("add", "mul", "minnumf", "maxnumf", "minimumf",
            "maximumf");
    private static final List<String> DIMS = List.of("x", "y", "z");

    private final FuzzedDataProvider data;
    private final Random random;
    private final StringBuilder out = new StringBuilder();
    private int next;

    /** A value in scope: its SSA name and type. */
    private record Value(String name, String type) {}

    /** A memref in scope: its SSA name, element type and size. */
    private record Buffer(String name, String element, int size) {
        String type() {
            return "memref<" + size + "x" + element + ">";
        }
    }

    KernelGenerator(FuzzedDataProvider data, long seed) {
        this.data = data;
        this.random = new Random(seed);
    }

    /** A choice among {@code n}: from the fuzzer's bytes while they last. */
    int pick(int n) {
        if (n <= 1) {
            return 0;
        }
        return data.remainingBytes() > 0 ? data.consumeInt(0, n - 1) : random.nextInt(n);
    }

    private <T> T pick(List<T> from) {
        return from.get(pick(from.size()));
    }

    private boolean chance(int percent) {
        return pick(100) < percent;
    }

    /**
     * One program: a module whose {@code gpu.module} has the target {@code TARGET} (replaced per target) and
     * one kernel.
     *
     * @param index the kernel's number, in its name
     * @return the program's text
     */
    String program(int index) {
        out.setLength(0);
        next = 0;
        List<Value> values = new ArrayList<>();
        List<Buffer> buffers = new ArrayList<>();
        List<String> params = new ArrayList<>();
        int nargs = 1 + pick(4);
        for (int i = 0; i < nargs; i++) {
            if (i == 0 || chance(60)) {
                Buffer b = new Buffer("%a" + i, pick(SCALARS), 1 + pick(64));
                buffers.add(b);
                params.add(b.name() + ": " + b.type());
            } else {
                Value v = new Value("%a" + i, pick(SCALARS));
                values.add(v);
                params.add(v.name() + ": " + v.type());
            }
        }
        out.append("module attributes {gpu.container_module} {\n  gpu.module @k TARGET {\n    gpu.func @k")
                .append(index).append('(').append(String.join(", ", params)).append(") kernel {\n");
        block(values, buffers, 3 + pick(30), 6, 0);
        out.append("      gpu.return\n    }\n  }\n}\n");
        return out.toString();
    }

    /** {@code count} operations at {@code indent}, nesting regions {@code depth} deep at most. */
    private void block(List<Value> values, List<Buffer> buffers, int count, int indent, int depth) {
        for (int i = 0; i < count; i++) {
            operation(values, buffers, indent, depth);
        }
    }

    private String fresh() {
        return "%v" + next++;
    }

    private void line(int indent, String text) {
        out.append(" ".repeat(indent)).append(text).append('\n');
    }

    /** A value of {@code type}: one in scope, or a new constant. */
    private Value of(List<Value> values, String type, int indent) {
        List<Value> fit = values.stream().filter(v -> v.type().equals(type)).toList();
        if (!fit.isEmpty() && chance(75)) {
            return pick(fit);
        }
        Value v = new Value(fresh(), type);
        String c = constant(type);
        line(indent, v.name() + " = arith.constant " + c + (type.equals("i1") ? "" : " : " + type));
        values.add(v);
        return v;
    }

    private String constant(String type) {
        if (type.equals("i1")) {
            return pick(2) == 0 ? "false" : "true";
        }
        if (FLOATS.contains(type)) {
            return pick(List.of("0.0", "1.0", "-1.0", "0.5", "3.25", "-7.5", "100.0", "1.0e-3", "2.0"));
        }
        // Constants are read as 64-bit numbers, i128's too.
        int bits = Math.min(64, width(type));
        BigInteger max = BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
        return switch (pick(6)) {
            case 0 -> "0";
            case 1 -> "1";
            case 2 -> "-1";
            case 3 -> max.toString();
            case 4 -> max.negate().subtract(BigInteger.ONE).toString();
            default -> Integer.toString(pick(64));
        };
    }

    private static int width(String type) {
        return switch (type) {
            case "f16", "bf16" -> 16;
            case "f32" -> 32;
            case "f64", "index" -> 64;
            default -> Integer.parseInt(type.substring(1));
        };
    }

    private Value def(List<Value> values, String type) {
        Value v = new Value(fresh(), type);
        values.add(v);
        return v;
    }

    private Value index(List<Value> values, int indent) {
        if (chance(30)) {
            Value v = def(values, "index");
            line(indent, v.name() + " = gpu." + pick(List.of("thread_id", "block_id", "block_dim", "grid_dim",
                    "global_id")) + " " + pick(DIMS));
            return v;
        }
        return of(values, "index", indent);
    }

    private void operation(List<Value> values, List<Buffer> buffers, int indent, int depth) {
        String t = pick(SCALARS);
        boolean isFloat = FLOATS.contains(t);
        String intType = t.equals("index") || !isFloat ? t : "i32";
        switch (pick(depth < 2 ? 20 : 18)) {
            case 0, 1 -> {
                Buffer b = pick(buffers);
                Value i = index(values, indent);
                Value v = def(values, b.element());
                line(indent, v.name() + " = memref.load " + b.name() + "[" + i.name() + "] : " + b.type());
            }
            case 2 -> {
                Buffer b = pick(buffers);
                Value i = index(values, indent);
                Value v = of(values, b.element(), indent);
                line(indent, "memref.store " + v.name() + ", " + b.name() + "[" + i.name() + "] : " + b.type());
            }
            case 3, 4 -> {
                boolean f = isFloat;
                String ty = f ? t : intType;
                Value a = of(values, ty, indent);
                Value b = of(values, ty, indent);
                Value v = def(values, ty);
                line(indent, v.name() + " = arith." + pick(f ? FLOAT_BINARY : INT_BINARY) + " " + a.name() + ", "
                        + b.name() + " : " + ty);
            }
            case 5 -> {
                Value a = of(values, t, indent);
                Value b = of(values, t, indent);
                Value v = def(values, "i1");
                line(indent, v.name() + " = arith." + (isFloat ? "cmpf " + pick(CMPF) : "cmpi " + pick(CMPI)) + ", "
                        + a.name() + ", " + b.name() + " : " + t);
            }
            case 6 -> {
                Value c = of(values, "i1", indent);
                Value a = of(values, t, indent);
                Value b = of(values, t, indent);
                Value v = def(values, t);
                line(indent, v.name() + " = arith.select " + c.name() + ", " + a.name() + ", " + b.name() + " : " + t);
            }
            case 7, 8 -> cast(values, indent);
            case 9 -> {
                String f = pick(FLOATS);
                Value a = of(values, f, indent);
                int kind = pick(4);
                Value b = kind < 2 ? of(values, f, indent) : a;
                Value c = kind == 1 ? of(values, f, indent) : a;
                String v = def(values, f).name();
                line(indent, v + switch (kind) {
                    case 0 -> " = math." + pick(MATH_BINARY) + " " + a.name() + ", " + b.name();
                    case 1 -> " = math.fma " + a.name() + ", " + b.name() + ", " + c.name();
                    case 2 -> " = arith.negf " + a.name();
                    default -> " = math." + pick(MATH_UNARY) + " " + a.name();
                } + " : " + f);
            }
            case 10 -> {
                if (isFloat) {
                    Value a = of(values, t, indent);
                    Value v = def(values, "i1");
                    line(indent, v.name() + " = math." + pick(MATH_CLASS) + " " + a.name() + " : " + t);
                } else {
                    String ty = pick(INTS);
                    Value a = of(values, ty, indent);
                    Value v = def(values, ty);
                    line(indent, v.name() + " = math." + pick(MATH_INT) + " " + a.name() + " : " + ty);
                }
            }
            case 11 -> {
                Value v = def(values, "index");
                line(indent, v.name() + " = gpu." + pick(List.of("lane_id", "subgroup_size : index")));
            }
            case 12 -> line(indent, "gpu.barrier");
            case 13 -> {
                // Mostly the types a shuffle takes; now and then one it refuses.
                String st = chance(90) ? pick(List.of("i32", "i64", "f32", "f64")) : t;
                Value a = of(values, st, indent);
                Value off = of(values, "i32", indent);
                Value w = of(values, "i32", indent);
                Value v = def(values, st);
                Value ok = def(values, "i1");
                line(indent, v.name() + ", " + ok.name() + " = gpu.shuffle " + pick(List.of("xor", "up", "down", "idx"))
                        + " " + a.name() + ", " + off.name() + ", " + w.name() + " : " + st);
            }
            case 14 -> {
                String rt = t.equals("index") ? "i32" : t;
                Value a = of(values, rt, indent);
                Value v = def(values, rt);
                line(indent, v.name() + " = gpu.subgroup_reduce " + pick(isFloat ? REDUCE_FLOAT : REDUCE_INT) + " "
                        + a.name() + (chance(30) ? " uniform" : "") + " : (" + rt + ") -> " + rt);
            }
            case 15 -> {
                Buffer b = pick(buffers);
                if (b.element().equals("index")) {
                    return;
                }
                Value i = index(values, indent);
                Value a = of(values, b.element(), indent);
                Value v = def(values, b.element());
                line(indent, v.name() + " = memref.atomic_rmw " + pick(FLOATS.contains(b.element()) ? ATOMIC_FLOAT
                        : ATOMIC_INT) + " " + a.name() + ", " + b.name() + "[" + i.name() + "] : (" + b.element() + ", "
                        + b.type() + ") -> " + b.element());
            }
            case 16 -> {
                Buffer b = new Buffer(fresh(), t, 1 + pick(16));
                line(indent, b.name() + " = memref.alloca() : " + b.type());
                buffers.add(b);
            }
            case 17 -> {
                Buffer b = pick(buffers);
                Value v = def(values, "index");
                String c = fresh();
                line(indent, c + " = arith.constant 0 : index");
                line(indent, v.name() + " = memref.dim " + b.name() + ", " + c + " : " + b.type());
            }
            case 18 -> ifOp(values, buffers, t, indent, depth);
            default -> forOp(values, buffers, t, indent, depth);
        }
    }

    private void ifOp(List<Value> values, List<Buffer> buffers, String t, int indent, int depth) {
        Value c = of(values, "i1", indent);
        Value v = new Value(fresh(), t);
        line(indent, v.name() + " = scf.if " + c.name() + " -> (" + t + ") {");
        region(values, buffers, t, indent, depth);
        line(indent, "} else {");
        region(values, buffers, t, indent, depth);
        line(indent, "}");
        values.add(v);
    }

    private void forOp(List<Value> values, List<Buffer> buffers, String t, int indent, int depth) {
        Value lb = of(values, "index", indent);
        Value ub = of(values, "index", indent);
        Value step = new Value(fresh(), "index");
        line(indent, step.name() + " = arith.constant " + (1 + pick(4)) + " : index");
        Value init = of(values, t, indent);
        Value v = new Value(fresh(), t);
        String iv = fresh();
        String acc = fresh();
        line(indent, v.name() + " = scf.for " + iv + " = " + lb.name() + " to " + ub.name() + " step " + step.name()
                + " iter_args(" + acc + " = " + init.name() + ") -> (" + t + ") {");
        List<Value> inner = new ArrayList<>(values);
        inner.add(new Value(iv, "index"));
        inner.add(new Value(acc, t));
        regionIn(inner, buffers, t, indent, depth);
        line(indent, "}");
        values.add(v);
    }

    private void region(List<Value> values, List<Buffer> buffers, String t, int indent, int depth) {
        regionIn(new ArrayList<>(values), buffers, t, indent, depth);
    }

    /** A region's body in its own scope, yielding a value of {@code t}. */
    private void regionIn(List<Value> inner, List<Buffer> buffers, String t, int indent, int depth) {
        List<Buffer> innerBuffers = new ArrayList<>(buffers);
        block(inner, innerBuffers, pick(6), indent + 2, depth + 1);
        Value y = of(inner, t, indent + 2);
        line(indent + 2, "scf.yield " + y.name() + " : " + t);
    }

    /** A cast between types it takes: integer widths, integer and float, float widths, index, bit casts. */
    private void cast(List<Value> values, int indent) {
        String from;
        String to;
        String op;
        switch (pick(6)) {
            case 0 -> {
                from = pick(INTS.subList(0, 5));
                to = pick(INTS.subList(INTS.indexOf(from) + 1, INTS.size()));
                op = pick(List.of("extsi", "extui"));
            }
            case 1 -> {
                to = pick(INTS.subList(0, 5));
                from = pick(INTS.subList(INTS.indexOf(to) + 1, INTS.size()));
                op = "trunci";
            }
            case 2 -> {
                from = pick(INTS);
                to = pick(FLOATS);
                op = pick(List.of("sitofp", "uitofp"));
            }
            case 3 -> {
                from = pick(FLOATS);
                to = pick(INTS);
                op = pick(List.of("fptosi", "fptoui"));
            }
            case 4 -> {
                boolean toIndex = chance(50);
                String i = pick(INTS);
                from = toIndex ? i : "index";
                to = toIndex ? "index" : i;
                op = pick(List.of("index_cast", "index_castui"));
            }
            default -> {
                from = pick(SCALARS);
                List<String> same = SCALARS.stream().filter(s -> !s.equals("index") && width(s) == width(from)).toList();
                if (from.equals("index") || same.size() < 2) {
                    List<String> wide = List.of("f16", "bf16", "f32", "f64");
                    String a = pick(wide);
                    String b = pick(wide);
                    boolean up = width(a) < width(b);
                    boolean down = width(a) > width(b);
                    if (!up && !down) {
                        a = "f16";
                        b = "f32";
                        up = true;
                    }
                    line(indent, def(values, b).name() + " = arith." + (up ? "extf " : "truncf ")
                            + of(values, a, indent).name() + " : " + a + " to " + b);
                    return;
                }
                to = pick(same);
                op = "bitcast";
            }
        }
        Value a = of(values, from, indent);
        line(indent, def(values, to).name() + " = arith." + op + " " + a.name() + " : " + from + " to " + to);
    }
}
