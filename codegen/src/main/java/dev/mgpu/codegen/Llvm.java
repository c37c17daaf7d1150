package dev.mgpu.codegen;

/** Loads the native LLVM library once. */
final class Llvm {
    private Llvm() {
    }

    /** Whether {@link #load()} has finished once: every later call returns at once. */
    private static volatile boolean loaded;

    static void load() {
        if (!loaded) {
            loadOnce();
        }
    }

    private static synchronized void loadOnce() {
        if (loaded) {
            return;
        }
        // JavaCPP otherwise samples the process's resident size on every native allocation, which costs
        // more than the LLVM calls themselves; mgpu frees its temporaries deterministically.
        if (System.getProperty("org.bytedeco.javacpp.maxPhysicalBytes") == null) {
            System.setProperty("org.bytedeco.javacpp.maxPhysicalBytes", "0");
        }
        if (System.getProperty("org.bytedeco.javacpp.maxBytes") == null) {
            System.setProperty("org.bytedeco.javacpp.maxBytes", "0");
        }
        if (!loadedDirectly()) {
            org.bytedeco.javacpp.Loader.load(org.bytedeco.llvm.global.LLVM.class);
        }
        loaded = true;
    }

    /** The libraries JavaCPP loads for LLVM, in its order, each in the cache directory of the jar it is in. */
    private static final String[][] LIBRARIES = {{"javacpp", "libjnijavacpp.so"}, {"llvm", "libLLVM.so"},
        {"llvm", "libRemarks.so"}, {"llvm", "libLTO.so"}, {"llvm", "libjniLLVM.so"}};

    /**
     * In the tools' own JVM ({@code -Dmgpu.llvm.direct=true}, which the launcher gives), loads the libraries
     * from JavaCPP's cache with {@code System.load} when each file there is the size of its entry in the jar,
     * and turns JavaCPP's own loading off for this JVM: JavaCPP's search of the class path and its checks
     * took 30-50 ms of the 100-120 that loading LLVM took, which a small kernel's run waits for. Where the
     * cache is not complete (a first run) JavaCPP loads, and unpacks, as usual.
     *
     * @return whether the libraries were loaded so
     */
    private static boolean loadedDirectly() {
        if (!Boolean.getBoolean("mgpu.llvm.direct")) {
            return false;
        }
        String platform = "linux-x86_64";
        if (!"Linux".equals(System.getProperty("os.name")) || !"amd64".equals(System.getProperty("os.arch"))) {
            return false;
        }
        java.util.List<java.nio.file.Path> files = new java.util.ArrayList<>();
        String cache = System.getProperty("org.bytedeco.javacpp.cachedir",
                System.getProperty("user.home") + "/.javacpp/cache");
        try {
            for (String[] lib : LIBRARIES) {
                String entry = "org/bytedeco/" + lib[0] + "/" + platform + "/" + lib[1];
                java.net.URL url = Llvm.class.getClassLoader().getResource(entry);
                if (url == null || !"jar".equals(url.getProtocol())) {
                    return false;
                }
                java.net.JarURLConnection c = (java.net.JarURLConnection) url.openConnection();
                String jar = java.nio.file.Path.of(c.getJarFileURL().toURI()).getFileName().toString();
                java.nio.file.Path file = java.nio.file.Path.of(cache, jar, entry);
                if (!java.nio.file.Files.isRegularFile(file) || java.nio.file.Files.size(file) != c.getJarEntry().getSize()) {
                    return false;
                }
                files.add(file);
            }
        } catch (java.io.IOException | java.net.URISyntaxException | RuntimeException e) {
            return false;
        }
        // Under JavaCPP's lock, taken before the JVM's own as JavaCPP takes them: JavaCPP's library calls back
        // into Loader while the JVM loads it, and a thread that initialises a class of LLVM's meanwhile loads
        // through JavaCPP, which holds that lock and then waits for the JVM's (a deadlock, seen otherwise).
        // The checks above come first for a second reason: the JDK classes that load a library of the JDK's
        // own as they are initialised (the module image's reader, behind getResource; the file system's
        // natives, behind Files) are initialised by then. System.load holds the JVM's one lock of native
        // libraries while JavaCPP's library calls back, and that callback reads resources: a thread that began
        // initialising the image reader meanwhile would wait for that lock, and the callback for it (a
        // deadlock seen when the sizes were read with ZipFile instead of getResource).
        try {
            synchronized (org.bytedeco.javacpp.Loader.class) {
                for (java.nio.file.Path f : files) {
                    System.load(f.toString());
                }
            }
        } catch (UnsatisfiedLinkError e) {
            // Loaded as far as it went; JavaCPP loads the rest, and reports what fails.
            return false;
        }
        // Only now: a class of LLVM's that another thread initialises meanwhile has JavaCPP load (it waits for
        // the libraries or loads them again, which the JVM makes a no-op); one initialised after this finds
        // its natives loaded and does not search again. Turned off before the loads, the first library took
        // 13-15 ms instead of 33-60 (its callback's Loader.load() reads JavaCPP's annotations, makes proxies of
        // them and searches again), but not every use of LLVM waits for load() (the host's triple does not),
        // and one that came first then failed with UnsatisfiedLinkError instead of waiting.
        System.setProperty("org.bytedeco.javacpp.loadLibraries", "false");
        return true;
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
