package dev.mgpu.dialect;

import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.arith.Casts;
import dev.mgpu.dialect.arith.Comparisons;
import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpView;
import java.util.Arrays;
import java.util.List;

/**
 * The scalar ops of a kernel body ({@code arith}, {@code math}) and the checks every builder method makes
 * first: a misused one throws an {@link MgpuException} at the builder's location.
 */
abstract sealed class ScalarBuilder permits KernelBuilder {
    final Block block;
    Location location;

    ScalarBuilder(Block block, Location location) {
        this.block = block;
        this.location = location;
    }

    /**
     * {@code arith.constant} of an integer or index.
     *
     * @param value the value
     * @param type the integer or index type
     * @return the constant
     * @throws MgpuException if the type is not an integer or index
     */
    public Value constant(long value, Type type) {
        require(type.isIntegerOrIndex(), "Invalid type of an integer arith.constant (must be an integer or index): "
                + type);
        return add(Arith.ConstantOp.integer(location, value, type)).op().result();
    }

    /**
     * {@code arith.constant} of a float.
     *
     * @param value the value
     * @param type the float type
     * @return the constant
     */
    public Value constant(double value, Type.FloatType type) {
        return add(Arith.ConstantOp.floating(location, value, type)).op().result();
    }

    /**
     * {@code arith.<kind>}, e.g. {@code addi}, {@code muli}, {@code addf}.
     *
     * @param kind one of {@link Arith.BinaryOp#INTEGER_KINDS} (integers, indices) or
     *         {@link Arith.BinaryOp#FLOAT_KINDS} (floats)
     * @param a the left operand
     * @param b the right operand, of the left operand's type
     * @return the result, of the operands' type
     * @throws MgpuException if the kind is unknown or the operands are not of one type it takes
     */
    public Value arith(String kind, Value a, Value b) {
        boolean ints = Arith.BinaryOp.INTEGER_KINDS.contains(kind);
        require(ints || Arith.BinaryOp.FLOAT_KINDS.contains(kind), "Invalid arith binary op (must be one of "
                + Arith.BinaryOp.INTEGER_KINDS + " or " + Arith.BinaryOp.FLOAT_KINDS + "): " + kind);
        require(ints ? a.type().isIntegerOrIndex() : a.type() instanceof Type.FloatType, "Invalid operand of arith."
                + kind + " (must be " + (ints ? "an integer or index" : "a float") + "): " + a.type());
        expect(b, a.type(), "right operand of arith." + kind);
        return add(Arith.BinaryOp.create(location, kind, a, b)).op().result();
    }

    /**
     * {@code arith.cmpi}.
     *
     * @param predicate one of {@link Comparisons.CmpIOp#PREDICATES}
     * @param a the left operand, an integer or index
     * @param b the right operand, of the left operand's type
     * @return the {@code i1} result
     * @throws MgpuException if the predicate is unknown or the operands are not of one integer type
     */
    public Value cmpi(String predicate, Value a, Value b) {
        require(Comparisons.CmpIOp.PREDICATES.contains(predicate), "Invalid predicate of arith.cmpi (must be one of "
                + Comparisons.CmpIOp.PREDICATES + "): " + predicate);
        require(a.type().isIntegerOrIndex(), "Invalid operand of arith.cmpi (must be an integer or index): "
                + a.type());
        expect(b, a.type(), "right operand of arith.cmpi");
        return add(Comparisons.CmpIOp.create(location, predicate, a, b)).op().result();
    }

    /**
     * {@code arith.cmpf}.
     *
     * @param predicate one of {@link Comparisons.CmpFOp#PREDICATES}
     * @param a the left operand, a float
     * @param b the right operand, of the left operand's type
     * @return the {@code i1} result
     * @throws MgpuException if the predicate is unknown or the operands are not of one float type
     */
    public Value cmpf(String predicate, Value a, Value b) {
        require(Comparisons.CmpFOp.PREDICATES.contains(predicate), "Invalid predicate of arith.cmpf (must be one of "
                + Comparisons.CmpFOp.PREDICATES + "): " + predicate);
        require(a.type() instanceof Type.FloatType, "Invalid operand of arith.cmpf (must be a float): " + a.type());
        expect(b, a.type(), "right operand of arith.cmpf");
        return add(Comparisons.CmpFOp.create(location, predicate, a, b)).op().result();
    }

