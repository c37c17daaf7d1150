package dev.mgpu.codegen.internal.translate;

import java.util.List;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.codegen.HandlerContext;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.codegen.LLVMOffloadingHandler;
import dev.mgpu.codegen.SelectObjectHandler;
import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.OffloadingHandler;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.ir.Operation;

/** Finds the LLVM translation of a binary's handler attribute. */
public final class Handlers {
    private static final SelectObjectHandler SELECT = new SelectObjectHandler();

    private Handlers() {
    }

    public static LLVMOffloadingHandler forAttribute(Attribute a, Operation binary) {
        if (a instanceof OffloadingHandlerAttr.SelectObject) {
            return SELECT;
        }
        if (a instanceof OffloadingHandlerAttr.RuntimeSelect) {
            return dev.mgpu.codegen.RuntimeSelectHandler.INSTANCE;
        }
        if (a instanceof OffloadingHandlerAttr.External e) {
            OffloadingHandler h = OffloadingHandler.lookup(e.name());
            if (h instanceof LLVMOffloadingHandler l) {
                return l;
            }
            throw new MgpuException(binary.knownLocation(), "Invalid offloading handler (must have an LLVM translation): #"
                    + e.name());
        }
        throw new MgpuException(binary.knownLocation(), "Invalid offloading handler (must be an offloading handler"
                + " attribute): " + a);
    }

    /** Tells the handlers how many launch sites each kernel has, so that one site needs no stub. */
    static void expectLaunchSites(Operation root, HandlerContext handlers) {
        java.util.Map<List<String>, Integer> sites = new java.util.HashMap<>();
        java.util.ArrayDeque<Operation> work = new java.util.ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            Operation op = work.pop();
            if (op.name().equals(LaunchFuncOp.NAME)) {
                LaunchFuncOp l = new LaunchFuncOp(op);
                sites.merge(List.of(l.moduleName(), l.kernelName()), 1, Integer::sum);
            }
            for (dev.mgpu.ir.Region r : op.regions()) {
                for (dev.mgpu.ir.Block b : r.blocks()) {
                    b.operations().forEach(work::push);
                }
            }
        }
        sites.forEach((k, n) -> handlers.expectLaunchSites(k.get(0), k.get(1), n));
    }
}
