package dev.mgpu.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * Whether an output can stay as it is: it exists, the command that made it is the one the build would run
 * now (its stamp, a file of the arguments, says so), and it is newer than every file that its dependency
 * file names (the input, {@code --embed} files).
 */
final class Freshness {
    private Freshness() {
    }

    /**
     * Why {@code output} must be made again, or null when it is up to date.
     *
     * @param output the file the compiler writes
     * @param depFile the dependency file the compiler wrote beside it
     * @param stamp the file that holds the command that made {@code output}
     * @param command the command the build would run now, as the stamp would hold it
     * @return a reason for the log, or null to skip the input
     * @throws IOException when a file that exists cannot be read
     */
    static String staleReason(Path output, Path depFile, Path stamp, String command) throws IOException {
        if (!Files.isRegularFile(output)) {
            return "no " + output.getFileName() + " yet";
        }
        if (!Files.isRegularFile(depFile) || !Files.isRegularFile(stamp)) {
            return "no record of how " + output.getFileName() + " was made";
        }
        if (!Files.readString(stamp, StandardCharsets.UTF_8).equals(command)) {
            return "the configuration changed";
        }
        FileTime made = Files.getLastModifiedTime(output);
        for (String p : DependencyFile.prerequisites(Files.readString(depFile, StandardCharsets.UTF_8))) {
            Path dep = Path.of(p);
            if (!Files.exists(dep)) {
                return p + " is gone";
            }
            if (Files.getLastModifiedTime(dep).compareTo(made) >= 0) {
                return p + " changed";
            }
        }
        return null;
    }
}
