package dev.mgpu.dialect.gpu;

/** The formats a {@code #gpu.object} blob can have, with their keywords. */
public enum ObjectFormat {
    OFFLOAD("offload"), ASSEMBLY("assembly"), BINARY("bin"), FATBIN("fatbin");

    private final String keyword;

    ObjectFormat(String keyword) {
        this.keyword = keyword;
    }

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
