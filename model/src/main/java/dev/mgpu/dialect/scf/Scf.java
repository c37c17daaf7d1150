package dev.mgpu.dialect.scf;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scf dialect's structured control flow: {@code scf.for} (with {@code iter_args}), {@code scf.if}
 * (with results), {@code scf.while}, and their terminators {@code scf.yield} and {@code scf.condition}.
 * A region whose op has no results may leave out its {@code scf.yield}: the parser adds it.
 */
public final class Scf {
    private Scf() {
    }

    /** {@return every op of the dialect} */
    public static List<OpDef> ops() {
        return List.of(ForOp.definition(), IfOp.definition(), WhileOp.definition(), YieldOp.definition(),
                ConditionOp.definition());
    }

    /** Appends {@code scf.yield} to every block of {@code r} that has no terminator yet. */
    private static void addImplicitYield(Region r, Location loc) {
        for (Block b : r.blocks()) {
            List<Operation> ops = b.operations();
            Operation last = ops.isEmpty() ? null : ops.get(ops.size() - 1);
            if (last == null || !isTerminatorName(last.name())) {
                b.append(Operation.create(YieldOp.NAME, loc, List.of(), List.of(), Map.of()));
            }
        }
    }

    private static boolean isTerminatorName(String name) {
        return name.equals(YieldOp.NAME) || name.equals(ConditionOp.NAME) || name.equals("cf.br")
                || name.equals("cf.cond_br");
    }

    /** The rest of {@code (%name = %value, ...)} after its {@code (}: the names and the values, in order. */
    private static void assignments(OpAsmParser p, List<OpAsmParser.OperandRef> names,
            List<OpAsmParser.OperandRef> values) {
        if (!p.atPunct(')')) {
            do {
                names.add(p.operandRef());
                p.expectPunct('=');
                values.add(p.operandRef());
            } while (p.optionalPunct(','));
        }
        p.expectPunct(')');
    }

    /** {@code (T, ...)} or a single type after {@code ->}. */
    private static List<Type> resultTypes(OpAsmParser p) {
        return p.optionalArrow() ? p.resultTypes() : List.of();
    }

    /**
     * Reports, at {@code op}, a terminator named {@code terminator} in {@code r} whose values (from the
     * {@code skip}-th operand on) are not of {@code types}: what a region passes on is the rule of the op
     * that receives it, and upstream reports it there.
     */
    private static void verifyPassed(Operation op, VerifyContext ctx, Region r, String terminator, int skip,
            List<Type> types) {
        for (Block b : r.blocks()) {
            Operation t = b.terminator();
            if (t == null || !t.name().equals(terminator)) {
                continue;
            }
            List<Type> got = Syntax.types(t.operands().subList(Math.min(skip, t.operandCount()), t.operandCount()));
            if (!got.equals(types)) {
                ctx.error(op, "Invalid " + op.name() + " (must " + (skip == 0 ? "yield (" : "pass (")
                        + Syntax.join(types) + (skip == 0 ? ")" : ") in its " + terminator) + "): (" + Syntax.join(got)
                        + ")");
            }
        }
    }

    /**
     * {@code %r = scf.for %i = %lb to %ub step %s [iter_args(%acc = %init, ...) -> (T, ...)] { ... }}: runs
     * its body for {@code i} from {@code lb} while below {@code ub}, in steps of {@code s}; the body's
     * {@code scf.yield} gives the next values of the iteration arguments, and the last ones are the results.
     */
    public static final class ForOp extends OpView {
        /** The op's name. */
        public static final String NAME = "scf.for";

        /**
         * Views an {@code scf.for}.
         *
         * @param op the op
         */
        public ForOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a loop with an empty body block whose arguments are the induction variable and the
         * iteration arguments; the caller fills it and ends it with {@code scf.yield}.
         *
         * @param loc where the op comes from
         * @param lb the lower bound
         * @param ub the upper bound (exclusive)
         * @param step the step, positive
         * @param inits the initial values of the iteration arguments
         * @return the new op, detached
         */
        public static ForOp create(Location loc, Value lb, Value ub, Value step, List<Value> inits) {
            List<Value> operands = new ArrayList<>(List.of(lb, ub, step));
            operands.addAll(inits);
            Operation op = Operation.create(NAME, loc, operands, Syntax.types(inits), Map.of(), 1, List.of());
            Block body = op.region(0).append(new Block(loc));
            body.addArgument(lb.type(), loc);
            for (Value v : inits) {
                body.addArgument(v.type(), loc);
            }
            return new ForOp(op);
        }

