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

    /**
     * The optimisation level the object was built with.
     *
     * @return the {@code O} level, 0 to 3
     */
    int optLevel();

    /**
     * The chip name ({@code sm_90}, {@code gfx90a}), or empty for the CPU.
     *
     * @return the chip, or the empty string
     */
    String chip();

    /**
     * {@code #nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "+ptx60", flags, link>}.
     *
     * @param optLevel the optimisation level, {@code O}
     * @param triple the target triple
     * @param chip the SM version, such as {@code sm_90}
     * @param features the PTX features, such as {@code +ptx60}
     * @param flags extra flags, or null
     * @param link the files to link, or null
     */
    record NVVMTarget(int optLevel, String triple, String chip, String features, Attribute.DictionaryAttr flags,
            Attribute.ArrayAttr link) implements GpuTarget {
        /** The default optimisation level. */
        public static final int DEFAULT_O = 2;
        /** The default triple. */
        public static final String DEFAULT_TRIPLE = "nvptx64-nvidia-cuda";
        /** The default chip. */
        public static final String DEFAULT_CHIP = "sm_50";
        /** The default features. */
        public static final String DEFAULT_FEATURES = "+ptx60";

        /**
         * Checks that the triple, chip and features are present.
         *
         * @throws NullPointerException if {@code triple}, {@code chip} or {@code features} is null
         * @param optLevel the optimisation level, {@code O}
         * @param triple the target triple
         * @param chip the SM version, such as {@code sm_90}
         * @param features the PTX features, such as {@code +ptx60}
         * @param flags extra flags, or null
         * @param link the files to link, or null
         */
        public NVVMTarget {
            Objects.requireNonNull(triple);
            Objects.requireNonNull(chip);
            Objects.requireNonNull(features);
        }

        /** The attribute's name. */
        public static final String NAME = "nvvm.target";

        /**
         * Returns a target for {@code chip} with every other parameter at its default.
         *
         * @param chip the chip, such as {@code sm_90}
         * @return the target
         */
        public static NVVMTarget of(String chip) {
            return new NVVMTarget(DEFAULT_O, DEFAULT_TRIPLE, chip, DEFAULT_FEATURES, null, null);
        }

        /**
         * Parses the optional {@code <...>} after {@code #nvvm.target}, filling in defaults.
         *
         * @param p the parser, positioned just after the name
         * @return the parsed target
         * @throws dev.mgpu.ir.MgpuException if a parameter is unknown or of the wrong kind
         */
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

        @Override
        public boolean equals(Object o) {
            return o instanceof NVVMTarget other && optLevel == other.optLevel && Objects.equals(triple, other.triple)
                    && Objects.equals(chip, other.chip) && Objects.equals(features, other.features)
                    && Objects.equals(flags, other.flags) && Objects.equals(link, other.link);
        }

        @Override
        public int hashCode() {
            int h = hashOf(optLevel, triple, chip, features);
            h = 31 * h + Objects.hashCode(flags);
            return 31 * h + Objects.hashCode(link);
        }
    }

    /**
     * {@code #rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900", features = "", abi = "600", flags, link>}.
     *
     * @param optLevel the optimisation level, {@code O}
     * @param triple the target triple
     * @param chip the GPU, such as {@code gfx90a}
     * @param features the target features
     * @param abi the code object ABI version, such as {@code 600}
     * @param flags extra flags, or null
     * @param link the files to link, or null
     */
    record ROCDLTarget(int optLevel, String triple, String chip, String features, String abi,
            Attribute.DictionaryAttr flags, Attribute.ArrayAttr link) implements GpuTarget {
        /** The default optimisation level. */
        public static final int DEFAULT_O = 2;
        /** The default triple. */
        public static final String DEFAULT_TRIPLE = "amdgcn-amd-amdhsa";
        /** The default chip. */
        public static final String DEFAULT_CHIP = "gfx900";
        /** The default features (none). */
        public static final String DEFAULT_FEATURES = "";
        /** The default code object ABI version. */
        public static final String DEFAULT_ABI = "600";

        /**
         * Checks that the triple, chip, features and ABI are present.
         *
         * @throws NullPointerException if {@code triple}, {@code chip}, {@code features} or {@code abi} is null
         * @param optLevel the optimisation level, {@code O}
         * @param triple the target triple
         * @param chip the GPU, such as {@code gfx90a}
         * @param features the target features
         * @param abi the code object ABI version, such as {@code 600}
         * @param flags extra flags, or null
         * @param link the files to link, or null
         */
        public ROCDLTarget {
            Objects.requireNonNull(triple);
            Objects.requireNonNull(chip);
            Objects.requireNonNull(features);
            Objects.requireNonNull(abi);
        }

        /** The attribute's name. */
        public static final String NAME = "rocdl.target";

        /**
         * Returns a target for {@code chip} with every other parameter at its default.
         *
         * @param chip the chip, such as {@code gfx90a}
         * @return the target
         */
        public static ROCDLTarget of(String chip) {
            return new ROCDLTarget(DEFAULT_O, DEFAULT_TRIPLE, chip, DEFAULT_FEATURES, DEFAULT_ABI, null, null);
        }

        /**
         * Parses the optional {@code <...>} after {@code #rocdl.target}, filling in defaults.
         *
         * @param p the parser, positioned just after the name
         * @return the parsed target
         * @throws dev.mgpu.ir.MgpuException if a parameter is unknown or of the wrong kind
         */
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

        @Override
        public boolean equals(Object o) {
            return o instanceof ROCDLTarget other && optLevel == other.optLevel && Objects.equals(triple, other.triple)
                    && Objects.equals(chip, other.chip) && Objects.equals(features, other.features)
                    && Objects.equals(abi, other.abi) && Objects.equals(flags, other.flags)
                    && Objects.equals(link, other.link);
        }

        @Override
        public int hashCode() {
            int h = hashOf(optLevel, triple, chip, features);
            h = 31 * h + Objects.hashCode(abi);
            h = 31 * h + Objects.hashCode(flags);
            return 31 * h + Objects.hashCode(link);
        }
    }

    /**
     * {@code #cpu.target<O = 2, triple = "", chip = "", features = "">}: a host shared object whose kernels
     * follow the CPU kernel ABI of {@code mgpu.h}. An empty triple means the host the program runs on; an
     * empty chip, the triple's baseline CPU, and {@code "native"} the CPU of the machine that compiles.
     *
     * @param optLevel the optimisation level, {@code O}
     * @param triple the target triple, or empty for the host
     * @param chip the CPU (LLVM's {@code -mcpu}), or empty for the baseline
     * @param features the CPU features (LLVM's {@code -mattr}, {@code +avx2,-sse4a}), or empty
     */
    record CpuTarget(int optLevel, String triple, String chip, String features) implements GpuTarget {
        /** The default optimisation level. */
        public static final int DEFAULT_O = 2;
        /** The default triple: empty, the host. */
        public static final String DEFAULT_TRIPLE = "";

        /**
         * Checks that the triple is present.
         *
         * @throws NullPointerException if {@code triple} is null
         * @param optLevel the optimisation level, {@code O}
         * @param triple the target triple, or empty for the host
         * @param chip the CPU, or empty for the baseline
         * @param features the CPU features, or empty
         */
        public CpuTarget {
            Objects.requireNonNull(triple);
            Objects.requireNonNull(chip);
            Objects.requireNonNull(features);
        }

        /**
         * A target for the baseline CPU of {@code triple}.
         *
         * @param optLevel the optimisation level, {@code O}
         * @param triple the target triple, or empty for the host
         */
        public CpuTarget(int optLevel, String triple) {
            this(optLevel, triple, "", "");
        }

        /** The attribute's name. */
        public static final String NAME = "cpu.target";

        /**
         * Returns a target for the host the program runs on, at the default optimisation level.
         *
         * @return the target
         */
        public static CpuTarget host() {
            return new CpuTarget(DEFAULT_O, DEFAULT_TRIPLE);
        }

        /**
         * Parses the optional {@code <...>} after {@code #cpu.target}, filling in defaults.
         *
         * @param p the parser, positioned just after the name
         * @return the parsed target
         * @throws dev.mgpu.ir.MgpuException if a parameter is unknown or of the wrong kind
         */
        public static CpuTarget parse(AsmParser p) {
            Map<String, Attribute> m = p.parameters("#" + NAME, List.of("O", "triple", "chip", "features"));
            return new CpuTarget(intParam(p, m, "O", DEFAULT_O), strParam(p, m, "triple", DEFAULT_TRIPLE),
                    strParam(p, m, "chip", ""), strParam(p, m, "features", ""));
        }

        @Override
        public void print(AsmOutput out) {
            out.parameters("#" + NAME).integer("O", optLevel, DEFAULT_O).string("triple", triple, DEFAULT_TRIPLE)
                    .string("chip", chip, "").string("features", features, "").close();
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CpuTarget other && optLevel == other.optLevel && Objects.equals(triple, other.triple)
                    && Objects.equals(chip, other.chip) && Objects.equals(features, other.features);
        }

        @Override
        public int hashCode() {
            return hashOf(optLevel, triple, chip, features);
        }
    }

    /** The hash of the components every target starts with, folded as a record folds its components. */
    private static int hashOf(int optLevel, String triple, String chip, String features) {
        int h = optLevel;
        h = 31 * h + Objects.hashCode(triple);
        h = 31 * h + Objects.hashCode(chip);
        return 31 * h + Objects.hashCode(features);
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
