package dev.mgpu.codegen.internal.translate;

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
}
