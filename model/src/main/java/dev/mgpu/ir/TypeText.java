package dev.mgpu.ir;

/** Text forms of the composite types. */
final class TypeText {
    private TypeText() {
    }

    static String function(Type.FunctionType f) {
        StringBuilder sb = new StringBuilder("(");
        list(sb, f.inputs());
        sb.append(") -> ");
        if (f.results().size() == 1 && !(f.results().get(0) instanceof Type.FunctionType)) {
            sb.append(f.results().get(0));
        } else {
            sb.append('(');
            list(sb, f.results());
            sb.append(')');
        }
        return sb.toString();
    }

    static String memref(Type.MemRefType m) {
        StringBuilder sb = new StringBuilder("memref<");
        for (int i = 0; i < m.rank(); i++) {
            long d = m.dim(i);
            sb.append(d == Type.DYNAMIC ? "?" : Long.toString(d)).append('x');
        }
        sb.append(m.elementType());
        if (m.layout() != null) {
            sb.append(", ").append(m.layout());
        }
        if (m.memorySpace() != null) {
            sb.append(", ").append(memorySpace(m.memorySpace()));
        }
        return sb.append('>').toString();
    }

    /** An i64 memory space prints as a bare integer, as upstream. */
    static String memorySpace(Attribute a) {
        if (a instanceof Attribute.IntegerAttr i && i.type().equals(Type.I64)) {
            return Long.toString(i.value());
        }
        return a.toString();
    }

    static String struct(Type.LLVMStructType s) {
        StringBuilder sb = new StringBuilder("!llvm.struct<");
        if (s.packed()) {
            sb.append("packed ");
        }
        sb.append('(');
        list(sb, s.body());
        return sb.append(")>").toString();
    }

    private static void list(StringBuilder sb, java.util.List<?> items) {
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(items.get(i));
        }
    }
}
