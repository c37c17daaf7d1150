package dev.mgpu.bench;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.verify.Verifier;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * In-process throughput of each phase on a module of {@code launches} kernel launches: parse, verify,
 * translate to an LLVM module (LLVM's verifier included), and emit bitcode.
 *
 * <p>Run: {@code java -cp "bench/target/mgpu-bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" org.openjdk.jmh.Main}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TranslationBenchmark {
    @Param({"1000", "20000"})
    public int launches;

    @Param({"lazy", "per-launch"})
    public String loadStrategy;

    private byte[] text;
    private Operation module;
    private Mgpu.Options options;

    @Setup
    public void setUp() {
        StringBuilder sb = new StringBuilder("module attributes {gpu.container_module} {\n");
        sb.append("  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = \"sm_90\">, bin = \"");
        for (int i = 0; i < 4096; i++) {
            sb.append(String.format("\\%02X", i & 0xFF));
        }
        sb.append("\">]\n  llvm.func @main(%p: !llvm.ptr, %f: f32) {\n");
        sb.append("    %c = llvm.mlir.constant(128 : i64) : i64\n    %n = llvm.mlir.constant(7 : i32) : i32\n");
        for (int i = 0; i < launches; i++) {
            sb.append("    gpu.launch_func @kernels::@k").append(i % 64)
                    .append(" blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64"
                            + " args(%p : !llvm.ptr, %f : f32, %n : i32)\n");
        }
        sb.append("    llvm.return\n  }\n}\n");
        text = sb.toString().getBytes(StandardCharsets.UTF_8);
        module = MlirParser.parse(text, "bench.mlir");
        options = Mgpu.Options.DEFAULT.withLoadStrategy(LoadStrategy.fromOption(loadStrategy));
    }

    @Benchmark
    public Operation parse() {
        return MlirParser.parse(text, "bench.mlir");
    }

    @Benchmark
    public int verify() {
        return Verifier.verify(module).size();
    }

    @Benchmark
    public long translate() {
        try (NativeModule nm = Mgpu.translate(module, options)) {
            return nm.module().address();
        }
    }

    @Benchmark
    public byte[] emitBitcode() {
        return Mgpu.emit(module, EmitKind.BC, options);
    }
}
