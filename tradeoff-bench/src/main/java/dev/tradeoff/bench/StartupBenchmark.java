package dev.tradeoff.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Start-up of the command line's quick commands beside its floor, {@code java -version}, in the
 * same run: each operation runs {@code ./tradeoff} as a user does (the wrapper, the jar's JVM with
 * its short-run flags and its class-data archive of the quick commands) and waits for it to exit
 * ({@code ensemble verify} checks a constant γ for K = 11, written to a temporary file). Run from
 * the repository root ({@code -Dtradeoff.root=PATH} otherwise) after {@code ./tradeoff --version}
 * has built the jar and the archive. The score is wall time per process; on a busy machine
 * compare only rows of one run (the README gives CPU seconds from {@code /usr/bin/time}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class StartupBenchmark {

  @Param({"java -version", "--version", "--help", "account convert --gdp-mu 1 --delta 1e-5",
      "tune invocations --epsilon 0.1 --epsilon-prime 0.01 --candidates 105",
      "ensemble verify --m 3 --epsilon 0.5 --gamma-file GAMMA", "acount"})
  public String command;

  private List<String> process;

  @Setup
  public void resolve() throws IOException {
    Path root = Path.of(System.getProperty("tradeoff.root", ".")).toAbsolutePath();
    Path wrapper = root.resolve("tradeoff");
    Path archive = root.resolve("tradeoff-cli/target/tradeoff-quick.jsa");
    if (!Files.isExecutable(wrapper) || !Files.isRegularFile(archive)) {
      throw new IllegalStateException("run from the repository root after ./tradeoff --version"
          + " (which builds the jar and its archive), or set -Dtradeoff.root; missing: "
          + (Files.isExecutable(wrapper) ? archive : wrapper));
    }
    if (command.equals("java -version")) {
      process = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xlog:disable", "-version");
      return;
    }
    process = new ArrayList<>(List.of(wrapper.toString()));
    Path gamma = Files.createTempFile("gamma", ".json");
    gamma.toFile().deleteOnExit();
    // K = 11 teachers, gamma = 0.2 everywhere (a constant gamma, which the verifier checks exactly)
    Files.writeString(gamma, "[0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2]");
    for (String word : command.split(" ")) {
      process.add(word.equals("GAMMA") ? gamma.toString() : word);
    }
  }

  @Benchmark
  public int start() throws IOException, InterruptedException {
    return new ProcessBuilder(process).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor();
  }
}
