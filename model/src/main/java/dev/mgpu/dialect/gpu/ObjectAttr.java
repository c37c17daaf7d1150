package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.Objects;

/**
 * {@code #gpu.object<target, [properties = {...},] [format =] "blob">}: one device binary. The default
 * format, printed without a keyword, is {@code fatbin}, as upstream.
 *
 * @param target the target the object was compiled for, such as a {@link GpuTarget}
 * @param format the blob's format
 * @param properties the object's properties, or null for none
 * @param object the blob
 */
public record ObjectAttr(Attribute target, ObjectFormat format, Attribute.DictionaryAttr properties,
        Attribute.StringAttr object) implements DialectAttribute {
    /** The attribute's name. */
    public static final String NAME = "gpu.object";

    /**
     * Checks that the target, format and blob are present.
     *
     * @throws NullPointerException if {@code target}, {@code format} or {@code object} is null
     * @param target the target the object was compiled for, such as a {@link GpuTarget}
     * @param format the blob's format
     * @param properties the object's properties, or null for none
     * @param object the blob
     */
    public ObjectAttr {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(object, "object");
    }

    /**
     * The property that says the object's kernels take each memref as the address of its element 0 alone,
     * upstream's bare-pointer convention; without it, as upstream's default, they take the fields of its
     * descriptor. mgpu writes it on the objects it compiles with bare pointers; an object made elsewhere may
     * carry it, so that its launches pass what its kernels expect.
     */
    public static final String BARE_POINTERS = "mgpu.bare_pointers";

    /** {@return whether the object's kernels take memrefs as bare pointers ({@link #BARE_POINTERS})} */
    public boolean barePointers() {
        return properties != null && properties.get(BARE_POINTERS) != null;
    }

    /**
     * The same object, saying that its kernels take memrefs as bare pointers ({@link #BARE_POINTERS}).
     *
     * @return an object with this one's target, format, blob and properties, and that one
     */
    public ObjectAttr withBarePointers() {
        java.util.Map<String, Attribute> props = new java.util.LinkedHashMap<>(
                properties == null ? java.util.Map.of() : properties.entries());
        props.put(BARE_POINTERS, Attribute.UNIT);
        return new ObjectAttr(target, format, new Attribute.DictionaryAttr(props), object);
    }

    /**
     * A {@code fatbin} object without properties.
     *
     * @param target the target the blob was compiled for
     * @param blob the fat binary's bytes
     * @return the object
     */
    public static ObjectAttr of(GpuTarget target, byte[] blob) {
        return new ObjectAttr(target, ObjectFormat.FATBIN, null, new Attribute.StringAttr(blob));
    }

    /**
     * The same object with another blob.
     *
     * @param blob the new blob's bytes
     * @return an object with this one's target, format and properties
     */
    public ObjectAttr withBlob(byte[] blob) {
        return new ObjectAttr(target, format, properties, new Attribute.StringAttr(blob));
    }

    /**
     * Parses {@code <...>} after {@code #gpu.object}.
     *
     * @param p the parser, positioned just after the name
     * @return the parsed object
     * @throws dev.mgpu.ir.MgpuException if the text is not a valid object
     */
    public static ObjectAttr parse(AsmParser p) {
        p.expectPunct('<');
        Attribute target = p.attribute();
        p.expectPunct(',');
        Attribute.DictionaryAttr props = null;
        ObjectFormat format = ObjectFormat.FATBIN;
        byte[] blob = null;
        while (true) {
            int off = p.offset();
            if (p.atString()) {
                if (blob != null) {
                    throw p.errorAt(off, "Invalid #gpu.object (must hold one blob): a second string");
                }
                blob = p.stringBytes();
            } else if (p.optionalKeyword("properties")) {
                p.expectPunct('=');
                props = new Attribute.DictionaryAttr(p.dictionary());
            } else if (p.peekKeyword() != null) {
                String k = p.keyword();
                ObjectFormat f = ObjectFormat.fromKeyword(k);
                if (f == null) {
                    throw p.errorAt(off, "Invalid #gpu.object format (must be offload, assembly, bin or fatbin): "
                            + k);
                }
                p.expectPunct('=');
                format = f;
                if (!p.atString()) {
                    throw p.expected("the object's string");
                }
                continue;
            } else {
                throw p.expected("the object's string");
            }
            if (!p.optionalPunct(',')) {
                break;
            }
        }
        p.expectPunct('>');
        if (blob == null) {
            throw p.error("Invalid #gpu.object (must hold a blob string): none");
        }
        return new ObjectAttr(target, format, props, new Attribute.StringAttr(blob));
    }

    @Override
    public void print(AsmOutput out) {
        out.write("#" + NAME + "<").attr(target).write(", ");
        if (properties != null) {
            out.write("properties = ").attr(properties).write(", ");
        }
        if (format != ObjectFormat.FATBIN) {
            out.write(format.keyword()).write(" = ");
        }
        out.quoted(object.bytes()).write('>');
    }

    @Override
    public String toString() {
        return AsmOutput.render(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectAttr other && Objects.equals(target, other.target)
                && Objects.equals(format, other.format) && Objects.equals(properties, other.properties)
                && Objects.equals(object, other.object);
    }

    @Override
    public int hashCode() {
        int h = Objects.hashCode(target);
        h = 31 * h + Objects.hashCode(format);
        h = 31 * h + Objects.hashCode(properties);
        return 31 * h + Objects.hashCode(object);
    }
}
