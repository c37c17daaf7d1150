package dev.mgpu.codegen.internal;

import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Gives every object of a top-level {@code gpu.binary} whose blob is the reference {@code @file:NAME} the
 * bytes of the embedded blob {@code NAME}, in place. It runs before verification, so that the verifier and
 * every later step see the bytes that will be embedded; it reads only what it recognises and leaves the
 * rest of a malformed model to the verifier.
 */
public final class EmbedRewrite {
    /** The prefix of a blob that refers to an embedded blob by name. */
    public static final String PREFIX = "@file:";

    /** A reference is short; a longer blob is data, whatever it starts with. */
    private static final int MAX_REFERENCE = 256;

    private EmbedRewrite() {
    }

    /**
     * Resolves the references in {@code root}; returns one located error per reference to a missing blob, and
     * per blob of a {@code #cpu.target} object that is not a shared object for {@code triple} (the program's;
     * a target's own triple comes first), which the CPU backend could not load.
     */
    public static List<Diagnostic> apply(Operation root, Map<String, byte[]> blobs, String triple) {
        List<Diagnostic> errors = new ArrayList<>();
        if (!root.name().equals(Builtin.ModuleOp.NAME) || root.regions().isEmpty() || root.region(0).isEmpty()) {
            return errors;
        }
        for (Operation op : root.region(0).entry().operations()) {
            if (op.name().equals(BinaryOp.NAME) && op.attr("objects") instanceof Attribute.ArrayAttr objects) {
                rewrite(op, objects, blobs, errors, triple);
            }
        }
        return errors;
    }

    private static void rewrite(Operation binary, Attribute.ArrayAttr objects, Map<String, byte[]> blobs,
            List<Diagnostic> errors, String triple) {
        List<Attribute> resolved = new ArrayList<>(objects.size());
        boolean changed = false;
        for (Attribute a : objects.elements()) {
            String name = a instanceof ObjectAttr o ? referencedName(o) : null;
            byte[] data = name == null ? null : blobs.get(name);
            if (name != null && data == null) {
                errors.add(Diagnostic.error(binary.location(), "Invalid object blob reference (must name an"
                        + " embedded blob): " + PREFIX + name));
            }
            if (data == null) {
                resolved.add(a);
                continue;
            }
            ObjectAttr o = (ObjectAttr) a;
            String problem = DeviceTargets.embeddedProblem(o.target(), data, triple);
            if (problem != null) {
                int cut = problem.indexOf("; ");
                errors.add(Diagnostic.error(binary.location(), "Invalid object for " + o.target() + " ("
                        + problem.substring(0, cut) + "): " + PREFIX + name + " (" + data.length + " bytes): "
                        + problem.substring(cut + 2)));
            }
            resolved.add(new ObjectAttr(o.target(), o.format(), o.properties(),
                    new Attribute.StringAttr(data)));
            changed = true;
        }
        if (changed) {
            binary.setAttr("objects", new Attribute.ArrayAttr(resolved));
        }
    }

    /** The blob name an object refers to, or null for an object that holds its bytes. */
    private static String referencedName(ObjectAttr o) {
        String text = o.object().length() < MAX_REFERENCE ? o.object().value() : "";
        return text.startsWith(PREFIX) ? text.substring(PREFIX.length()) : null;
    }
}
