package dev.mgpu.codegen.internal.llvm;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The programs that the LLVM artifact carries beside its libraries ({@code llc}, {@code lld}), unpacked
 * into JavaCPP's cache and made ready to run.
 *
 * <p>They are linked against {@code libLLVM.so.<major>.<minor>}, but the artifact unpacks the library as
 * {@code libLLVM.so}: on a cache that nothing else has touched, they would not start ("error while loading
 * shared libraries"). So a link of the versioned name is made beside them once (or, where that directory
 * is read-only, in a temporary directory), and every run of one of them gets that directory as
 * {@code LD_LIBRARY_PATH}.
 */
public final class ArtifactTools {
    /** One unpacked program and the directory where its libLLVM is found under the versioned name. */
    public record Tool(Path path, Path libraryDirectory) {
        /**
         * A process builder for this program with {@code args}, able to find its library.
         *
         * @param args the arguments after the program's path
         * @return the builder, not started
         */
        public ProcessBuilder command(List<String> args) {
            List<String> cmd = new ArrayList<>(args.size() + 1);
            cmd.add(path.toString());
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().put("LD_LIBRARY_PATH", libraryDirectory.toString());
            return pb;
        }
    }

    private static final Map<String, Tool> TOOLS = new ConcurrentHashMap<>();

    private ArtifactTools() {
    }

    /**
     * The artifact's program {@code name} for this platform, unpacked, executable and able to start.
     *
     * @param name the program's name in the artifact, such as {@code lld}
     * @return the program
     * @throws IOException when the artifact has no such program or it cannot be made ready
     */
    public static Tool tool(String name) throws IOException {
        Tool t = TOOLS.get(name);
        if (t != null) {
            return t;
        }
        synchronized (TOOLS) {
            t = TOOLS.get(name);
            if (t == null) {
                t = unpack(name);
                TOOLS.put(name, t);
            }
            return t;
        }
    }

    private static Tool unpack(String name) throws IOException {
        String platform = org.bytedeco.javacpp.Loader.getPlatform();
        File f = org.bytedeco.javacpp.Loader.cacheResource(org.bytedeco.llvm.global.LLVM.class,
                "/org/bytedeco/llvm/" + platform + "/" + name);
        if (f == null) {
            throw new IOException("the LLVM artifact has no " + name + " for " + platform);
        }
        if (!f.canExecute() && !f.setExecutable(true)) {
            throw new IOException(f + " is not executable and cannot be made so");
        }
        return new Tool(f.toPath(), libraryDirectory(f.toPath()));
    }

    private static Path libraryDirectory(Path program) throws IOException {
        // Asking for the version loads the library first, which unpacks it into the cache: in a JVM that has
        // not loaded it yet, with a new cache, only the program would be there to find.
        int[] major = new int[1];
        int[] minor = new int[1];
        int[] patch = new int[1];
        org.bytedeco.llvm.global.LLVM.LLVMGetVersion(major, minor, patch);
        Path dir = program.getParent();
        Path lib = dir.resolve("libLLVM.so");
        if (!Files.exists(lib)) {
            throw new IOException("the LLVM artifact's library is not beside " + program + ": " + lib);
        }
        String versioned = "libLLVM.so." + major[0] + "." + minor[0];
        Path link = dir.resolve(versioned);
        if (Files.exists(link)) {
            return dir;
        }
        try {
            Files.createSymbolicLink(link, lib.getFileName());
            return dir;
        } catch (FileAlreadyExistsException e) {
            return dir;
        } catch (IOException | UnsupportedOperationException e) {
            Path tmp = Files.createTempDirectory("mgpu-llvm-lib");
            Files.createSymbolicLink(tmp.resolve(versioned), lib);
            // Deleted at exit in the reverse order of these calls: the link, then its directory.
            tmp.toFile().deleteOnExit();
            tmp.resolve(versioned).toFile().deleteOnExit();
            return tmp;
        }
    }
}
