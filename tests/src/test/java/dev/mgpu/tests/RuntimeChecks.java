package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.function.Executable;

/**
 * The faults libmgpu must report by name instead of crashing, clamping or dropping work, driven by
 * {@code tests/e2e/runtime/runtime_main.c} on the CPU backend and on the CUDA and HIP stand-ins, and what each
 * run must print: the program's results on stdout, the runtime's reports on stderr, both compared exactly.
 * One instance checks one build of libmgpu (the ordinary one, or one built with sanitizers).
 */
final class RuntimeChecks {
    private static final Path ROOT = TestPaths.root();
    private static final Path SOURCES = ROOT.resolve("tests/e2e/runtime");
    private static final String COUNT_6 = "grid 2,1,1 block 3,1,1 smem 0: 6 threads ran";
    private static final Path STREAMS = ROOT.resolve("tests/e2e/streams");
    /** What tests/e2e/streams/concurrency_main.c prints when the CPU backend's streams behave as a GPU's. */
    private static final List<String> STREAMS_OUT = List.of(
            "a kernel on A waited for a kernel on B: done 1",
            "the launch returned first: yes; after the synchronisation done 1",
            "in order: nothing ran behind the held kernel: yes; 256 of 256 elements are 7 + 1 + 2 + ... + 50 = 1282",
            "B waited for A's event: yes; B saw A's result 1",
            "an early event is complete while the stream is held: yes; a later one waits: done 1",
            "the NULL stream waited for the event: done 1",
            "destroying a stream drained it: done 1",
            "a kernel of a module unloaded after its launch ran: done 1",
            "a kernel without parameter sizes ran before its launch returned: data[63] = 42",
            "a launch of 3 parameters to a kernel of 2 ran before it returned: data[63] = 83",
            "8 streams side by side: 1024 of 1024 elements right");

    private final Path dir;
    private final Path lib;
    private final List<String> cflags;
    private final Map<String, String> env;
    private final Path exe;
    private final Path kernels;
    private final Path namedKernels;
    private final Path cuda;
    private final Path hip;

    /**
     * Builds the program in {@code dir} against the libmgpu in {@code lib}, compiling and linking with
     * {@code cflags}; every run gets {@code env}.
     */
    RuntimeChecks(Path dir, Path lib, List<String> cflags, Map<String, String> env) throws Exception {
        this.dir = Files.createDirectories(dir);
        this.lib = lib;
        this.cflags = cflags;
        this.env = env;
        this.exe = link("runtime_main", SOURCES.resolve("runtime_main.c"));
        this.kernels = Native.cpuKernels(dir, "count", SOURCES.resolve("count_cpu.c"));
        this.namedKernels = dir.resolve("count_named.so");
        Native.exec(dir, Map.of(), "cc", "-shared", "-fPIC", "-O2", "-Wl,-soname,runtime_kernels.so",
                "-I" + Native.include(), SOURCES.resolve("count_cpu.c").toString(), "-o", namedKernels.toString());
        this.cuda = standIn(dir, "cuda", "libcuda.so.1", "fake_libcuda.c");
        boolean hipHeaders = Files.exists(Path.of("/usr/include/hip/hip_runtime_api.h"))
                || Files.exists(Path.of("/opt/rocm/include/hip/hip_runtime_api.h"));
        this.hip = hipHeaders ? standIn(dir, "hip", "libamdhip64.so", "fake_libamdhip64.c") : null;
    }