        /** {@return the lower bound} */
        public Value lowerBound() {
            return op.operand(0);
        }

        /** {@return the upper bound, exclusive} */
        public Value upperBound() {
            return op.operand(1);
        }

        /** {@return the step} */
        public Value step() {
            return op.operand(2);
        }

        /** {@return the initial values of the iteration arguments} */
        public List<Value> inits() {
            return op.operands().subList(3, op.operandCount());
        }

        /** {@return the body, one block whose arguments are the induction variable, then the iteration arguments} */
        public Block body() {
            return op.region(0).entry();
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(ForOp::parse, ForOp::print).verifier(ForOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef iv = p.operandRef();
            p.expectPunct('=');
            OpAsmParser.OperandRef lb = p.operandRef();
            p.expectKeyword("to");
            OpAsmParser.OperandRef ub = p.operandRef();
            p.expectKeyword("step");
            OpAsmParser.OperandRef step = p.operandRef();
            List<OpAsmParser.OperandRef> iterNames = new ArrayList<>();
            List<OpAsmParser.OperandRef> inits = new ArrayList<>();
            List<Type> types = List.of();
            if (p.optionalKeyword("iter_args")) {
                p.expectPunct('(');
                assignments(p, iterNames, inits);
                int off = p.offset();
                types = resultTypes(p);
                if (types.size() != inits.size()) {
                    throw p.errorAt(off, "Invalid scf.for result types (must be one per iter_args value, "
                            + inits.size() + "): " + types.size());
                }
            }
            Type ivType = Type.INDEX;
            if (p.optionalPunct(':')) {
                ivType = p.type();
            }
            List<Value> operands = new ArrayList<>(List.of(p.resolve(lb, ivType), p.resolve(ub, ivType),
                    p.resolve(step, ivType)));
            operands.addAll(p.resolve(inits, types, p.offset()));
            List<OpAsmParser.Argument> args = new ArrayList<>();
            args.add(new OpAsmParser.Argument(iv, ivType, null, loc));
            for (int i = 0; i < iterNames.size(); i++) {
                args.add(new OpAsmParser.Argument(iterNames.get(i), types.get(i), null, loc));
            }
            Region body = p.regionWithEntry(args, false);
            if (types.isEmpty()) {
                addImplicitYield(body, loc);
            }
            Map<String, Attribute> attrs = p.optionalDictionary();
            return Operation.create(NAME, loc, operands, types, attrs, List.of(body), List.of());
        }

        private static void print(OpAsmPrinter p, Operation op) {
            ForOp f = new ForOp(op);
            Block body = f.body();
            p.write(' ').operand(body.argument(0)).write(" = ").operand(f.lowerBound()).write(" to ")
                    .operand(f.upperBound()).write(" step ").operand(f.step());
            if (!f.inits().isEmpty()) {
                p.write(" iter_args(");
                for (int i = 0; i < f.inits().size(); i++) {
                    p.write(i > 0 ? ", " : "").operand(body.argument(i + 1)).write(" = ").operand(f.inits().get(i));
                }
                p.write(") -> (").types(Syntax.types(op.results())).write(')');
            }
            if (!f.lowerBound().type().equals(Type.INDEX)) {
                p.write(" : ").type(f.lowerBound().type());
            }
            p.write(' ').region(op.region(0), false);
            p.attrDict(op, Set.of());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.operandCount() < 3 || op.regions().size() != 1 || op.region(0).blocks().size() != 1) {
                ctx.error(op, "Invalid scf.for (must have bounds, a step and a body of one block): "
                        + op.operandCount() + " operands");
                return;
            }
            ForOp f = new ForOp(op);
            Type t = f.lowerBound().type();
            if (ctx.expectIntegerOrIndex(op, "bound of scf.for", f.lowerBound())
                    && (!f.upperBound().type().equals(t) || !f.step().type().equals(t))) {
                ctx.error(op, "Invalid bounds of scf.for (must all be " + t + "): " + f.upperBound().type() + ", "
                        + f.step().type());
            }
            if (op.hasAttr("unsignedCmp")) {
                ctx.error(op, "Invalid scf.for (must compare its bounds as signed; unsignedCmp is not supported):"
                        + " unsignedCmp");
            }
            if (f.step() instanceof Value.OpResult r && r.owner().attr("value") instanceof Attribute.IntegerAttr c
                    && c.value() <= 0) {
                ctx.error(op, "Invalid step of scf.for (must be positive): " + c.value());
            }
            List<Type> iter = Syntax.types(f.inits());
            if (!Syntax.types(op.results()).equals(iter)) {
                ctx.error(op, "Invalid results of scf.for (must be the iter_args types (" + Syntax.join(iter) + ")): ("
                        + Syntax.join(Syntax.types(op.results())) + ")");
            }
            List<Type> want = new ArrayList<>();
            want.add(t);
            want.addAll(iter);
            List<Type> have = Syntax.types(f.body().arguments());
            if (!have.equals(want)) {
                ctx.error(op, "Invalid body arguments of scf.for (must be (" + Syntax.join(want) + ")): ("
                        + Syntax.join(have) + ")");
            }
            verifyPassed(op, ctx, op.region(0), YieldOp.NAME, 0, iter);
        }
    }

