package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A GPU target attribute: what a {@code #gpu.object} was compiled for. Defaults are filled in when
 * parsed, so {@code #nvvm.target} equals {@code #nvvm.target<chip = "sm_50">}; printing leaves out every
 * parameter equal to its default. Each record holds its own syntax: {@code parse} after the name, and
 * {@code print}.
 */
public sealed interface GpuTarget extends DialectAttribute
        permits GpuTarget.NVVMTarget, GpuTarget.ROCDLTarget, GpuTarget.CpuTarget {

    /** The optimisation level the object was built with. */
    int optLevel();

    /** The chip name ({@code sm_90}, {@code gfx90a}), or empty for the CPU. */
    String chip();

    /** {@code #nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "+ptx60", flags, link>}. */
    record NVVMTarget(int optLevel, String triple, String chip, String features, Attribute.DictionaryAttr flags,
            Attribute.ArrayAttr link) implements GpuTarget {
        public static final int DEFAULT_O = 2;
        public static final String DEFAULT_TRIPLE = "nvptx64-nvidia-cuda";
        public static final String DEFAULT_CHIP = "sm_50";
        public static final String DEFAULT_FEATURES = "+ptx60";

        public NVVMTarget {
            Objects.requireNonNull(triple);
            Objects.requireNonNull(chip);
            Objects.requireNonNull(features);
        }

        /** The attribute's name. */
        public static final String NAME = "nvvm.target";

        public static NVVMTarget of(String chip) {
            return new NVVMTarget(DEFAULT_O, DEFAULT_TRIPLE, chip, DEFAULT_FEATURES, null, null);
        }

        /** Parses the optional {@code <...>} after {@code #nvvm.target}, filling in defaults. */
        public static NVVMTarget parse(AsmParser p) {
            Map<String, Attribute> m = p.parameters("#" + NAME, List.of("O", "triple", "chip", "features", "flags",
                    "link"));
            return new NVVMTarget(intParam(p, m, "O", DEFAULT_O), strParam(p, m, "triple", DEFAULT_TRIPLE),
                    strParam(p, m, "chip", DEFAULT_CHIP), strParam(p, m, "features", DEFAULT_FEATURES),
                    dictParam(p, m, "flags"), arrayParam(p, m, "link"));
        }

        @Override
        public void print(AsmOutput out) {
            out.parameters("#" + NAME).integer("O", optLevel, DEFAULT_O).string("triple", triple, DEFAULT_TRIPLE)
                    .string("chip", chip, DEFAULT_CHIP).string("features", features, DEFAULT_FEATURES)
                    .attr("flags", flags).attr("link", link).close();
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /** {@code #rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900", features = "", abi = "600", flags, link>}. */
    record ROCDLTarget(int optLevel, String triple, String chip, String features, String abi,
            Attribute.DictionaryAttr flags, Attribute.ArrayAttr link) implements GpuTarget {
        public static final int DEFAULT_O = 2;
        public static final String DEFAULT_TRIPLE = "amdgcn-amd-amdhsa";
        public static final String DEFAULT_CHIP = "gfx900";
        public static final String DEFAULT_FEATURES = "";
        public static final String DEFAULT_ABI = "600";

        public ROCDLTarget {
            Objects.requireNonNull(triple);
            Objects.requireNonNull(chip);
            Objects.requireNonNull(features);
            Objects.requireNonNull(abi);
        }

        /** The attribute's name. */
        public static final String NAME = "rocdl.target";

        public static ROCDLTarget of(String chip) {
            return new ROCDLTarget(DEFAULT_O, DEFAULT_TRIPLE, chip, DEFAULT_FEATURES, DEFAULT_ABI, null, null);
        }

        /** Parses the optional {@code <...>} after {@code #rocdl.target}, filling in defaults. */
        public static ROCDLTarget parse(AsmParser p) {
            Map<String, Attribute> m = p.parameters("#" + NAME, List.of("O", "triple", "chip", "features", "abi",
                    "flags", "link"));
            return new ROCDLTarget(intParam(p, m, "O", DEFAULT_O), strParam(p, m, "triple", DEFAULT_TRIPLE),
                    strParam(p, m, "chip", DEFAULT_CHIP), strParam(p, m, "features", DEFAULT_FEATURES),
                    strParam(p, m, "abi", DEFAULT_ABI), dictParam(p, m, "flags"), arrayParam(p, m, "link"));
        }

        @Override
        public void print(AsmOutput out) {
            out.parameters("#" + NAME).integer("O", optLevel, DEFAULT_O).string("triple", triple, DEFAULT_TRIPLE)
                    .string("chip", chip, DEFAULT_CHIP).string("features", features, DEFAULT_FEATURES)
                    .string("abi", abi, DEFAULT_ABI).attr("flags", flags).attr("link", link).close();
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /**
     * {@code #cpu.target<O = 2, triple = "">}: a host shared object whose kernels follow the CPU kernel ABI
     * of {@code mgpu.h}. An empty triple means the host the program runs on.
     */
    record CpuTarget(int optLevel, String triple) implements GpuTarget {
        public static final int DEFAULT_O = 2;
        public static final String DEFAULT_TRIPLE = "";

        public CpuTarget {
            Objects.requireNonNull(triple);
        }

        /** The attribute's name. */
        public static final String NAME = "cpu.target";

        public static CpuTarget host() {
            return new CpuTarget(DEFAULT_O, DEFAULT_TRIPLE);
        }

        /** Parses the optional {@code <...>} after {@code #cpu.target}, filling in defaults. */
        public static CpuTarget parse(AsmParser p) {
            Map<String, Attribute> m = p.parameters("#" + NAME, List.of("O", "triple"));
            return new CpuTarget(intParam(p, m, "O", DEFAULT_O), strParam(p, m, "triple", DEFAULT_TRIPLE));
        }

        @Override
        public void print(AsmOutput out) {
            out.parameters("#" + NAME).integer("O", optLevel, DEFAULT_O).string("triple", triple, DEFAULT_TRIPLE)
                    .close();
        }

        @Override
        public String chip() {
            return "";
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    private static int intParam(AsmParser p, Map<String, Attribute> m, String key, int dflt) {
        Attribute a = m.get(key);
        if (a == null) {
            return dflt;
        }
        if (a instanceof Attribute.IntegerAttr i) {
            if (key.equals("O") && (i.value() < 0 || i.value() > 3)) {
                throw p.error("Invalid parameter O (must be an optimisation level from 0 to 3): " + i.value());
            }
            return (int) i.value();
        }
        throw p.error("Invalid parameter " + key + " (must be an integer): " + a);
    }

    private static String strParam(AsmParser p, Map<String, Attribute> m, String key, String dflt) {
        Attribute a = m.get(key);
        if (a == null) {
            return dflt;
        }
        if (a instanceof Attribute.StringAttr s) {
            return s.value();
        }
        throw p.error("Invalid parameter " + key + " (must be a string): " + a);
    }

    private static Attribute.DictionaryAttr dictParam(AsmParser p, Map<String, Attribute> m, String key) {
        Attribute a = m.get(key);
        if (a == null || a instanceof Attribute.DictionaryAttr) {
            return (Attribute.DictionaryAttr) a;
        }
        throw p.error("Invalid parameter " + key + " (must be a dictionary): " + a);
    }

    private static Attribute.ArrayAttr arrayParam(AsmParser p, Map<String, Attribute> m, String key) {
        Attribute a = m.get(key);
        if (a == null || a instanceof Attribute.ArrayAttr) {
            return (Attribute.ArrayAttr) a;
        }
        throw p.error("Invalid parameter " + key + " (must be an array): " + a);
    }
}