    /** Links C {@code sources} (and objects) with this build of libmgpu. */
    Path link(String name, Path... sources) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g"));
        cmd.addAll(cflags);
        cmd.add("-I" + Native.include());
        for (Path s : sources) {
            cmd.add(s.toString());
        }
        Path out = dir.resolve(name);
        cmd.addAll(List.of("-L" + lib, "-Wl,-rpath," + lib, "-lmgpu", "-lm", "-o", out.toString()));
        Native.exec(dir, Map.of(), cmd.toArray(String[]::new));
        return out;
    }

    private static Path standIn(Path dir, String name, String soname, String source) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Native.exec(dir, Map.of(), "cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                "-I" + Native.include(), "-I/opt/rocm/include", "-Wl,-soname," + soname,
                ROOT.resolve("tests/e2e/fakedriver").resolve(source).toString(), "-o", d.resolve(soname).toString(),
                "-ldl", "-lpthread");
        return d;
    }

    /** Every check, by name, for running them all on one build. */
    Map<String, Executable> all() {
        Map<String, Executable> m = new LinkedHashMap<>();
        m.put("device queries are checked", this::deviceQueriesAreChecked);
        m.put("one device limit", this::oneDeviceLimit);
        m.put("out-of-range devices are refused", this::outOfRangeDevicesAreRefused);
        m.put("function slots grow", this::functionSlotsGrow);
        m.put("sizes are checked", this::sizesAreChecked);
        m.put("launches are checked", this::launchesAreChecked);
        m.put("foreign and cut-off objects are refused", this::foreignObjectsAreRefused);
        m.put("missing kernels are named", this::missingKernelsAreNamed);
        m.put("failures end the program", this::failuresEndTheProgram);
        m.put("bad frees are reported", this::badFreesAreReported);
        m.put("device memrefs of host memory", this::deviceMemRefsOfHostMemory);
        m.put("tensor maps", this::tensorMaps);
        m.put("CPU streams run side by side", this::cpuStreamsRunSideBySide);
        return m;
    }

    // ------------------------------------------------------------------ running the program

    private Native.Result run(Map<String, String> extra, String... args) throws Exception {
        Native.Result r = runAny(extra, args);
        assertEquals(0, r.exit(), String.join(" ", args) + ":\n" + r.out() + r.err());
        return r;
    }

    /**
     * The program with {@code args}, whatever its exit status. These checks mean to go on after a failure, so
     * each run sets MGPU_ON_ERROR=continue unless {@code extra} sets it otherwise.
     */
    private Native.Result runAny(Map<String, String> extra, String... args) throws Exception {
        Map<String, String> e = new HashMap<>(env);
        e.put("MGPU_ON_ERROR", "continue");
        e.put("RT_KERNELS", kernels.toString());
        e.put("FAKE_KERNELS", kernels.toString());
        e.putAll(extra);
        // A launch that is not refused may run practically forever: end it instead of the test run.
        List<String> cmd = new ArrayList<>(List.of("timeout", "60", exe.toString()));
        cmd.addAll(List.of(args));
        return Native.run(dir, e, cmd);
    }

    private Native.Result onCpu(String... args) throws Exception {
        return run(Map.of("MGPU_BACKEND", "cpu"), args);
    }

    /** On the CUDA stand-in with devices of these compute capabilities, and FAKE_FAIL as given ("" for none). */
    private Native.Result onCuda(String ccs, String fail, String... args) throws Exception {
        return run(Map.of("MGPU_BACKEND", "cuda", "LD_LIBRARY_PATH", cuda.toString(), "FAKE_CUDA_CC", ccs,
                "FAKE_FAIL", fail), args);
    }

    private Native.Result onHip(String fail, String... args) throws Exception {
        Assumptions.assumeTrue(hip != null, "requires the HIP headers");
        return run(Map.of("MGPU_BACKEND", "hip", "LD_LIBRARY_PATH", hip.toString(), "FAKE_FAIL", fail), args);
    }

    /** The runtime's reports, in order. */
    private static List<String> reports(Native.Result r) {
        return r.err().lines().filter(l -> l.startsWith("mgpu:")).toList();
    }

    /** The stand-in's trace lines that start with {@code call}, without the stand-in's prefix. */
    private static List<String> traced(Native.Result r, String call) {
        return r.err().lines().filter(l -> l.startsWith("fake-"))
                .map(l -> l.substring(l.indexOf(": ") + 2)).filter(l -> l.startsWith(call)).toList();
    }

    private static List<String> lines(String... lines) {
        return List.of(lines);
    }

    private static void check(Native.Result r, List<String> out, List<String> reports) {
        assertEquals(String.join("\n", out), r.out().strip(), r.err());
        assertEquals(reports, reports(r), r.err());
    }

    // ------------------------------------------------------------------ the checks

    /**
     * A device query that fails is reported under the query's name, and run-time selection then chooses
     * nothing instead of choosing from zeroed answers (which aborted with "no object fits ... sm_00").
     */
    void deviceQueriesAreChecked() throws Exception {
        check(onCuda("90", "", "select"), lines("select: kernel found", COUNT_6, "plain load: " + COUNT_6), lines());
        List<String> none = lines("select: no kernel", "plain load: " + COUNT_6);
        String chosen = "failed: device 0 could not be queried, so no object of binary 'runtime' is chosen";
        for (String query : List.of("cuDeviceGetAttribute", "cuDeviceGetName")) {
            check(onCuda("90", query, "select"), none, lines(
                    "mgpu: cuda: mgpuModuleGetFunctionSelect: " + query + " failed: CUDA_ERROR_INVALID_VALUE (1)",
                    "mgpu: cuda: mgpuModuleGetFunctionSelect " + chosen));
        }
        check(onHip("hipGetDeviceProperties", "select"), none, lines(
                "mgpu: hip: mgpuModuleGetFunctionSelect: hipGetDeviceProperties failed: hipErrorInvalidValue (1)",
                "mgpu: hip: mgpuModuleGetFunctionSelect " + chosen));
    }

    /** MGPU_MAX_DEVICES is public, and a driver with more devices gets the ones below it, and an error past it. */
    void oneDeviceLimit() throws Exception {
        String seventy = IntStream.range(0, 70).mapToObj(i -> "90").collect(Collectors.joining(","));
        Native.Result r = onCuda(seventy, "", "max-devices");
        check(r, lines("MGPU_MAX_DEVICES = 64", COUNT_6), lines("mgpu: cuda: mgpuSetDefaultDevice failed: device 64 is"
                + " beyond the 64 devices libmgpu supports (the cuda backend has 70); the default device stays 0"));
        assertEquals(lines("cuModuleLoadData: cubin sm_90, kernels count on device 63"),
                traced(r, "cuModuleLoadData"));
    }

    /** A device that does not exist is refused by name; the default device stays, and work runs there. */
    void outOfRangeDevicesAreRefused() throws Exception {
        String stays = "; the default device stays ";
        String cpu = "mgpu: cpu: mgpuSetDefaultDevice failed: device %s does not exist (the cpu backend has 1 device)"
                + stays + "0";
        check(onCpu("devices", "1"), lines(COUNT_6),
                lines(String.format(cpu, "1000"), String.format(cpu, "-1"), String.format(cpu, "1")));
        String cuda = "mgpu: cuda: mgpuSetDefaultDevice failed: device %s does not exist (the cuda backend has 2"
                + " devices)" + stays + "%s";
        Native.Result r = onCuda("90,90", "", "devices", "2");
        check(r, lines(COUNT_6), lines(String.format(cuda, "1000", "0"), String.format(cuda, "-1", "0"),
                String.format(cuda, "2", "0"), String.format(cuda, "1000", "1")));
        // Work goes to device 1, the last device set, not to a device clamped to 0.
        assertEquals(lines("cuModuleLoadData: cubin sm_90, kernels count on device 1"), traced(r, "cuModuleLoadData"));
        String hip = "mgpu: hip: mgpuSetDefaultDevice failed: device %s does not exist (the hip backend has 1 device)"
                + stays + "0";
        check(onHip("", "devices", "1"), lines(COUNT_6),
                lines(String.format(hip, "1000"), String.format(hip, "-1"), String.format(hip, "1")));
    }

    /** 5,000 function slots (more than the 4,096 the table once held): a device change clears every one. */
    void functionSlotsGrow() throws Exception {
        Native.Result r = onCuda("90,90", "", "slots");
        check(r, lines("device 0: 5000 of 5000 slots set", "after the move to device 1: 0 slots still set",
                "device 1: 5000 slots hold a new handle", COUNT_6), lines());
        assertEquals(lines("cuModuleLoadData: cubin sm_90, kernels count",
                "cuModuleLoadData: cubin sm_90, kernels count on device 1"), traced(r, "cuModuleLoadData"));
        assertEquals(lines("summary: 2 loads, 0 JIT loads, 10000 function lookups, 1 launches, 1 stream syncs,"
                + " 1 streams created, 0 destroyed, 0 allocations live"), traced(r, "summary"));
    }

    /** Sizes that overflow the runtime's arithmetic, or that no machine has, are refused by name. */
    void sizesAreChecked() throws Exception {
        List<String> out = lines("UINT64_MAX - 10 bytes: NULL", "2^62 bytes: NULL", "100 bytes: a block",
                "memrefs done");
        String memref = "mgpuMemHostRegisterMemRef failed: the memref's extent (sizes x strides: 9223372036854775807"
                + " x 2; offset 0, 4-byte elements) does not fit 64 bits";
        check(onCpu("alloc"), out, lines(
                "mgpu: cpu: mgpuMemAlloc failed: 18446744073709551605 bytes overflow when rounded up to 64-byte"
                        + " alignment",
                "mgpu: cpu: mgpuMemAlloc: aligned_alloc failed: Cannot allocate memory (4611686018427387904 bytes)",
                "mgpu: cpu: " + memref));
        String cudaOom = "mgpu: cuda: mgpuMemAlloc: cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2)";
        Native.Result cuda = onCuda("90", "", "alloc");
        check(cuda, out, lines(cudaOom, cudaOom, "mgpu: cuda: " + memref));
        // The well-formed memref registers exactly its 64 floats.
        assertEquals(lines("cuMemHostRegister: 256 bytes, flags 0"), traced(cuda, "cuMemHostRegister"));
        String hipOom = "mgpu: hip: mgpuMemAlloc: hipMalloc failed: hipErrorOutOfMemory (2)";
        check(onHip("", "alloc"), out, lines(hipOom, hipOom, "mgpu: hip: " + memref));
    }

    /**
     * Launches whose sizes are below 1, overflow, or exceed the device's limits (on the CPU,
     * MGPU_CPU_MAX_THREADS_PER_BLOCK) run nothing and say why; one at the CPU's limit runs every thread.
     */
    void launchesAreChecked() throws Exception {
        List<String> refused = lines("grid 0,1,1 block 1,1,1 smem 0: 0 threads ran",
                "grid 1,1,1 block 1,-2,1 smem 0: 0 threads ran",
                "grid 4294967296,4294967296,4294967296 block 1,1,1 smem 0: 0 threads ran",
                "grid 1,1,1 block 1099511627776,1,1 smem 0: 0 threads ran",
                "grid 1,1,1 block 1,1,1 smem -1: 0 threads ran");
        List<String> cpuOut = new ArrayList<>(refused);
        cpuOut.addAll(lines("grid 1,1,1 block 1048577,1,1 smem 0: 0 threads ran",
                "grid 2,1,1 block 1024,1024,1 smem 64: 2097152 threads ran", "cluster launch of grid 0,1,1: 0 threads"
                        + " ran", COUNT_6));
        String limit = " threads, more than the %s a block may have on device 0 (%s)";
        check(onCpu("launches"), cpuOut, lines(
                "mgpu: cpu: mgpuLaunchKernel failed: grid 0,1,1 has a size below 1",
                "mgpu: cpu: mgpuLaunchKernel failed: block 1,-2,1 has a size below 1",
                "mgpu: cpu: mgpuLaunchKernel failed: grid 4294967296,4294967296,4294967296 has more blocks than 64"
                        + " bits count",
                "mgpu: cpu: mgpuLaunchKernel failed: block 1099511627776,1,1 has 1099511627776"
                        + String.format(limit, "1048576", "host CPU"),
                "mgpu: cpu: mgpuLaunchKernel failed: dynamic shared memory of -1 bytes",
                "mgpu: cpu: mgpuLaunchKernel failed: block 1048577,1,1 has 1048577"
                        + String.format(limit, "1048576", "host CPU"),
                "mgpu: cpu: mgpuLaunchClusterKernel failed: grid 0,1,1 has a size below 1"));
        for (String backend : List.of("cuda", "hip")) {
            boolean isCuda = backend.equals("cuda");
            String device = isCuda ? "Fake CUDA device sm_90" : "Fake HIP device gfx90a";
            List<String> out = new ArrayList<>(refused);
            out.addAll(lines("grid 4294967297,1,1 block 1,1,1 smem 0: 0 threads ran",
                    "grid 2147483648,1,1 block 1,1,1 smem 0: 0 threads ran",
                    "grid 1,1,1 block 2048,1,1 smem 0: 0 threads ran",
                    // HIP devices take 1,024 threads in z; CUDA devices 64.
                    "grid 1,1,1 block 1,1,128 smem 0: " + (isCuda ? 0 : 128) + " threads ran",
                    "cluster launch of grid 0,1,1: 0 threads ran", COUNT_6));
            String p = "mgpu: " + backend + ": mgpuLaunchKernel failed: ";
            String takes = ": the " + backend + " launch call takes sizes up to 4294967295";
            List<String> reports = new ArrayList<>(lines(p + "grid 0,1,1 has a size below 1",
                    p + "block 1,-2,1 has a size below 1",
                    p + "grid 4294967296,4294967296,4294967296 has more blocks than 64 bits count",
                    p + "grid 1,1,1 block 1099511627776,1,1" + takes,
                    p + "dynamic shared memory of -1 bytes",
                    p + "grid 4294967297,1,1 block 1,1,1" + takes,
                    p + "grid 2147483648,1,1 exceeds the largest grid of device 0 (" + device + "), 2147483647,"
                            + (isCuda ? "65535,65535" : "65536,65536"),
                    p + "block 2048,1,1 has 2048" + String.format(limit, "1024", device)));
            if (isCuda) {
                reports.add(p + "block 1,1,128 exceeds the largest block of device 0 (" + device + "), 1024,1024,64");
            }
            reports.add("mgpu: " + backend + ": mgpuLaunchClusterKernel failed: grid 0,1,1 has a size below 1");
            check(isCuda ? onCuda("90", "", "launches") : onHip("", "launches"), out, reports);
        }
    }

    /**
     * CPU objects that are not ELF shared objects for this host, or that are cut short, are refused before
     * dlopen, which crashed with SIGBUS on a cut-off one.
     */
    void foreignObjectsAreRefused() throws Exception {
        byte[] so = Files.readAllBytes(kernels);
        boolean x86 = System.getProperty("os.arch").equals("amd64") || System.getProperty("os.arch").equals("x86_64");
        String p = "mgpu: cpu: mgpuModuleLoad failed: the CPU object ";
        check(onCpu("elf", kernels.toString()), lines("not ELF: refused", "20 bytes: refused", "32-bit: refused",
                "big-endian: refused", "relocatable: refused", "another machine: refused", "100 bytes: refused",
                "half: refused", "whole: loaded, count found"), lines(
                p + "(5 bytes) is not an ELF file",
                p + "is cut short: 20 bytes, less than its 64-byte ELF header",
                p + "is a 32-bit ELF file; this host loads 64-bit ones",
                p + "is big-endian; this host is little-endian",
                p + "is not a shared object (ELF type 1, not 3)",
                p + (x86 ? "is for AArch64 (ELF machine 183); this host is x86-64 (ELF machine 62)"
                        : "is for x86-64 (ELF machine 62); this host is AArch64 (ELF machine 183)"),
                p + "is cut short: " + cutShort(so, 100),
                p + "is cut short: " + cutShort(so, so.length / 2)));
    }

    /** What the runtime must say of the first {@code cut} bytes of a 64-bit little-endian shared object. */
    private static String cutShort(byte[] so, int cut) {
        ByteBuffer b = ByteBuffer.wrap(so).order(ByteOrder.LITTLE_ENDIAN);
        long phoff = b.getLong(32);
        int phnum = b.getShort(56) & 0xffff;
        String past = ", past its " + cut + " bytes";
        if (phoff + 56L * phnum > cut) {
            return "its program headers end at byte " + (phoff + 56L * phnum) + past;
        }
        for (int i = 0; i < phnum; i++) {
            long end = b.getLong((int) phoff + 56 * i + 8) + b.getLong((int) phoff + 56 * i + 32);
            if (end > cut) {
                return "its segment " + i + " ends at byte " + end + past;
            }
        }
        return "its section headers end at byte " + (b.getLong(40) + 64L * (b.getShort(60) & 0xffff)) + past;
    }

    /**
     * By default (MGPU_ON_ERROR unset, or abort) a module that does not load, a kernel that is not found or a
     * launch that fails ends the program, naming the call, the kernel, its module and the cause, instead of
     * letting it go on with what the kernel did not compute.
     */
    void failuresEndTheProgram() throws Exception {
        Native.Result missing = runAny(Map.of("MGPU_BACKEND", "cpu", "MGPU_ON_ERROR", ""), "missing-kernel",
                kernels.toString(), namedKernels.toString());
        assertEquals(134, missing.exit(), missing.err());
        assertEquals("", missing.out().strip());
        List<String> r = reports(missing);
        assertEquals(2, r.size(), missing.err());
        String dlsym = "dlsym failed: the CPU object of " + Files.size(kernels) + " bytes has no kernel 'nosuch'";
        assertEquals("mgpu: cpu: mgpuModuleGetFunction: " + dlsym, r.get(0));
        assertTrue(r.get(1).matches("mgpu: cpu: mgpuModuleGetFunction: kernel 'nosuch' of the module at 0x[0-9a-f]+"
                + " was not found: " + java.util.regex.Pattern.quote(dlsym)
                + "; aborting \\(MGPU_ON_ERROR=continue reports and goes on\\)"), r.get(1));

        Native.Result launch = runAny(Map.of("MGPU_BACKEND", "cpu", "MGPU_ON_ERROR", "abort"), "launches");
        assertEquals(134, launch.exit(), launch.err());
        assertEquals(lines("mgpu: cpu: mgpuLaunchKernel failed: grid 0,1,1 has a size below 1",
                "mgpu: cpu: mgpuLaunchKernel: kernel 'count' of the module at " + launchModule(launch)
                        + " was not launched: grid 0,1,1 has a size below 1; aborting (MGPU_ON_ERROR=continue reports"
                        + " and goes on)"), reports(launch));

        Native.Result bad = runAny(Map.of("MGPU_BACKEND", "cpu", "MGPU_ON_ERROR", "sometimes"), "launches");
        assertEquals(134, bad.exit(), bad.err());
        assertEquals(lines("mgpu: invalid MGPU_ON_ERROR (must be abort or continue): sometimes"), reports(bad));
    }

    /** The module address that the abort of {@code r} names. */
    private static String launchModule(Native.Result r) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("of the module at (0x[0-9a-f]+) ").matcher(r.err());
        return m.find() ? m.group(1) : "(none named)";
    }

    /** A kernel that is not there is named, with the object: by its soname where it has one, else its size. */
    void missingKernelsAreNamed() throws Exception {
        check(onCpu("missing-kernel", kernels.toString(), namedKernels.toString()), lines("not found", "not found"),
                lines("mgpu: cpu: mgpuModuleGetFunction: dlsym failed: the CPU object of " + Files.size(kernels)
                                + " bytes has no kernel 'nosuch'",
                        "mgpu: cpu: mgpuModuleGetFunctionLazy: dlsym failed: the CPU object runtime_kernels.so ("
                                + Files.size(namedKernels) + " bytes) has no kernel 'nosuch'"));
    }

    /**
     * A double, foreign or interior mgpuMemFree is reported by name and the program goes on (on the CPU it
     * ended in glibc's abort); on CUDA and HIP the stand-ins answer as the drivers do.
     */
    void badFreesAreReported() throws Exception {
        Native.Result cpu = onCpu("bad-frees");
        Map<String, String> pointers = cpu.out().lines().filter(l -> l.contains(": 0x"))
                .collect(Collectors.toMap(l -> l.substring(0, l.indexOf(':')), l -> l.substring(l.indexOf(": ") + 2)));
        assertEquals(List.of("double", "foreign", "interior"), pointers.keySet().stream().sorted().toList(), cpu.out());
        assertEquals("after the bad frees: still running", cpu.out().strip().lines().reduce((a, b) -> b).orElse(""));
        String owned = " is not memory that mgpuMemAlloc returned, or it was freed already";
        assertEquals(lines("mgpu: cpu: mgpuMemFree failed: " + pointers.get("double") + owned,
                "mgpu: cpu: mgpuMemFree failed: " + pointers.get("foreign") + owned,
                "mgpu: cpu: mgpuMemFree failed: " + pointers.get("interior") + owned), reports(cpu));
        String cudaError = "mgpu: cuda: mgpuMemFree: cuMemFree failed: CUDA_ERROR_INVALID_VALUE (1)";
        Native.Result cuda = onCuda("90", "", "bad-frees");
        assertEquals(lines(cudaError, cudaError, cudaError), reports(cuda));
        assertEquals("after the bad frees: still running", cuda.out().strip().lines().reduce((a, b) -> b).orElse(""));
        String hipError = "mgpu: hip: mgpuMemFree: hipFree failed: hipErrorInvalidValue (1)";
        assertEquals(lines(hipError, hipError, hipError), reports(onHip("", "bad-frees")));
    }

    /**
     * The CPU backend's streams run as a GPU's do (tests/e2e/streams/concurrency_main.c): a kernel on one stream
     * waits for a flag that a kernel launched after it on another stream sets, and both finish; a launch on a
     * stream returns before its kernel runs, on a copy of its arguments; one stream's memset, kernels, copy and
     * free run in order; events order streams and are waited for; the NULL stream waits by blocking its
     * caller; destroying a stream drains it; a module unloaded right after a launch on a stream stays until
     * the launch has run; a kernel whose parameters' sizes are unknown, or a launch that passes another number of
     * parameters than they count, runs before its
     * launch returns; eight streams run side by side. Also with a pool of one thread, where each launch has
     * only the thread that runs it. The kernels are built with this build's flags.
     */
    void cpuStreamsRunSideBySide() throws Exception {
        Path kernels = dir.resolve("stream_kernels.so");
        List<String> cmd = new ArrayList<>(List.of("cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-g", "-shared",
                "-fPIC"));
        cmd.addAll(cflags);
        cmd.addAll(List.of("-I" + Native.include(), STREAMS.resolve("stream_kernels.c").toString(), "-o",
                kernels.toString()));
        Native.exec(dir, Map.of(), cmd.toArray(String[]::new));
        Path program = link("concurrency_main", STREAMS.resolve("concurrency_main.c"));
        for (String threads : List.of("", "1")) {
            Map<String, String> e = new HashMap<>(env);
            e.putAll(Map.of("MGPU_BACKEND", "cpu", "STREAM_KERNELS", kernels.toString(), "MGPU_CPU_THREADS", threads));
            // A kernel that waits for one that cannot run would wait forever: end it instead of the test run.
            Native.Result r = Native.run(dir, e, List.of("timeout", "60", program.toString()));
            assertEquals(0, r.exit(), "MGPU_CPU_THREADS=" + threads + ":\n" + r.out() + r.err());
            check(r, STREAMS_OUT, lines());
        }
    }

    /**
     * mgpuMemGetDeviceMemRef1dFloat and ...Int32 (upstream's ROCm wrappers) give registered host memory's memref
     * as the device addresses it: the host's address on the CPU, the driver's answer on CUDA and HIP (which the
     * stand-ins give as the host's), offset, size and stride as passed; writes through it reach the host's
     * array. The drivers refuse device memory, and the pointers are then NULL.
     */
    void deviceMemRefsOfHostMemory() throws Exception {
        List<String> registered = lines("f32: allocated the host's, aligned the host's, offset 3, size 2, stride 2",
                "i32: allocated the host's, aligned the host's, offset 1, size 3, stride 1", "f[5] = 42.5, n[3] = 42");
        List<String> cpu = new ArrayList<>(registered);
        cpu.add("device memory: its own address");
        check(onCpu("device-memrefs"), cpu, lines());
        List<String> gpu = new ArrayList<>(registered);
        gpu.add("device memory: NULL");
        Native.Result cuda = onCuda("90", "", "device-memrefs");
        check(cuda, gpu, lines("mgpu: cuda: mgpuMemGetDeviceMemRef1dFloat: cuMemHostGetDevicePointer failed:"
                + " CUDA_ERROR_INVALID_VALUE (1)"));
        assertEquals(lines("cuMemHostGetDevicePointer: flags 0", "cuMemHostGetDevicePointer: flags 0"),
                traced(cuda, "cuMemHostGetDevicePointer"));
        check(onHip("", "device-memrefs"), gpu, lines("mgpu: hip: mgpuMemGetDeviceMemRef1dFloat:"
                + " hipHostGetDevicePointer failed: hipErrorInvalidValue (1)"));
    }

    /**
     * Tensor maps (mgpuTensorMapEncodeTiledMemref, what nvgpu.tma.create.descriptor lowers to, and
     * mgpuTensorMapEncodeTiled): on CUDA the memref's sizes and strides reach the driver innermost first, strides
     * in bytes, with its aligned pointer, and the encoded map is copied to device memory; the CPU and HIP
     * backends say that they have none. A rank beyond 5 is refused.
     */
    void tensorMaps() throws Exception {
        String none = "failed: tensor maps are a CUDA feature (compute capability 9.0 and later); the %s backend has none";
        for (String backend : List.of("cpu", "hip")) {
            Native.Result r = backend.equals("cpu") ? onCpu("tensor-maps") : onHip("", "tensor-maps");
            String p = "mgpu: " + backend + ": ";
            check(r, lines("memref map: none", "rank 6: none", "raw map: not encoded"), lines(
                    p + "mgpuTensorMapEncodeTiledMemref " + String.format(none, backend),
                    p + "mgpuTensorMapEncodeTiledMemref " + String.format(none, backend),
                    p + "mgpuTensorMapEncodeTiled " + String.format(none, backend)));
        }
        Native.Result cuda = onCuda("90", "", "tensor-maps");
        check(cuda, lines("memref map: type 7, rank 3, address aligned, dims 16,8,4, strides 128,1024, box 8,4,2",
                "rank 6: none", "raw map: encoded"), lines("mgpu: cuda: mgpuTensorMapEncodeTiledMemref failed: a tensor"
                + " map of rank 6 and data type 7 (must be of rank 1 to 5 and a CUtensorMapDataType)"));
        assertEquals(lines("cuTensorMapEncodeTiled: type 7 rank 3 dims 16,8,4 strides 128,1024 box 8/1,4/1,2/1"
                + " interleave 0 swizzle 3 l2 2 oob 1", "cuTensorMapEncodeTiled: type 6 rank 1 dims 16 strides box 8/1"
                + " interleave 0 swizzle 0 l2 0 oob 0"), traced(cuda, "cuTensorMapEncodeTiled"));
        assertEquals(lines("summary: 0 loads, 0 JIT loads, 0 function lookups, 0 launches, 2 stream syncs,"
                + " 1 streams created, 0 destroyed, 0 allocations live"), traced(cuda, "summary"));
    }
}