    /**
     * {@code arith.<kind>} cast, e.g. {@code index_cast}, {@code sitofp}.
     *
     * @param kind one of {@link Casts.CastOp#KINDS}
     * @param a the value to convert
     * @param to the result type
     * @return the result
     * @throws MgpuException if the kind is unknown
     */
    public Value cast(String kind, Value a, Type to) {
        require(Casts.CastOp.KINDS.contains(kind), "Invalid arith cast (must be one of " + Casts.CastOp.KINDS + "): "
                + kind);
        return add(Casts.CastOp.create(location, kind, a, to)).op().result();
    }

    /**
     * {@code arith.select}.
     *
     * @param condition the {@code i1} condition
     * @param a the value when it holds
     * @param b the value otherwise, of {@code a}'s type
     * @return the result
     * @throws MgpuException if the condition is not an {@code i1} or the values differ in type
     */
    public Value select(Value condition, Value a, Value b) {
        expect(condition, Type.I1, "condition of arith.select");
        expect(b, a.type(), "false value of arith.select");
        return add(Comparisons.SelectOp.create(location, condition, a, b)).op().result();
    }

    /**
     * {@code math.<kind>}, e.g. {@code sqrt}, {@code fma}, {@code ctpop}, {@code isnan}.
     *
     * @param kind one of {@link MathDialect#UNARY}, {@link MathDialect#BINARY}, {@link MathDialect#TERNARY}
     *         (floats), {@link MathDialect#INTEGER} (integers) or {@link MathDialect#CLASSES} (a float's class)
     * @param operands as many operands of one type as the kind takes
     * @return the result, of the operands' type ({@code i1} for a class)
     * @throws MgpuException if the kind is unknown, or the operands are not as many or of the type it takes
     */
    public Value math(String kind, Value... operands) {
        boolean ints = MathDialect.INTEGER.contains(kind);
        int arity = ints || MathDialect.UNARY.contains(kind) || MathDialect.CLASSES.contains(kind) ? 1
                : MathDialect.BINARY.contains(kind) ? 2 : MathDialect.TERNARY.contains(kind) ? 3 : -1;
        require(arity > 0, "Invalid math op (must be one of " + MathDialect.UNARY + ", " + MathDialect.BINARY + ", "
                + MathDialect.TERNARY + ", " + MathDialect.INTEGER + " or " + MathDialect.CLASSES + "): " + kind);
        require(operands.length == arity, "Invalid operands of math." + kind + " (must be " + arity + "): "
                + operands.length);
        Type t = operands[0].type();
        require(ints ? t instanceof Type.IntegerType : t instanceof Type.FloatType, "Invalid operand of math." + kind
                + " (must be " + (ints ? "an integer" : "a float") + "): " + t);
        for (Value v : operands) {
            expect(v, t, "operand of math." + kind);
        }
        return add(MathDialect.FunctionOp.create(location, kind, operands)).op().result();
    }

    // ------------------------------------------------------------------ checks

    final void require(boolean ok, String message) {
        if (!ok) {
            throw new MgpuException(location, message);
        }
    }

    final void expect(Value v, Type t, String what) {
        require(v.type().equals(t), "Invalid " + what + " (must be " + t + "): " + v.type());
    }

    static List<Type> types(Value[] values) {
        return Arrays.stream(values).map(Value::type).toList();
    }

    static String describe(List<Type> types) {
        return "(" + String.join(", ", types.stream().map(Type::toString).toList()) + ")";
    }

    final <T extends OpView> T add(T view) {
        block.append(view.op());
        return view;
    }
}
