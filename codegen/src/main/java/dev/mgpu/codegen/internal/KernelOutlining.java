package dev.mgpu.codegen.internal;

import dev.mgpu.dialect.gpu.GpuReturnOp;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.llvm.LLVMKernelOps;
import dev.mgpu.dialect.llvm.LLVM;
import dev.mgpu.dialect.arith.Comparisons;
import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.codegen.internal.translate.Ir;
import dev.mgpu.dialect.Dialects;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.DimensionOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.LaunchOp;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Outlines each {@code gpu.launch} into a kernel, as upstream's {@code gpu-launch-sink-index-computations}
 * and {@code gpu-kernel-outlining} do: the body becomes {@code gpu.func @F_kernel} in a {@code gpu.module}
 * {@code @F_kernel} (then {@code @F_kernel_0}, ...) with the chosen targets ({@code #gpu.runtime_select}
 * when there are several); constants, {@code memref.dim}, {@code arith.select} and {@code arith.cmpi} from
 * above are copied in, the other values it uses from above become the kernel's arguments in order of first
 * use, the twelve index arguments become {@code gpu.block_id}, {@code gpu.thread_id}, {@code gpu.grid_dim}
 * and {@code gpu.block_dim}, the attributions become the kernel's, constant sizes become
 * {@code known_block_size} and {@code known_grid_size}, and the launch becomes a {@code gpu.launch_func}
 * with the same sizes, dependencies and token.
 */
public final class KernelOutlining {
    private KernelOutlining() {
    }

    /**
     * Whether {@code root} holds a {@code gpu.launch}; stops at the first, since every translation asks.
     */
    public static boolean needed(Operation root) {
        for (Region r : root.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    if (o.name().equals(LaunchOp.NAME) || !o.regions().isEmpty() && needed(o)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static List<Operation> launches(Operation root) {
        List<Operation> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Operation op, List<Operation> out) {
        for (Region r : op.regions()) {
            Ir.visit(r, o -> {
                boolean launch = o.name().equals(LaunchOp.NAME);
                if (launch) {
                    out.add(o);
                }
                return !launch;
            });
        }
    }

    /** Whether {@code root} has a {@code gpu.module} without targets that has a function with a body. */
    public static boolean lacksTargets(Operation root) {
        for (Operation op : root.region(0).entry().operations()) {
            if (op.name().equals(GpuModuleOp.NAME) && op.attr(GpuModuleOp.TARGETS) == null && KernelCompiler.hasBody(op)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Gives {@code targets} to every {@code gpu.module} of {@code root} that has none and has a function with a
     * body, as upstream's {@code nvvm-attach-target} and {@code rocdl-attach-target} do.
     */
    public static void attachTargets(Operation root, List<GpuTarget> targets) {
        for (Operation op : root.region(0).entry().operations()) {
            if (op.name().equals(GpuModuleOp.NAME) && op.attr(GpuModuleOp.TARGETS) == null && KernelCompiler.hasBody(op)) {
                op.setAttr(GpuModuleOp.TARGETS, new Attribute.ArrayAttr(new ArrayList<>(targets)));
            }
        }
    }

    /** Outlines every {@code gpu.launch} of {@code root} (a verified {@code builtin.module}) for {@code targets}. */
    public static void outline(Operation root, List<GpuTarget> targets) {
        Set<String> names = new HashSet<>();
        for (Operation op : root.region(0).entry().operations()) {
            if (op.symbolName() != null) {
                names.add(op.symbolName());
            }
        }
        root.setAttr("gpu.container_module", Attribute.UNIT);
        int[] counter = {0};
        Map<Operation, Operation> after = new IdentityHashMap<>();
        Map<Value, Value> tokens = new IdentityHashMap<>();
        for (Operation launch : launches(root)) {
            Operation fn = launch.parentOp();
            while (fn != null && fn.parentOp() != root) {
                fn = fn.parentOp();
            }
            // The kernel is named after the function; its module too, made unique with _N from one counter
            // for the whole module, as upstream's symbol table does.
            String base = (fn == null || fn.symbolName() == null ? "launch" : fn.symbolName()) + "_kernel";
            LaunchOp l = new LaunchOp(launch);
            String kernelName = l.functionName() != null ? l.functionName() : base;
            // Without module(@M), the module is named after the kernel, as upstream names it; a module(@M)
            // that exists already (given, or made for an earlier launch) takes the kernel in, with its targets.
            base = l.moduleName() != null ? l.moduleName() : kernelName;
            Operation existing = l.moduleName() != null ? gpuModule(root, base) : null;
            if (existing != null) {
                outlineOne(root, launch, existing, base, uniqueIn(existing, kernelName), targets, tokens);
                continue;
            }
            String module = base;
            while (names.contains(module)) {
                module = base + "_" + counter[0]++;
            }
            names.add(module);
            Operation at = after.getOrDefault(fn, fn);
            Operation gm = outlineOne(root, launch, null, module, kernelName, targets, tokens);
            // Each kernel's module follows its function (and that function's earlier kernels), as upstream
            // places it.
            if (at != null && at.parent() == root.region(0).entry()) {
                root.region(0).entry().insertAfter(at, gm);
            } else {
                root.region(0).entry().append(gm);
            }
            after.put(fn, gm);
        }
        if (!tokens.isEmpty()) {
            // The async launches' tokens, replaced in one walk.
            Ir.walk(root.region(0), op -> {
                for (int i = 0; i < op.operandCount(); i++) {
                    Value now = tokens.get(op.operand(i));
                    if (now != null) {
                        op.setOperand(i, now);
                    }
                }
            });
        }
    }

    /** The constant-like ops of our subset ({@code llvm.mlir.addressof} is not: its global is the host's). */
    private static final Set<String> CONSTANTS = Set.of(Arith.ConstantOp.NAME, LLVM.ConstantOp.NAME, LLVMKernelOps.UNDEF,
            LLVM.ZeroOp.NAME, LLVMKernelOps.POISON);

    /**
     * Ops worth computing in the kernel rather than passing their result in (upstream's
     * {@code gpu-launch-sink-index-computations}): constants, {@code memref.dim}, {@code arith.select} and
     * {@code arith.cmpi}.
     */
    private static boolean sinkable(Operation op) {
        return op.regions().isEmpty() && (op.operandCount() == 0 && CONSTANTS.contains(op.name())
                || op.name().equals(MemRef.DimOp.NAME)
                || op.name().equals(Comparisons.SelectOp.NAME) || op.name().equals(Comparisons.CmpIOp.NAME));
    }

    /**
     * Adds {@code op} to {@code sunk} (after what it needs) when it is {@link #sinkable} and each operand is
     * available in the kernel: sunk itself, or used by the body anyway ({@code used}).
     */
    private static boolean sink(Operation op, Set<Value> used, Set<Operation> sunk, Set<Value> available) {
        if (sunk.contains(op)) {
            return true;
        }
        if (!sinkable(op)) {
            return false;
        }
        for (Value v : op.operands()) {
            if (available.contains(v)) {
                continue;
            }
            boolean ok = v instanceof Value.OpResult r && sink(r.owner(), used, sunk, available);
            if (!ok && !used.contains(v)) {
                return false;
            }
        }
        sunk.add(op);
        available.addAll(op.results());
        return true;
    }

    /** The values that ops of {@code r} use and that are defined outside it, in order of first use. */
    private static Set<Value> usedFromAbove(Region r) {
        Set<Block> inside = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        inside.addAll(Ir.blocks(r));
        Set<Value> out = new java.util.LinkedHashSet<>();
        Ir.postOrder(r, op -> {
            for (Value v : op.operands()) {
                if (!definedIn(v, inside)) {
                    out.add(v);
                }
            }
        });
        return out;
    }

    /** The sizes as {@code array<i32: x, y, z>} when all three are index constants that fit, else null. */
    private static Attribute knownSizes(List<Value> sizes) {
        int[] out = new int[3];
        for (int i = 0; i < 3; i++) {
            // Upstream also writes sizes below 1 or past 2^31 - 1 (their low 32 bits), which no kernel may
            // be launched with and which gpu.func's known sizes reject; those are left out here.
            if (!(sizes.get(i) instanceof Value.OpResult r && r.owner().name().equals(Arith.ConstantOp.NAME)
                    && r.owner().attr("value") instanceof Attribute.IntegerAttr c && c.value() > 0
                    && c.value() <= Integer.MAX_VALUE)) {
                return null;
            }
            out[i] = (int) c.value();
        }
        return Attribute.DenseArrayAttr.i32(out);
    }

    /**
     * Outlines one launch, and returns the kernel's new module for the caller to place, as upstream's {@code gpu-launch-sink-index-computations} and
     * {@code gpu-kernel-outlining} do together: {@link #sinkable} ops are copied in, the kernel's entry block
     * computes the indices and continues with the body's first block, the remaining values used from above
     * become arguments in order of first use, and constant sizes become {@code known_block_size} and
     * {@code known_grid_size}.
     */
    /** The top-level {@code gpu.module} of {@code root} named {@code name}, or null. */
    private static Operation gpuModule(Operation root, String name) {
        for (Operation op : root.region(0).entry().operations()) {
            if (op.name().equals(GpuModuleOp.NAME) && name.equals(op.symbolName())) {
                return op;
            }
        }
        return null;
    }

    /** {@code name}, or {@code name_N} with the first N that no symbol of {@code module} has. */
    private static String uniqueIn(Operation module, String name) {
        Set<String> taken = new HashSet<>();
        for (Operation op : module.region(0).entry().operations()) {
            if (op.symbolName() != null) {
                taken.add(op.symbolName());
            }
        }
        String unique = name;
        for (int i = 0; taken.contains(unique); i++) {
            unique = name + "_" + i;
        }
        return unique;
    }

    /**
     * Outlines {@code launchOp}'s body into kernel {@code name}: into {@code existing}, a gpu.module of
     * {@code root}, or else into a new gpu.module named {@code module} for {@code targets}, which it returns.
     */
    private static Operation outlineOne(Operation root, Operation launchOp, Operation existing, String module,
            String name, List<GpuTarget> targets, Map<Value, Value> tokens) {
        LaunchOp launch = new LaunchOp(launchOp);
        Location loc = launchOp.location();
        Region body = launch.body();
        Set<Value> used = usedFromAbove(body);
        java.util.LinkedHashSet<Operation> sunk = new java.util.LinkedHashSet<>();
        Set<Value> available = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Value v : used) {
            if (v instanceof Value.OpResult r) {
                sink(r.owner(), used, sunk, available);
            }
        }
        // The arguments: what the body and the sunk ops use from above, in order of first use (sunk first).
        Set<Value> captured = new java.util.LinkedHashSet<>();
        for (Operation op : sunk) {
            for (Value v : op.operands()) {
                if (!available.contains(v)) {
                    captured.add(v);
                }
            }
        }
        for (Value v : used) {
            if (!available.contains(v)) {
                captured.add(v);
            }
        }
        List<Value> args = new ArrayList<>(captured);
        List<Type> inputs = new ArrayList<>();
        for (Value v : args) {
            inputs.add(v.type());
        }
        Block launchEntry = body.entry();
        int w = launch.workgroupCount();
        List<Value.BlockArgument> memory = launchEntry.arguments().subList(12, launchEntry.arguments().size());
        List<Type.MemRefType> workgroup = new ArrayList<>();
        List<Type.MemRefType> privates = new ArrayList<>();
        for (int i = 0; i < memory.size(); i++) {
            (i < w ? workgroup : privates).add((Type.MemRefType) memory.get(i).type());
        }
        GpuFuncOp kernel = GpuFuncOp.create(loc, name, new Type.FunctionType(inputs, List.of()), true, workgroup,
                privates);
        Attribute block = knownSizes(launch.blockSizes());
        if (block != null) {
            kernel.op().setAttr(GpuFuncOp.KNOWN_BLOCK_SIZE, block);
        }
        Attribute grid = knownSizes(launch.gridSizes());
        if (grid != null) {
            kernel.op().setAttr(GpuFuncOp.KNOWN_GRID_SIZE, grid);
        }
        Block entry = kernel.body();
        Map<Value, Value> replace = new IdentityHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            replace.put(args.get(i), entry.argument(i));
        }
        for (int i = 0; i < memory.size(); i++) {
            replace.put(memory.get(i), entry.argument(args.size() + i));
        }
        // The twelve index arguments: block ids, thread ids, grid sizes, block sizes.
        String[] kinds = {"block_id", "thread_id", "grid_dim", "block_dim"};
        int k = 0;
        for (String kind : kinds) {
            for (int d = 0; d < 3; d++) {
                replace.put(launchEntry.argument(k++), entry.append(DimensionOp.create(loc, kind, d).op()).result(0));
            }
        }
        for (Operation op : sunk) {
            entry.append(Ir.copy(op, replace));
        }
        List<Block> blocks = body.takeBlocks();
        for (Operation op : blocks.get(0).takeOperations()) {
            entry.append(op);
        }
        for (Block b : blocks.subList(1, blocks.size())) {
            kernel.op().region(0).append(b);
        }
        Ir.walk(kernel.op().region(0), op -> {
            for (int i = 0; i < op.operandCount(); i++) {
                Value r = replace.get(op.operand(i));
                if (r != null) {
                    op.setOperand(i, r);
                }
            }
            for (int i = 0; i < op.successors().size(); i++) {
                if (op.successors().get(i) == blocks.get(0)) {
                    op.setSuccessor(i, entry);
                }
            }
        });
        for (Block b : kernel.op().region(0).blocks()) {
            Operation t = b.terminator();
            if (t != null && t.name().equals(LaunchOp.TERMINATOR)) {
                b.replace(t, GpuReturnOp.create(t.location(), List.of()).op());
            }
        }
        Operation gm = existing;
        if (gm == null) {
            GpuModuleOp made = GpuModuleOp.create(loc, module, new Attribute.ArrayAttr(new ArrayList<>(targets)));
            if (targets.size() > 1) {
                made.setOffloadingHandler(new OffloadingHandlerAttr.RuntimeSelect());
            }
            gm = made.op();
        }
        Block into = gm.region(0).entry();
        into.append(kernel.op());
        copySymbols(root, kernel.op(), into);
        Value[] gridSizes = launch.gridSizes().toArray(new Value[0]);
        Value[] blockSizes = launch.blockSizes().toArray(new Value[0]);
        Operation call = LaunchFuncOp.create(loc, Attribute.SymbolRefAttr.of(module, name),
                List.copyOf(launch.asyncDependencies()), launch.isAsync(), gridSizes, blockSizes, null,
                launch.dynamicSharedMemorySize(), args, null).op();
        if (launch.isAsync()) {
            tokens.put(launchOp.result(0), call.result(0));
        }
        launchOp.parent().replace(launchOp, call);
        return gm;
    }

    /**
     * Copies into {@code into} (a kernel's module) every symbol of {@code root} that {@code kernel} uses
     * (a function it calls, a global it takes the address of), and what those use, as upstream does: a work
     * list of the definitions copied, each copy appended at the end of the module. A function of the host
     * without a body is copied too: compiling the kernel then names it as a function it lacks.
     */
    private static void copySymbols(Operation root, Operation kernel, Block into) {
        Deque<Operation> work = new ArrayDeque<>(List.of(kernel));
        while (!work.isEmpty()) {
            Operation def = work.pop();
            for (String name : symbolUses(def)) {
                if (into.operations().stream().anyMatch(x -> name.equals(x.symbolName()))) {
                    continue;
                }
                for (Operation top : root.region(0).entry().operations()) {
                    if (name.equals(top.symbolName()) && !top.name().equals(GpuModuleOp.NAME)
                            && !top.name().equals(BinaryOp.NAME)) {
                        Operation copy = Ir.copy(top, new IdentityHashMap<>());
                        into.append(copy);
                        work.push(copy);
                        break;
                    }
                }
            }
        }
    }

    /**
     * The symbols that the ops inside {@code def} name (by a flat reference in an attribute), in order; as
     * upstream, not those inside a nested symbol table, whose references are its own.
     */
    private static List<String> symbolUses(Operation def) {
        List<String> names = new ArrayList<>();
        symbolUses(def, names);
        return names;
    }

    private static void symbolUses(Operation op, List<String> names) {
        for (Region region : op.regions()) {
            Ir.visit(region, o -> {
                for (Attribute a : o.attributes().values()) {
                    symbolRefs(a, names);
                }
                return !Dialects.hasSymbolTable(o);
            });
        }
    }

    private static void symbolRefs(Attribute a, List<String> names) {
        if (a instanceof Attribute.SymbolRefAttr ref && ref.nested().isEmpty()) {
            names.add(ref.root());
        } else if (a instanceof Attribute.ArrayAttr arr) {
            arr.elements().forEach(e -> symbolRefs(e, names));
        } else if (a instanceof Attribute.DictionaryAttr d) {
            d.entries().values().forEach(e -> symbolRefs(e, names));
        }
    }

    private static boolean definedIn(Value v, Set<Block> inside) {
        if (v instanceof Value.BlockArgument a) {
            return inside.contains(a.owner());
        }
        Operation def = ((Value.OpResult) v).owner();
        return def.parent() != null && inside.contains(def.parent());
    }
}
