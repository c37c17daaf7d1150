package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.dialect.llvm.CConvAttr;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import org.bytedeco.llvm.LLVM.LLVMAttributeRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Gives an LLVM function what its {@code llvm.func} states beyond name, type and linkage: section,
 * alignment, calling convention, visibility, unnamed_addr, inlining and optimisation markers, passthrough
 * attributes, garbage collector, entry count, and the {@code llvm.*} attributes of its arguments and
 * results. The llvm dialect's verifier has checked their shapes, and rejected any attribute it does not
 * list, so none is dropped here.
 */
public final class FunctionAttributes {
    private FunctionAttributes() {
    }

    public static void apply(Operation op, LLVMValueRef fn, LLVMContextRef ctx) {
        if (op.attr("section") instanceof Attribute.StringAttr s) {
            LLVMSetSection(fn, s.value());
        }
        if (op.attr("alignment") instanceof Attribute.IntegerAttr a) {
            LLVMSetAlignment(fn, (int) a.value());
        }
        if (op.attr("CConv") instanceof CConvAttr c) {
            LLVMSetFunctionCallConv(fn, c.number());
        }
        if (op.attr("visibility_") instanceof Attribute.IntegerAttr v) {
            LLVMSetVisibility(fn, (int) v.value());
        }
        if (op.attr("unnamed_addr") instanceof Attribute.IntegerAttr u) {
            LLVMSetUnnamedAddress(fn, (int) u.value());
        }
        if (op.hasAttr("always_inline")) {
            enumAttribute(op, ctx, fn, LLVMAttributeFunctionIndex, "alwaysinline", 0);
        }
        if (op.hasAttr("no_inline") || op.hasAttr("optimize_none")) {
            enumAttribute(op, ctx, fn, LLVMAttributeFunctionIndex, "noinline", 0);
        }
        if (op.hasAttr("optimize_none")) {
            enumAttribute(op, ctx, fn, LLVMAttributeFunctionIndex, "optnone", 0);
        }
        if (op.attr("passthrough") instanceof Attribute.ArrayAttr pass) {
            for (Attribute a : pass.elements()) {
                if (a instanceof Attribute.StringAttr name) {
                    passthrough(op, ctx, fn, name.value(), null);
                } else {
                    Attribute.ArrayAttr kv = (Attribute.ArrayAttr) a;
                    passthrough(op, ctx, fn, ((Attribute.StringAttr) kv.get(0)).value(),
                            ((Attribute.StringAttr) kv.get(1)).value());
                }
            }
        }
        if (op.attr("garbageCollector") instanceof Attribute.StringAttr gc) {
            LLVMSetGC(fn, gc.value());
        }
        if (op.attr("function_entry_count") instanceof Attribute.IntegerAttr count) {
            LLVMValueRef[] md = {LLVMMDStringInContext(ctx, "function_entry_count", 20),
                LLVMConstInt(LLVMInt64TypeInContext(ctx), count.value(), 0)};
            try (org.bytedeco.javacpp.PointerPointer<LLVMValueRef> p = new org.bytedeco.javacpp.PointerPointer<>(md)) {
                LLVMValueRef node = LLVMMDNodeInContext(ctx, p, 2);
                LLVMGlobalSetMetadata(fn, LLVMGetMDKindIDInContext(ctx, "prof", 4), LLVMValueAsMetadata(node));
            }
        }
        argumentAttributes(op, fn, ctx, "arg_attrs", 1);
        argumentAttributes(op, fn, ctx, "res_attrs", LLVMAttributeReturnIndex);
    }

    /** The {@code llvm.*} entries of each argument's (or the result's) dictionary, as enum attributes. */
    private static void argumentAttributes(Operation op, LLVMValueRef fn, LLVMContextRef ctx, String key, int first) {
        if (!(op.attr(key) instanceof Attribute.ArrayAttr all)) {
            return;
        }
        for (int i = 0; i < all.size(); i++) {
            Attribute.DictionaryAttr d = (Attribute.DictionaryAttr) all.get(i);
            int index = first == LLVMAttributeReturnIndex ? LLVMAttributeReturnIndex : first + i;
            for (java.util.Map.Entry<String, Attribute> e : d.entries().entrySet()) {
                long value = e.getValue() instanceof Attribute.IntegerAttr n ? n.value() : 0;
                enumAttribute(op, ctx, fn, index, e.getKey().substring("llvm.".length()), value);
            }
        }
    }

    private static void enumAttribute(Operation op, LLVMContextRef ctx, LLVMValueRef fn, int index, String name,
            long value) {
        int kind = LLVMGetEnumAttributeKindForName(name, name.length());
        if (kind == 0) {
            throw new MgpuException(op.knownLocation(), "Invalid attribute of " + op.name() + " (must be one LLVM knows): "
                    + name);
        }
        LLVMAttributeRef a = LLVMCreateEnumAttribute(ctx, kind, value);
        LLVMAddAttributeAtIndex(fn, index, a);
    }

    /** An enum attribute when LLVM knows the name and it takes no value, else a string attribute. */
    private static void passthrough(Operation op, LLVMContextRef ctx, LLVMValueRef fn, String name, String value) {
        int kind = LLVMGetEnumAttributeKindForName(name, name.length());
        if (kind != 0 && value == null) {
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
        } else {
            String v = value == null ? "" : value;
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                    LLVMCreateStringAttribute(ctx, name, name.length(), v, v.length()));
        }
    }
}
