package dev.mgpu.dialect.func;

import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The func dialect: {@code func.func}, {@code func.call}, {@code func.return}. */
public final class Func {
    private Func() {
    }

    /** A function; a declaration when it has no body. */
    public static final class FuncOp extends FunctionOpView {
        /** The op's name. */
        public static final String NAME = "func.func";

        /**
         * Views {@code op} as a {@code func.func}.
         *
         * @param op the operation
         * @throws IllegalArgumentException if {@code op} is not a {@code func.func}
         */
        public FuncOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a function with an entry block whose arguments match {@code type}'s inputs.
         *
         * @param loc the function's location
         * @param name the function's symbol name
         * @param type the function's type
         * @return the new, detached function
         */
        public static FuncOp create(Location loc, String name, Type.FunctionType type) {
            return new FuncOp(create(NAME, loc, name, type, true));
        }

        static OpDef definition() {
            return OpDef.of(NAME).isolatedFromAbove().defaultDialect("func")
                    .inherent("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")
                    .syntax((p, n, loc) -> Syntax.function(p, loc, NAME, "sym_visibility",
                            Set.of("private", "public", "nested"), null, false),
                            (p, op) -> Syntax.printFunction(p, op, "sym_visibility", Set.of(), null))
                    .verifier(Syntax::verifyFunction);
        }
    }

    /** {@code func.call @f(args) : (T) -> R}. */
    public static final class CallOp extends OpView {
        /** The op's name. */
        public static final String NAME = "func.call";

        /**
         * Views {@code op} as a {@code func.call}.
         *
         * @param op the operation
         * @throws IllegalArgumentException if {@code op} is not a {@code func.call}
         */
        public CallOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a call of {@code @callee}.
         *
         * @param loc the call's location
         * @param callee the called function's symbol name
         * @param args the arguments
         * @param results the result types
         * @return the new, detached call
         */
        public static CallOp create(Location loc, String callee, List<Value> args, List<Type> results) {
            return new CallOp(Operation.create(NAME, loc, args, results,
                    Map.of("callee", Attribute.SymbolRefAttr.of(callee))));
        }

        /**
         * Returns the called function.
         *
         * @return the {@code callee} attribute
         */
        public Attribute.SymbolRefAttr callee() {
            return (Attribute.SymbolRefAttr) op.attr("callee");
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("callee")
                    .syntax((p, n, loc) -> Syntax.parseCall(p, loc, NAME), Syntax::printCall)
                    .verifier((op, ctx) -> Syntax.verifyCall(op, ctx, FuncOp.NAME, "a func.func"));
        }
    }

    /** {@code func.return [values : types]}. */
    public static final class ReturnOp extends OpView {
        /** The op's name. */
        public static final String NAME = "func.return";

        /**
         * Views {@code op} as a {@code func.return}.
         *
         * @param op the operation
         * @throws IllegalArgumentException if {@code op} is not a {@code func.return}
         */
        public ReturnOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a return of {@code values}.
         *
         * @param loc the op's location
         * @param values the values to return
         * @return the new, detached op
         */
        public static ReturnOp create(Location loc, List<Value> values) {
            return new ReturnOp(Operation.create(NAME, loc, values, List.of(), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).terminator()
                    .syntax((p, n, loc) -> Syntax.returnLike(p, loc, NAME), Syntax::printReturnLike)
                    .verifier((op, ctx) -> Syntax.verifyReturn(op, ctx, FuncOp.NAME));
        }
    }

    /**
     * Every op of the dialect.
     *
     * @return the definitions of {@code func.func}, {@code func.call} and {@code func.return}
     */
    public static List<OpDef> ops() {
        return List.of(FuncOp.definition(), CallOp.definition(), ReturnOp.definition());
    }
}
