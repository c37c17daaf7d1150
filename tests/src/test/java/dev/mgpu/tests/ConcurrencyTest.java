package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Eight threads translate different modules at once; each result equals its serial run. */
class ConcurrencyTest {
    private static String module(int i) {
        return CliTest.GOOD.replace("@k", "@k" + i).replace("\"AB\"", "\"blob" + i + "\"")
                .replace("(1 : i64)", "(" + (i + 1) + " : i64)");
    }

    @Test
    void eightThreadsMatchSerialRuns() throws Exception {
        int n = 8;
        LoadStrategy[] strategies = LoadStrategy.values();
        List<byte[]> serial = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            serial.add(translate(i, strategies[i % strategies.length]));
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            for (int round = 0; round < 3; round++) {
                List<Future<byte[]>> futures = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int k = i;
                    futures.add(pool.submit(() -> translate(k, strategies[k % strategies.length])));
                }
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(serial.get(i), futures.get(i).get(), "module " + i + " differs");
                }
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(n, serial.stream().map(b -> new String(b, StandardCharsets.ISO_8859_1)).distinct().count());
    }

    private static byte[] translate(int i, LoadStrategy s) {
        Operation m = Mgpu.parse(module(i).getBytes(StandardCharsets.UTF_8), "m" + i + ".mlir");
        return Mgpu.emit(m, i % 2 == 0 ? EmitKind.BC : EmitKind.OBJ, Mgpu.Options.DEFAULT.withLoadStrategy(s));
    }
}
