package dev.mgpu.ir;

import java.util.List;

/**
 * An attribute that names how a {@code gpu.binary} is embedded and its kernels launched. The built-in
 * handlers are {@code #gpu.select_object} and {@code #gpu.runtime_select}; others come from
 * {@link OffloadingHandler} providers found through {@link java.util.ServiceLoader}.
 */
public sealed interface OffloadingHandlerAttr extends Attribute
        permits OffloadingHandlerAttr.SelectObject, OffloadingHandlerAttr.RuntimeSelect,
        OffloadingHandlerAttr.External {

    /** The attribute's name without {@code #}, for example {@code gpu.select_object}. */
    String name();

    /** The default handler: {@code #gpu.select_object} with no target. */
    SelectObject DEFAULT = new SelectObject(null);

    /**
     * {@code #gpu.select_object[<target>]}: embed one object, chosen by index ({@link IntegerAttr}), by
     * target ({@link GpuTarget}), or the first when {@code target} is null.
     */
    record SelectObject(Attribute target) implements OffloadingHandlerAttr {
        public static final String NAME = "gpu.select_object";

        @Override
        public String name() {
            return NAME;
        }

        /**
         * The index in {@code objects} of the object this handler selects, or -1 when none matches: object
         * N for an index N, the first object without a target, and, as upstream, the last object whose
         * target equals the target.
         */
        public int select(List<? extends Attribute> objects) {
            if (target == null) {
                return objects.isEmpty() ? -1 : 0;
            }
            if (target instanceof IntegerAttr i) {
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

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /** {@code #gpu.runtime_select}: embed every object and pick one for the device present at run time. */
    record RuntimeSelect() implements OffloadingHandlerAttr {
        public static final String NAME = "gpu.runtime_select";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String toString() {
            return "#" + NAME;
        }
    }

    /** A handler registered by a provider: {@code #name} or {@code #name<parameter>}. */
    record External(String name, Attribute parameter) implements OffloadingHandlerAttr {
        @Override
        public String toString() {
            return parameter == null ? "#" + name : "#" + name + "<" + parameter + ">";
        }
    }
}
