package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.List;
import java.util.Objects;

/**
 * An attribute that names how a {@code gpu.binary} is embedded and its kernels launched. The built-in
 * handlers are {@code #gpu.select_object} and {@code #gpu.runtime_select}; others come from
 * {@link OffloadingHandler} providers found through {@link java.util.ServiceLoader}.
 */
public sealed interface OffloadingHandlerAttr extends DialectAttribute
        permits OffloadingHandlerAttr.SelectObject, OffloadingHandlerAttr.RuntimeSelect,
        OffloadingHandlerAttr.External {

    /**
     * The attribute's name without {@code #}, for example {@code gpu.select_object}.
     *
     * @return the name
     */
    String name();

    /** The default handler: {@code #gpu.select_object} with no target. */
    SelectObject DEFAULT = new SelectObject(null);

    /**
     * {@code #gpu.select_object[<target>]}: embed one object, chosen by index ({@link IntegerAttr}), by
     * target ({@link GpuTarget}), or the first when {@code target} is null.
     *
     * @param target the index or target of the object to embed, or null for the first object
     */
    record SelectObject(Attribute target) implements OffloadingHandlerAttr {
        /** The attribute's name. */
        public static final String NAME = "gpu.select_object";

        /**
         * Parses the optional {@code <target>} after {@code #gpu.select_object}.
         *
         * @param p the parser, positioned just after the name
         * @return the parsed handler
         * @throws dev.mgpu.ir.MgpuException if the text is not a valid target
         */
        public static SelectObject parse(AsmParser p) {
            Attribute target = null;
            if (p.optionalPunct('<')) {
                target = p.attribute();
                p.expectPunct('>');
            }
            return new SelectObject(target);
        }

        @Override
        public String name() {
            return NAME;
        }

        /**
         * The index of the object this handler embeds, or -1 when none fits: the object at the index, the
         * last object whose target equals the target (as upstream), or the first object without a target.
         * The verifier and every handler use this one rule.
         *
         * @param objects the objects of a {@code gpu.binary}
         * @return the index of the selected object, or -1
         */
        public int select(List<? extends Attribute> objects) {
            if (target == null) {
                return objects.isEmpty() ? -1 : 0;
            }
            if (target instanceof Attribute.IntegerAttr i) {
                return i.value() >= 0 && i.value() < objects.size() ? (int) i.value() : -1;
            }
            int found = -1;
            for (int k = 0; k < objects.size(); k++) {
                if (objects.get(k) instanceof ObjectAttr o && o.target().equals(target)) {
                    found = k;
                }
            }
            return found;
        }

        /** An index prints with its type, as upstream prints it: {@code #gpu.select_object<1 : i64>}. */
        @Override
        public void print(AsmOutput out) {
            out.write("#" + NAME);
            if (target != null) {
                out.write('<').attr(target).write('>');
            }
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SelectObject other && Objects.equals(target, other.target);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(target);
        }
    }

    /** {@code #gpu.runtime_select}: embed every object and pick one for the device present at run time. */
    record RuntimeSelect() implements OffloadingHandlerAttr {
        /** The attribute's name. */
        public static final String NAME = "gpu.runtime_select";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public void print(AsmOutput out) {
            out.write("#" + NAME);
        }

        @Override
        public String toString() {
            return "#" + NAME;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RuntimeSelect;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * A handler registered by a provider: {@code #name} or {@code #name<parameter>}.
     *
     * @param name the handler's name without {@code #}
     * @param parameter the attribute between {@code <} and {@code >}, or null
     */
    record External(String name, Attribute parameter) implements OffloadingHandlerAttr {
        /**
         * Parses the optional {@code <parameter>} after a provider's handler name.
         *
         * @param p the parser, positioned just after the name
         * @param name the handler's name without {@code #}
         * @return the parsed handler
         * @throws dev.mgpu.ir.MgpuException if the parameter is not a valid attribute
         */
        public static External parse(AsmParser p, String name) {
            Attribute param = null;
            if (p.optionalPunct('<')) {
                param = p.attribute();
                p.expectPunct('>');
            }
            return new External(name, param);
        }

        @Override
        public void print(AsmOutput out) {
            out.write('#').write(name);
            if (parameter != null) {
                out.write('<').attr(parameter).write('>');
            }
        }

        @Override
        public String toString() {
            return parameter == null ? "#" + name : "#" + name + "<" + parameter + ">";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof External other && Objects.equals(name, other.name)
                    && Objects.equals(parameter, other.parameter);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(name) + Objects.hashCode(parameter);
        }
    }
}