    /**
     * {@code %r = scf.if %cond [-> (T, ...)] { ... } [else { ... }]}: runs one of its regions; with results,
     * both regions yield them.
     */
    public static final class IfOp extends OpView {
        /** The op's name. */
        public static final String NAME = "scf.if";

        /**
         * Views an {@code scf.if}.
         *
         * @param op the op
         */
        public IfOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an if with an empty then block and, when {@code withElse}, an empty else block; the caller
         * fills them and ends each with {@code scf.yield}.
         *
         * @param loc where the op comes from
         * @param condition the i1 condition
         * @param results the result types
         * @param withElse whether there is an else region
         * @return the new op, detached
         */
        public static IfOp create(Location loc, Value condition, List<Type> results, boolean withElse) {
            Operation op = Operation.create(NAME, loc, List.of(condition), results, Map.of(), 2, List.of());
            op.region(0).append(new Block(loc));
            if (withElse) {
                op.region(1).append(new Block(loc));
            }
            return new IfOp(op);
        }

        /** {@return the condition} */
        public Value condition() {
            return op.operand(0);
        }

        /** {@return the then region} */
        public Region thenRegion() {
            return op.region(0);
        }

        /** {@return the else region, empty when there is none} */
        public Region elseRegion() {
            return op.region(1);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(IfOp::parse, IfOp::print).verifier(IfOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef c = p.operandRef();
            List<Type> types = resultTypes(p);
            Region then = p.regionWithEntry(List.of(), false);
            Region otherwise = new Region();
            if (p.optionalKeyword("else")) {
                otherwise = p.regionWithEntry(List.of(), false);
            }
            if (types.isEmpty()) {
                addImplicitYield(then, loc);
                addImplicitYield(otherwise, loc);
            }
            Map<String, Attribute> attrs = p.optionalDictionary();
            return Operation.create(NAME, loc, List.of(p.resolve(c, Type.I1)), types, attrs, List.of(then, otherwise),
                    List.of());
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0));
            if (op.resultCount() > 0) {
                p.write(" -> (").types(Syntax.types(op.results())).write(')');
            }
            p.write(' ').region(op.region(0), false);
            if (!op.region(1).isEmpty()) {
                p.write(" else ").region(op.region(1), false);
            }
            p.attrDict(op, Set.of());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.operandCount() != 1 || op.regions().size() != 2 || op.region(0).blocks().size() != 1
                    || op.region(1).blocks().size() > 1) {
                ctx.error(op, "Invalid scf.if (must have a condition, a then block and at most one else block): "
                        + op.operandCount() + " operands");
                return;
            }
            ctx.expectType(op, "condition of scf.if", op.operand(0), Type.I1);
            List<Type> types = Syntax.types(op.results());
            if (!types.isEmpty() && op.region(1).isEmpty()) {
                ctx.error(op, "Invalid scf.if (must have an else region when it has results): no else");
            }
            for (int i = 0; i < 2; i++) {
                Region r = op.region(i);
                if (!r.isEmpty() && !r.entry().arguments().isEmpty()) {
                    ctx.error(op, "Invalid region #" + i + " of scf.if (must have no arguments): ("
                            + Syntax.join(Syntax.types(r.entry().arguments())) + ")");
                }
                verifyPassed(op, ctx, r, YieldOp.NAME, 0, types);
            }
        }
    }

    /**
     * {@code %r = scf.while (%a = %init, ...) : (T, ...) -> (U, ...) { before } do { after }}: runs
     * {@code before} on the current values; its {@code scf.condition(%c) %v, ...} either ends the loop with
     * {@code %v, ...} as the results or passes them to {@code after}, whose {@code scf.yield} gives the next
     * values.
     */
    public static final class WhileOp extends OpView {
        /** The op's name. */
        public static final String NAME = "scf.while";

        /**
         * Views an {@code scf.while}.
         *
         * @param op the op
         */
        public WhileOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a while loop with empty before and after blocks whose arguments have the types of
         * {@code inits} and {@code results}; the caller fills them.
         *
         * @param loc where the op comes from
         * @param inits the initial values
         * @param results the types passed to the after region and returned
         * @return the new op, detached
         */
        public static WhileOp create(Location loc, List<Value> inits, List<Type> results) {
            Operation op = Operation.create(NAME, loc, inits, results, Map.of(), 2, List.of());
            Block before = op.region(0).append(new Block(loc));
            for (Value v : inits) {
                before.addArgument(v.type(), loc);
            }
            Block after = op.region(1).append(new Block(loc));
            for (Type t : results) {
                after.addArgument(t, loc);
            }
            return new WhileOp(op);
        }

        /** {@return the region that computes the condition} */
        public Region before() {
            return op.region(0);
        }

        /** {@return the region that computes the next values} */
        public Region after() {
            return op.region(1);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(WhileOp::parse, WhileOp::print).verifier(WhileOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            List<OpAsmParser.OperandRef> names = new ArrayList<>();
            List<OpAsmParser.OperandRef> inits = new ArrayList<>();
            // Without operands the list may be left out, as upstream prints it: scf.while : () -> () {...}.
            if (p.optionalPunct('(')) {
                assignments(p, names, inits);
            }
            p.expectPunct(':');
            int off = p.offset();
            Type.FunctionType ft = p.functionType();
            if (ft.inputs().size() != inits.size()) {
                throw p.errorAt(off, "Invalid scf.while type (must have one input per initial value, " + inits.size()
                        + "): " + ft.inputs().size());
            }
            List<Value> operands = p.resolve(inits, ft.inputs(), off);
            List<OpAsmParser.Argument> args = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                args.add(new OpAsmParser.Argument(names.get(i), ft.inputs().get(i), null, loc));
            }
            Region before = p.region(args, false);
            p.expectKeyword("do");
            Region after = p.region(null, false);
            Map<String, Attribute> attrs = p.optionalAttributesKeyword();
            return Operation.create(NAME, loc, operands, ft.results(), attrs, List.of(before, after), List.of());
        }

        private static void print(OpAsmPrinter p, Operation op) {
            Block before = op.region(0).entry();
            if (op.operandCount() > 0) {
                p.write(" (");
                for (int i = 0; i < op.operandCount(); i++) {
                    p.write(i > 0 ? ", " : "").operand(before.argument(i)).write(" = ").operand(op.operand(i));
                }
                p.write(')');
            }
            p.write(" : ").type(new Type.FunctionType(Syntax.types(op.operands()), Syntax.types(op.results())));
            p.write(' ').region(op.region(0), false).write(" do ").region(op.region(1), true);
            p.attrDict(op, Set.of(), true);
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (op.regions().size() != 2 || op.region(0).isEmpty() || op.region(1).isEmpty()) {
                ctx.error(op, "Invalid scf.while (must have a before and an after region): " + op.regions().size());
                return;
            }
            List<Type> inits = Syntax.types(op.operands());
            List<Type> results = Syntax.types(op.results());
            if (!Syntax.types(op.region(0).entry().arguments()).equals(inits)) {
                ctx.error(op, "Invalid before arguments of scf.while (must be (" + Syntax.join(inits) + ")): ("
                        + Syntax.join(Syntax.types(op.region(0).entry().arguments())) + ")");
            }
            if (!Syntax.types(op.region(1).entry().arguments()).equals(results)) {
                ctx.error(op, "Invalid after arguments of scf.while (must be (" + Syntax.join(results) + ")): ("
                        + Syntax.join(Syntax.types(op.region(1).entry().arguments())) + ")");
            }
            verifyPassed(op, ctx, op.region(0), ConditionOp.NAME, 1, results);
            verifyPassed(op, ctx, op.region(1), YieldOp.NAME, 0, inits);
        }
    }

    /** {@code scf.yield [%v, ... : T, ...]}: ends a region of {@code scf.for}, {@code scf.if} or {@code scf.while}. */
    public static final class YieldOp extends OpView {
        /** The op's name. */
        public static final String NAME = "scf.yield";

        /**
         * Views an {@code scf.yield}.
         *
         * @param op the op
         */
        public YieldOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a yield of {@code values}.
         *
         * @param loc where the op comes from
         * @param values the values yielded
         * @return the new op, detached
         */
        public static YieldOp create(Location loc, List<Value> values) {
            return new YieldOp(Operation.create(NAME, loc, values, List.of(), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).terminator().syntax((p, n, loc) -> Syntax.returnLike(p, loc, NAME),
                    Syntax::printReturnLike).verifier((op, ctx) -> {
                        Operation parent = op.parentOp();
                        if (parent == null || !(parent.name().equals(ForOp.NAME) || parent.name().equals(IfOp.NAME)
                                || parent.name().equals(WhileOp.NAME) && op.parent().parent() == parent.region(1))) {
                            ctx.error(op, "Invalid scf.yield (must end a region of scf.for, scf.if or the after region"
                                    + " of scf.while): " + (parent == null ? "top level" : parent.name()));
                        }
                    });
        }
    }

    /** {@code scf.condition(%c) [%v, ... : T, ...]}: ends the before region of {@code scf.while}. */
    public static final class ConditionOp extends OpView {
        /** The op's name. */
        public static final String NAME = "scf.condition";

        /**
         * Views an {@code scf.condition}.
         *
         * @param op the op
         */
        public ConditionOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code scf.condition(condition) values}.
         *
         * @param loc where the op comes from
         * @param condition the i1 that continues the loop when true
         * @param values the values passed on
         * @return the new op, detached
         */
        public static ConditionOp create(Location loc, Value condition, List<Value> values) {
            List<Value> operands = new ArrayList<>();
            operands.add(condition);
            operands.addAll(values);
            return new ConditionOp(Operation.create(NAME, loc, operands, List.of(), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).terminator().syntax(ConditionOp::parse, ConditionOp::print)
                    .verifier(ConditionOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            p.expectPunct('(');
            OpAsmParser.OperandRef c = p.operandRef();
            p.expectPunct(')');
            int off = p.offset();
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            List<Value> operands = new ArrayList<>();
            operands.add(p.resolve(c, Type.I1));
            if (!refs.isEmpty()) {
                p.expectPunct(':');
                operands.addAll(p.resolve(refs, p.typeList(), off));
            }
            return Operation.create(NAME, loc, operands, List.of(), p.optionalDictionary());
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write('(').operand(op.operand(0)).write(')');
            List<Value> rest = op.operands().subList(1, op.operandCount());
            if (!rest.isEmpty()) {
                p.write(' ').operands(rest).write(" : ").types(Syntax.types(rest));
            }
            p.attrDict(op, Set.of());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            Operation parent = op.parentOp();
            if (parent == null || !parent.name().equals(WhileOp.NAME) || op.parent().parent() != parent.region(0)) {
                ctx.error(op, "Invalid scf.condition (must end the before region of scf.while): "
                        + (parent == null ? "top level" : parent.name()));
            }
            if (op.operandCount() < 1) {
                ctx.error(op, "Invalid scf.condition (must have a condition): no operands");
                return;
            }
            ctx.expectType(op, "condition of scf.condition", op.operand(0), Type.I1);
        }
    }
}
