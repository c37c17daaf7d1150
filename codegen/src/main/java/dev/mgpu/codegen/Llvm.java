package dev.mgpu.codegen;

/** Loads the native LLVM library once. */
final class Llvm {
    private Llvm() {
    }

    static synchronized void load() {
        // JavaCPP otherwise samples the process's resident size on every native allocation, which costs
        // more than the LLVM calls themselves; mgpu frees its temporaries deterministically.
        if (System.getProperty("org.bytedeco.javacpp.maxPhysicalBytes") == null) {
            System.setProperty("org.bytedeco.javacpp.maxPhysicalBytes", "0");
        }
        if (System.getProperty("org.bytedeco.javacpp.maxBytes") == null) {
            System.setProperty("org.bytedeco.javacpp.maxBytes", "0");
        }
        org.bytedeco.javacpp.Loader.load(org.bytedeco.llvm.global.LLVM.class);
    }

    /**
     * Starts {@link #load()} on a daemon thread. A failure there is left for the next {@code load()} to
     * meet and report, on the thread that needs LLVM.
     */
    static void loadInBackground() {
        Thread t = new Thread(() -> {
            try {
                load();
            } catch (RuntimeException | LinkageError e) {
                // Reported by the foreground load().
            }
        }, "mgpu-llvm-load");
        t.setDaemon(true);
        t.start();
    }
}
