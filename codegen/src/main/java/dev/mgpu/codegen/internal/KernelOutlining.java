package dev.mgpu.codegen.internal;

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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Outlines each {@code gpu.launch} into a kernel, as upstream's {@code gpu-kernel-outlining} does: the body
 * becomes {@code gpu.func @F_kernel} (then {@code F_kernel_0}, ...) in a {@code gpu.module} of the same name
 * with the chosen targets ({@code #gpu.runtime_select} when there are several), the values it uses from
 * above become the kernel's arguments in order of first use, constants are copied in instead, the
 * twelve index arguments become {@code gpu.block_id}, {@code gpu.thread_id}, {@code gpu.grid_dim} and
 * {@code gpu.block_dim}, and the launch becomes a {@code gpu.launch_func} with the same sizes.
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
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    if (o.name().equals(LaunchOp.NAME)) {
                        out.add(o);
                    } else {
                        collect(o, out);
                    }
                }
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
        for (Operation launch : launches(root)) {
            Operation fn = launch.parentOp();
            while (fn != null && fn.parentOp() != root) {
                fn = fn.parentOp();
            }
            String base = (fn == null || fn.symbolName() == null ? "launch" : fn.symbolName()) + "_kernel";
            String name = base;
            for (int i = 0; names.contains(name); i++) {
                name = base + "_" + i;
            }
            names.add(name);
            outlineOne(root, launch, name, targets);
        }
    }

    private static boolean isConstant(Operation op) {
        return op != null && op.operandCount() == 0 && op.regions().isEmpty()
                && (op.name().equals("arith.constant") || op.name().equals("llvm.mlir.constant"));
    }

    private static void outlineOne(Operation root, Operation launchOp, String name, List<GpuTarget> targets) {
        LaunchOp launch = new LaunchOp(launchOp);
        Location loc = launchOp.location();
        Region body = launch.body();
        // Values used inside and defined outside, in order of first use; constants among them are copied.
        Set<Block> inside = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        collectBlocks(body, inside);
        Map<Value, Integer> captured = new LinkedHashMap<>();
        List<Value> constants = new ArrayList<>();
        walk(body, op -> {
            for (Value v : op.operands()) {
                if (!definedIn(v, inside) && !captured.containsKey(v) && !constants.contains(v)) {
                    Operation def = v instanceof Value.OpResult r ? r.owner() : null;
                    if (isConstant(def)) {
                        constants.add(v);
                    } else {
                        captured.put(v, captured.size());
                    }
                }
            }
        });
        List<Value> args = new ArrayList<>(captured.keySet());
        List<Type> inputs = new ArrayList<>();
        for (Value v : args) {
            inputs.add(v.type());
        }
        GpuFuncOp kernel = GpuFuncOp.create(loc, name, new Type.FunctionType(inputs, List.of()), true, List.of(),
                List.of());
        Block entry = kernel.body();
        Map<Value, Value> replace = new IdentityHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            replace.put(args.get(i), entry.argument(i));
        }
        for (Value c : constants) {
            Operation def = ((Value.OpResult) c).owner();
            Operation copy = Operation.create(def.name(), def.location(), List.of(), List.of(c.type()),
                    new LinkedHashMap<>(def.attributes()));
            entry.append(copy);
            replace.put(c, copy.result(0));
        }
        // The twelve index arguments: block ids, thread ids, grid sizes, block sizes.
        String[] kinds = {"block_id", "thread_id", "grid_dim", "block_dim"};
        List<Value> indices = new ArrayList<>();
        for (String k : kinds) {
            for (int d = 0; d < 3; d++) {
                indices.add(entry.append(DimensionOp.create(loc, k, d).op()).result(0));
            }
        }
        List<Block> blocks = body.takeBlocks();
        entry.append(dev.mgpu.dialect.cf.Cf.BrOp.create(loc, dev.mgpu.dialect.cf.Cf.BrOp.NAME, blocks.get(0), indices)
                .op());
        for (Block b : blocks) {
            kernel.op().region(0).append(b);
        }
        walk(kernel.op().region(0), op -> {
            for (int i = 0; i < op.operandCount(); i++) {
                Value r = replace.get(op.operand(i));
                if (r != null) {
                    op.setOperand(i, r);
                }
            }
        });
        for (Block b : blocks) {
            Operation t = b.terminator();
            if (t != null && t.name().equals(LaunchOp.TERMINATOR)) {
                b.replace(t, Operation.create("gpu.return", t.location(), List.of(), List.of(), Map.of()));
            }
        }
        List<Attribute> targetAttrs = new ArrayList<>(targets);
        GpuModuleOp module = GpuModuleOp.create(loc, name, new Attribute.ArrayAttr(targetAttrs));
        if (targets.size() > 1) {
            module.op().setAttr("offloadingHandler", new OffloadingHandlerAttr.RuntimeSelect());
        }
        module.body().append(kernel.op());
        root.region(0).entry().append(module.op());
        Value[] grid = launch.gridSizes().toArray(new Value[0]);
        Value[] blockSizes = launch.blockSizes().toArray(new Value[0]);
        Operation call = LaunchFuncOp.create(loc, Attribute.SymbolRefAttr.of(name, name), List.of(), false, grid,
                blockSizes, null, launch.dynamicSharedMemorySize(), args, null).op();
        launchOp.parent().replace(launchOp, call);
    }

    private static boolean definedIn(Value v, Set<Block> inside) {
        if (v instanceof Value.BlockArgument a) {
            return inside.contains(a.owner());
        }
        Operation def = ((Value.OpResult) v).owner();
        return def.parent() != null && inside.contains(def.parent());
    }

    private static void collectBlocks(Region r, Set<Block> out) {
        for (Block b : r.blocks()) {
            out.add(b);
            for (Operation op : b.operations()) {
                for (Region inner : op.regions()) {
                    collectBlocks(inner, out);
                }
            }
        }
    }

    private static void walk(Region r, java.util.function.Consumer<Operation> f) {
        for (Block b : r.blocks()) {
            for (Operation op : b.operations()) {
                f.accept(op);
                for (Region inner : op.regions()) {
                    walk(inner, f);
                }
            }
        }
    }
}
