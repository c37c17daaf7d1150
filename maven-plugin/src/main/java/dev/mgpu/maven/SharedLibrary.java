package dev.mgpu.maven;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The link of a shared library from an object that {@code gpu-translate --emit=obj} made (position
 * independent, as every object of it is) and libmgpu, through the system C compiler ({@code CC}, else
 * {@code cc}), as the CLI links an executable: the runtime found again at run time through an rpath, and
 * the runner utilities beside it linked when the program calls them.
 */
final class SharedLibrary {
    private SharedLibrary() {
    }

    /**
     * The command that links {@code object} into {@code library}.
     *
     * @param cc the C compiler
     * @param object the object of the translation
     * @param library the shared library to write
     * @param runtime the directory of {@code libmgpu.so}
     * @param linkArguments more arguments for the link, after the object: {@code -lNAME}, {@code -LDIR}, objects
     * @return the command line, the compiler first
     */
    static List<String> command(String cc, Path object, Path library, Path runtime, List<String> linkArguments) {
        List<String> c = new ArrayList<>(List.of(cc, "-shared", "-o", library.toString(), object.toString()));
        c.addAll(linkArguments);
        c.add("-L" + runtime);
        c.add("-Wl,-rpath," + runtime);
        if (Files.exists(runtime.resolve("libmgpu_runner_utils.so"))) {
            c.addAll(List.of("-Wl,--push-state,--as-needed", "-lmgpu_runner_utils", "-Wl,--pop-state"));
        }
        c.addAll(List.of("-lmgpu", "-ldl", "-lpthread", "-lm"));
        return c;
    }

    /**
     * The name of the library that a source's relative path gives: {@code dir/k.mlir} gives
     * {@code dir/libk.so}.
     *
     * @param input the source, relative to the source directory
     * @param extension what replaces {@code .mlir}: {@code .so}, or {@code .o} for the object of the link
     * @return the output's path, relative to the output directory
     */
    static String name(String input, String extension) {
        int slash = input.lastIndexOf('/');
        return input.substring(0, slash + 1) + "lib" + input.substring(slash + 1).replaceFirst("\\.mlir$", "")
                + extension;
    }
}
