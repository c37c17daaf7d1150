package dev.mgpu.ir;

import java.util.Arrays;
import java.util.List;

/**
 * A type of the IR. Every implementation is a record, so equality is structural. {@code toString()}
 * gives the MLIR text form.
 */
public sealed interface Type
        permits Type.IntegerType, Type.IndexType, Type.FloatType, Type.FunctionType, Type.MemRefType,
        Type.UnrankedMemRefType, Type.AsyncTokenType, Type.LLVMPointerType, Type.LLVMStructType,
        Type.LLVMArrayType, Type.LLVMFunctionType, Type.TensorType, Type.LLVMVoidType, Type.NoneType {

    /** The marker for a dynamic dimension, offset or stride ({@code ?}). */
    long DYNAMIC = Long.MIN_VALUE;

    IntegerType I1 = new IntegerType(1);
    IntegerType I8 = new IntegerType(8);
    IntegerType I16 = new IntegerType(16);
    IntegerType I32 = new IntegerType(32);
    IntegerType I64 = new IntegerType(64);
    IndexType INDEX = new IndexType();
    FloatType F16 = new FloatType(FloatType.Kind.F16);
    FloatType BF16 = new FloatType(FloatType.Kind.BF16);
    FloatType F32 = new FloatType(FloatType.Kind.F32);
    FloatType F64 = new FloatType(FloatType.Kind.F64);
    AsyncTokenType ASYNC_TOKEN = new AsyncTokenType();
    LLVMPointerType PTR = new LLVMPointerType(0);
    LLVMVoidType VOID = new LLVMVoidType();
    NoneType NONE = new NoneType();

    /** Whether this is a signless integer or {@code index}. */
    default boolean isIntegerOrIndex() {
        return this instanceof IntegerType || this instanceof IndexType;
    }

    /** A signless integer {@code iN}. */
    record IntegerType(int width) implements Type {
        /** The widest integer LLVM supports. */
        public static final int MAX_WIDTH = 1 << 23;

        public IntegerType {
            if (width < 1 || width > MAX_WIDTH) {
                throw new IllegalArgumentException("Invalid integer width (must be 1 to " + MAX_WIDTH + "): " + width);
            }
        }

        @Override
        public String toString() {
            return "i" + width;
        }
    }

    /** {@code index}: an integer as wide as the target's pointers. */
    record IndexType() implements Type {
        @Override
        public String toString() {
            return "index";
        }
    }

    /** A floating-point type. */
    record FloatType(Kind kind) implements Type {
        /** The supported float formats. */
        public enum Kind {
            F16("f16", 16), BF16("bf16", 16), F32("f32", 32), F64("f64", 64);

            final String text;
            final int width;

            Kind(String text, int width) {
                this.text = text;
                this.width = width;
            }
        }

        public int width() {
            return kind.width;
        }

        @Override
        public String toString() {
            return kind.text;
        }
    }

    /** {@code (inputs) -> results}. */
    record FunctionType(List<Type> inputs, List<Type> results) implements Type {
        public FunctionType {
            inputs = List.copyOf(inputs);
            results = List.copyOf(results);
        }

        @Override
        public String toString() {
            return TypeText.function(this);
        }
    }

    /**
     * A ranked memref. {@code shape} holds {@link #DYNAMIC} for {@code ?}. {@code layout} is null for the
     * identity layout, else a {@link Attribute.StridedLayoutAttr}. {@code memorySpace} is null for the default.
     */
    record MemRefType(long[] shape, Type elementType, Attribute layout, Attribute memorySpace) implements Type {
        public MemRefType {
            shape = shape.clone();
        }

        public int rank() {
            return shape.length;
        }

        public long[] shape() {
            return shape.clone();
        }

        public long dim(int i) {
            return shape[i];
        }

        public int dynamicDimCount() {
            int n = 0;
            for (long d : shape) {
                if (d == DYNAMIC) {
                    n++;
                }
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof MemRefType m && Arrays.equals(shape, m.shape) && elementType.equals(m.elementType)
                    && java.util.Objects.equals(layout, m.layout) && java.util.Objects.equals(memorySpace, m.memorySpace);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(shape) * 31 + elementType.hashCode();
        }

        @Override
        public String toString() {
            return TypeText.memref(this);
        }
    }

    /** {@code memref<*xT>}. */
    record UnrankedMemRefType(Type elementType, Attribute memorySpace) implements Type {
        @Override
        public String toString() {
            return "memref<*x" + elementType + (memorySpace == null ? "" : ", " + TypeText.memorySpace(memorySpace)) + ">";
        }
    }

    /** {@code !gpu.async.token}: at run time, a stream. */
    record AsyncTokenType() implements Type {
        @Override
        public String toString() {
            return "!gpu.async.token";
        }
    }

    /** {@code !llvm.ptr} or {@code !llvm.ptr<N>}. */
    record LLVMPointerType(int addressSpace) implements Type {
        @Override
        public String toString() {
            return addressSpace == 0 ? "!llvm.ptr" : "!llvm.ptr<" + addressSpace + ">";
        }
    }

    /** {@code !llvm.struct<(T, ...)>}, possibly packed. */
    record LLVMStructType(List<Type> body, boolean packed) implements Type {
        public LLVMStructType {
            body = List.copyOf(body);
        }

        @Override
        public String toString() {
            return TypeText.struct(this);
        }
    }

    /** {@code !llvm.array<N x T>}. */
    record LLVMArrayType(long size, Type elementType) implements Type {
        @Override
        public String toString() {
            return "!llvm.array<" + size + " x " + elementType + ">";
        }
    }

    /**
     * {@code !llvm.func<R (A, ...)>}, the type of an {@code llvm.func} as the llvm dialect states it (the
     * generic form of {@code llvm.func} carries it); a void result prints as {@code void}.
     */
    record LLVMFunctionType(Type result, List<Type> params, boolean varArg) implements Type {
        public LLVMFunctionType {
            params = List.copyOf(params);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("!llvm.func<");
            sb.append(result instanceof LLVMVoidType ? "void" : result.toString()).append(" (");
            for (int i = 0; i < params.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(params.get(i));
            }
            if (varArg) {
                sb.append(params.isEmpty() ? "..." : ", ...");
            }
            return sb.append(")>").toString();
        }
    }

    /**
     * {@code tensor<4x?xf32>}: a value of a shape, held in the model so that constants such as
     * {@code dense_resource<...> : tensor<...>} read and print; host code does not compute with tensors.
     */
    record TensorType(long[] shape, Type elementType) implements Type {
        @Override
        public boolean equals(Object o) {
            return o instanceof TensorType t && java.util.Arrays.equals(shape, t.shape) && elementType.equals(t.elementType);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(shape) * 31 + elementType.hashCode();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("tensor<");
            for (long d : shape) {
                sb.append(d == DYNAMIC ? "?" : Long.toString(d)).append('x');
            }
            return sb.append(elementType).append('>').toString();
        }
    }

    /** {@code !llvm.void}. */
    record LLVMVoidType() implements Type {
        @Override
        public String toString() {
            return "!llvm.void";
        }
    }

    /** {@code none}. */
    record NoneType() implements Type {
        @Override
        public String toString() {
            return "none";
        }
    }
}
