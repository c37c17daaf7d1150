package dev.mgpu.ir;

import java.util.Objects;

/**
 * A GPU target attribute: what a {@code #gpu.object} was compiled for. Defaults are filled in when
 * parsed, so {@code #nvvm.target} equals {@code #nvvm.target<chip = "sm_50">}.
 */
public sealed interface GpuTarget extends Attribute
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

        public static NVVMTarget of(String chip) {
            return new NVVMTarget(DEFAULT_O, DEFAULT_TRIPLE, chip, DEFAULT_FEATURES, null, null);
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

        public static ROCDLTarget of(String chip) {
            return new ROCDLTarget(DEFAULT_O, DEFAULT_TRIPLE, chip, DEFAULT_FEATURES, DEFAULT_ABI, null, null);
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

        public static CpuTarget host() {
            return new CpuTarget(DEFAULT_O, DEFAULT_TRIPLE);
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
}
