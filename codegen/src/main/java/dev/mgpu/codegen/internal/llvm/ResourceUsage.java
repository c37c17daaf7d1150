package dev.mgpu.codegen.internal.llvm;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a kernel uses of its processor, read from what the back ends print: {@code ptxas -v}'s report, the
 * {@code .amdgpu_metadata} block of AMDGPU assembly, and the call-frame directives of host assembly. Each
 * reader gives, by kernel name, a line such as {@code 10 registers, 0 bytes stack, ...}.
 */
public final class ResourceUsage {
    private ResourceUsage() {
    }

    private static final Pattern PTXAS_ENTRY = Pattern.compile("Compiling entry function '([^']+)'");
    private static final Pattern PTXAS_FRAME = Pattern.compile(
            "(\\d+) bytes stack frame, (\\d+) bytes spill stores, (\\d+) bytes spill loads");
    private static final Pattern PTXAS_USED = Pattern.compile("Used (\\d+) registers(.*)");
    private static final Pattern PTXAS_SMEM = Pattern.compile("(\\d+) bytes smem");

    /**
     * The entry functions of {@code ptxas -v}'s report: registers, stack, spills, static shared memory, and
     * the most threads a block may have with that many registers (65,536 registers per block, given to warps
     * of 32 threads in units of 256).
     *
     * @param report what ptxas printed
     * @return a line per kernel, by name, in the report's order
     */
    public static Map<String, String> ptxas(String report) {
        Map<String, String> out = new LinkedHashMap<>();
        String kernel = null;
        String frame = "0 bytes stack, 0 bytes spill stores, 0 bytes spill loads";
        for (String line : report.split("\n")) {
            Matcher m = PTXAS_ENTRY.matcher(line);
            if (m.find()) {
                kernel = m.group(1);
                continue;
            }
            m = PTXAS_FRAME.matcher(line);
            if (m.find()) {
                frame = m.group(1) + " bytes stack, " + m.group(2) + " bytes spill stores, " + m.group(3)
                        + " bytes spill loads";
                continue;
            }
            m = PTXAS_USED.matcher(line);
            if (m.find() && kernel != null) {
                int registers = Integer.parseInt(m.group(1));
                Matcher s = PTXAS_SMEM.matcher(m.group(2));
                long shared = s.find() ? Long.parseLong(s.group(1)) : 0;
                out.put(kernel, registers + " registers, " + frame + ", " + shared + " bytes shared, max "
                        + threadsByRegisters(registers) + " threads per block");
                kernel = null;
            }
        }
        return out;
    }

    /** The most threads of a block whose threads use {@code registers} each: at most 1024. */
    static int threadsByRegisters(int registers) {
        if (registers <= 0) {
            return 1024;
        }
        int perWarp = (registers * 32 + 255) / 256 * 256;
        return Math.min(1024, 65536 / perWarp * 32);
    }

    /**
     * The kernels of the {@code .amdgpu_metadata} block of AMDGPU assembly: vector, accumulation and scalar
     * registers, their spills, scratch and LDS bytes, and the most threads of a block.
     *
     * @param assembly the assembly text
     * @return a line per kernel, by name, in the metadata's order
     */
    public static Map<String, String> amdgpu(String assembly) {
        Map<String, String> out = new LinkedHashMap<>();
        int at = assembly.indexOf(".amdgpu_metadata");
        if (at < 0) {
            return out;
        }
        Map<String, String> keys = new LinkedHashMap<>();
        for (String line : assembly.substring(at).split("\n")) {
            if (line.startsWith(".end_amdgpu_metadata")) {
                break;
            }
            // A kernel's keys are indented by four ("  - .key:" starts one); its arguments' are deeper.
            String key = line.startsWith("  - .") ? line.substring(4) : line.startsWith("    .") ? line.substring(4)
                    : null;
            if (line.startsWith("  - .")) {
                amdgpuKernel(keys, out);
                keys.clear();
            }
            if (key != null && key.indexOf(':') > 0) {
                keys.put(key.substring(0, key.indexOf(':')).strip(), key.substring(key.indexOf(':') + 1).strip());
            }
        }
        amdgpuKernel(keys, out);
        return out;
    }

    private static void amdgpuKernel(Map<String, String> k, Map<String, String> out) {
        String name = k.get(".name");
        if (name == null || !k.containsKey(".vgpr_count")) {
            return;
        }
        out.put(name, k.get(".vgpr_count") + " VGPRs, " + k.getOrDefault(".agpr_count", "0") + " AGPRs, "
                + k.getOrDefault(".sgpr_count", "0") + " SGPRs, " + k.getOrDefault(".vgpr_spill_count", "0")
                + " VGPR spills, " + k.getOrDefault(".sgpr_spill_count", "0") + " SGPR spills, "
                + k.getOrDefault(".private_segment_fixed_size", "0") + " bytes scratch, "
                + k.getOrDefault(".group_segment_fixed_size", "0") + " bytes shared, max "
                + k.getOrDefault(".max_flat_workgroup_size", "1024") + " threads per block");
    }

    private static final Pattern X86_PUSH = Pattern.compile("^push[q]?\\s+%");
    private static final Pattern X86_SUB = Pattern.compile("^sub[q]?\\s+\\$(\\d+),\\s*%rsp");
    private static final Pattern ARM_PAIR = Pattern.compile("^stp\\s+.*\\[sp,\\s*#-(\\d+)\\]!");
    private static final Pattern ARM_SUB = Pattern.compile("^sub\\s+sp,\\s*sp,\\s*#(\\d+)");

    /**
     * The stack frame of each function of host assembly (x86-64 or AArch64) that {@code wanted} names: the
     * registers its prologue saves and what it subtracts from the stack pointer (kernels have no unwind
     * tables to read it from), the return address not counted.
     *
     * @param assembly the assembly text
     * @param wanted whether a function's symbol is one to report
     * @return the frame bytes by function symbol, in the assembly's order
     */
    public static Map<String, Long> hostFrames(String assembly, java.util.function.Predicate<String> wanted) {
        Map<String, Long> out = new LinkedHashMap<>();
        String fn = null;
        long frame = 0;
        for (String raw : assembly.split("\n")) {
            String line = raw.strip();
            boolean label = !raw.startsWith("\t") && !raw.startsWith(" ") && line.endsWith(":");
            if (label && !line.startsWith(".")) {
                String name = line.substring(0, line.length() - 1).replace("\"", "");
                fn = wanted.test(name) ? name : null;
                frame = 0;
                if (fn != null) {
                    out.put(fn, 0L);
                }
                continue;
            }
            if (fn == null) {
                continue;
            }
            Matcher m;
            if (X86_PUSH.matcher(line).find()) {
                frame += 8;
            } else if ((m = X86_SUB.matcher(line)).find() || (m = ARM_PAIR.matcher(line)).find()
                    || (m = ARM_SUB.matcher(line)).find()) {
                frame += Long.parseLong(m.group(1));
            } else if (line.startsWith(".Lfunc_end") || line.startsWith(".size")) {
                fn = null;
                continue;
            }
            out.put(fn, Math.max(out.get(fn), frame));
        }
        return out;
    }
}
