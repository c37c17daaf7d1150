package dev.mgpu.dialect.gpu;

/** The formats a {@code #gpu.object} blob can have, with their keywords. */
public enum ObjectFormat {
    /** LLVM bitcode for offloading, linked in later ({@code offload}). */
    OFFLOAD("offload"),
    /** Assembly text, such as PTX ({@code assembly}). */
    ASSEMBLY("assembly"),
    /** A device binary ({@code bin}). */
    BINARY("bin"),
    /** A fat binary holding code for several devices ({@code fatbin}). */
    FATBIN("fatbin");

    /**
     * @return the keyword, such as {@code bin} for {@link #BINARY}
     */
    private final String keyword;

    ObjectFormat(String keyword) {
        this.keyword = keyword;
    }
/**
 * @param k a keyword, such as {@code fatbin}
 * @return the format, or null when no format has that keyword
 */

    /** The keyword that names the format in {@code #gpu.object}. */
    public String keyword() {
        return keyword;
    }

    /** The format named {@code k}, or null. */
    public static ObjectFormat fromKeyword(String k) {
        for (ObjectFormat f : values()) {
            if (f.keyword.equals(k)) {
                return f;
            }
        }
        return null;
    }
}
