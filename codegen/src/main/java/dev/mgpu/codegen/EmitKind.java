package dev.mgpu.codegen;

import java.util.Locale;

/** What {@link Mgpu#emit} produces. */
public enum EmitKind {
    MLIR("mlir", ".mlir", true),
    LLVM("llvm", ".ll", true),
    BC("bc", ".bc", false),
    OBJ("obj", ".o", false),
    ASM("asm", ".s", true),
    EXE("exe", "", false);

    private final String option;
    private final String extension;
    private final boolean text;

    EmitKind(String option, String extension, boolean text) {
        this.option = option;
        this.extension = extension;
        this.text = text;
    }

    public String option() {
        return option;
    }

    public boolean isText() {
        return text;
    }

    public boolean isBinary() {
        return !text;
    }

    /** The file extension of this kind, with its dot ({@code .ll}); empty for an executable. */
    public String extension() {
        return extension;
    }

    public static EmitKind fromOption(String s) {
        for (EmitKind k : values()) {
            if (k.option.equals(s)) {
                return k;
            }
        }
        return null;
    }

    /** The kind an output file's extension implies, or null for none of them. */
    public static EmitKind fromExtension(String file) {
        String f = file.toLowerCase(Locale.ROOT);
        for (EmitKind k : values()) {
            if (!k.extension.isEmpty() && f.endsWith(k.extension)) {
                return k;
            }
        }
        return null;
    }
}
