package dev.mgpu.codegen;

import java.util.Locale;

/** What {@link Mgpu#emit} produces. */
public enum EmitKind {
    /** MLIR text, the verified module as parsed ({@code --emit=mlir}). */
    MLIR("mlir", ".mlir", true),
    /** LLVM IR text ({@code --emit=llvm}). */
    LLVM("llvm", ".ll", true),
    /** LLVM bitcode ({@code --emit=bc}). */
    BC("bc", ".bc", false),
    /** A native object file ({@code --emit=obj}). */
    OBJ("obj", ".o", false),
    /** Native assembly text ({@code --emit=asm}). */
    ASM("asm", ".s", true),
    /** An executable, linked against the runtime ({@code --emit=exe}). */
    EXE("exe", "", false);

    private final String option;
    private final String extension;
    private final boolean text;

    EmitKind(String option, String extension, boolean text) {
        this.option = option;
        this.extension = extension;
        this.text = text;
    }

    /**
     * Returns the value of {@code --emit} that selects this kind.
     *
     * @return the option's value, such as {@code llvm}
     */
    public String option() {
        return option;
    }

    /**
     * Returns whether the output is text.
     *
     * @return true for text, false for binary output
     */
    public boolean isText() {
        return text;
    }

    /**
     * Returns whether the output is binary, which must not go to a terminal.
     *
     * @return true for binary, false for text output
     */
    public boolean isBinary() {
        return !text;
    }

    /**
     * The file extension of this kind, with its dot ({@code .ll}); empty for an executable.
     *
     * @return the extension, or the empty string
     */
    public String extension() {
        return extension;
    }

    /**
     * Returns the kind that {@code --emit=s} selects.
     *
     * @param s the option's value
     * @return the kind, or null when none has that value
     */
    public static EmitKind fromOption(String s) {
        for (EmitKind k : values()) {
            if (k.option.equals(s)) {
                return k;
            }
        }
        return null;
    }

    /**
     * The kind an output file's extension implies, or null for none of them.
     *
     * @param file a file name
     * @return the kind whose extension ends {@code file}, ignoring case, or null
     */
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
