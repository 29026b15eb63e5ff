package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.cli.io.Failures;
import dev.tradeoff.cli.io.Json;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's global guard, suggestions for typos, completion and the one JSON style. */
class CliGuardTest {

  @TempDir Path dir;

  private static Failures.Line line(Throwable t) {
    return Failures.describe(t, "noise", List.of("--value", "1e300"));
  }

  @Test
  void everyExceptionClassBecomesOneLineAndAStatus() {
    assertThat(line(new IllegalArgumentException("--x must be > 0, but was -1")))
        .isEqualTo(new Failures.Line("--x must be > 0, but was -1", Failures.BAD_INPUT));
    assertThat(line(new UncheckedIOException(new NoSuchFileException("/a/b"))))
        .isEqualTo(new Failures.Line("no such file or directory: /a/b", Failures.BAD_INPUT));
    assertThat(line(new AccessDeniedException("/etc/x")).message()).isEqualTo("permission denied: /etc/x");
    assertThat(line(new UncheckedIOException(new ZipException("invalid block type"))).message())
        .isEqualTo("not a valid compressed (gzip) file: invalid block type");
    assertThat(line(new RuntimeException(new EOFException())).status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(line(new IOException("disk full")).message()).isEqualTo("input/output error: disk full");
    Failures.Line arithmetic = line(new ArithmeticException("BigInteger out of long range"));
    assertThat(arithmetic.status()).isEqualTo(Failures.INTERNAL);
    assertThat(arithmetic.message()).startsWith("noise failed: ArithmeticException (BigInteger out of long range)")
        .contains("(given: --value 1e300)").doesNotContain("\n");
    Failures.Line memory = line(new RuntimeException(new OutOfMemoryError("Java heap space")));
    assertThat(memory.status()).isEqualTo(Failures.INTERNAL);
    assertThat(memory.message()).startsWith("noise ran out of memory").doesNotContain("\n");
    assertThat(line(new IllegalStateException("two\nlines")).message()).doesNotContain("\n");
  }

  @Test
  void aClusterThatDidNotStartOrARunnerFailureIsNotCalledABug() {
    Failures.Line start = line(new dev.tradeoff.beam.cluster.ClusterStartException(
        "cluster taskmanager-0 exited with status 1 during start-up; /s/log/taskmanager-0.log"
            + " says: Caused by: java.net.BindException: \u001b[31mport taken", List.of()));
    assertThat(start.status()).isEqualTo(Failures.INTERNAL);
    assertThat(start.message()).startsWith("cluster taskmanager-0 exited with status 1")
        .contains("BindException: \\e[31mport taken").doesNotContain("bug");
    // a failure inside the runner that Tradeoff's code did not throw
    RuntimeException fromFlink = new RuntimeException(new java.util.concurrent.TimeoutException(
        "slot request timed out after 300000 ms"));
    fromFlink.getCause().setStackTrace(new StackTraceElement[] {new StackTraceElement(
        "org.apache.flink.runtime.jobmaster.slotpool.X", "f", "X.java", 1)});
    Failures.Line runner = line(new org.apache.beam.sdk.Pipeline.PipelineExecutionException(
        fromFlink));
    assertThat(runner.status()).isEqualTo(Failures.INTERNAL);
    assertThat(runner.message()).contains("failed on the runner: TimeoutException")
        .contains("--job-timeout").doesNotContain("bug");
    // the same path, but thrown by Tradeoff's own code: a bug
    ArithmeticException ours = new ArithmeticException("overflow");
    ours.setStackTrace(new StackTraceElement[] {new StackTraceElement(
        "dev.tradeoff.beam.label.Plurality", "f", "Plurality.java", 1)});
    assertThat(line(new org.apache.beam.sdk.Pipeline.PipelineExecutionException(ours))
        .message()).contains("this is a bug");
  }

  @Test
  void aMistypedCommandGetsASuggestion() {
    CliRun run = CliRun.of("acount", "compose");
    assertThat(run.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(run.err().strip()).startsWith("tradeoff: ").contains("did you mean account?")
        .doesNotContain("\n");
    CliRun option = CliRun.of("noise", "--mechanism", "laplace:epsilon=1", "--value", "3", "--sedd", "1");
    assertThat(option.err().strip()).contains("did you mean --seed?").doesNotContain("\n");
  }

  @Test
  void completionPrintsABashScriptForEveryCommand() {
    CliRun run = CliRun.of("completion");
    assertThat(run.status()).isZero();
    assertThat(run.out()).contains("complete -F").contains("account").contains("--mechanism")
        .contains("ensemble").contains("predict");
  }

  @Test
  void jsonIsOneLineWithItsSchemaVersionFirst() {
    for (String[] args : new String[][] {
        {"account", "convert", "--gdp-mu", "1", "--delta", "1e-5", "--json"},
        {"noise", "--mechanism", "laplace:epsilon=1", "--value", "3", "--seed", "1", "--json"},
        {"tune", "invocations", "--epsilon", "0.1", "--epsilon-prime", "0.01", "--candidates", "5", "--json"},
        {"shuffle", "analyze", "--users", "100", "--lambda", "10", "--json"},
        {"ensemble", "baseline", "--kind", "sub", "--teachers", "5", "--m", "3", "--epsilon", "0.5",
            "--teacher-delta", "1e-3", "--json"}}) {
      CliRun run = CliRun.of(args);
      assertThat(run.status()).as(run.err()).isZero();
      assertThat(run.out().strip()).as(String.join(" ", args)).doesNotContain("\n")
          .startsWith("{\"schemaVersion\":" + Json.SCHEMA_VERSION + ",");
    }
  }

  @Test
  void seededNoiseSaysSoAndAHugeValueIsNeverReleasedAsInfinity() {
    CliRun seeded = CliRun.of("noise", "--mechanism", "laplace:epsilon=1", "--value", "3", "--seed", "1", "--json");
    assertThat(seeded.json().get("seeded").asBoolean()).isTrue();
    assertThat(seeded.json().get("randomness").asText()).contains("NOT private");
    CliRun huge = CliRun.of("noise", "--mechanism", "laplace:epsilon=1", "--value", "1e300");
    assertThat(huge.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(huge.err().strip()).startsWith("tradeoff: --value must be finite with |x| <=");
    assertThat(huge.out()).isEmpty();
  }

  @Test
  void messagesNameTheFlagNotAnInternalQuantity() {
    assertThat(CliRun.of("account", "convert", "--gdp-mu", "1e308", "--delta", "1e-5").err())
        .startsWith("tradeoff: --gdp-mu must be in [0, 1000]");
    assertThat(CliRun.of("ensemble", "optimize", "--teachers", "5", "--m", "2", "--epsilon", "1e308").err())
        .startsWith("tradeoff: --epsilon must be in [");
    assertThat(CliRun.of("account", "compose", "--mechanism", "gaussian:sigma=1e-320", "--count", "10",
        "--delta", "1e-5").err()).startsWith("tradeoff: --mechanism gaussian:sigma must be in [");
    assertThat(CliRun.of("predict", "--teacher-epsilon=NaN").err())
        .startsWith("tradeoff: --teacher-epsilon must be in [");
  }

  @Test
  void outputDirectoriesAreCheckedBeforeAnyWork() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    CliRun run = CliRun.of("reproduce", "stability", "--out", file.resolve("sub").toString());
    assertThat(run.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(run.err().strip()).startsWith("tradeoff: --out must be a writable directory");
    CliRun predict = CliRun.of("predict", "--report", "/proc/nope", "--epochs", "1e-320");
    assertThat(predict.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(predict.err().strip()).startsWith("tradeoff: --epochs must be in [");
  }

  @Test
  void aBadThreadCountIsRefusedBeforeTheOutputDirectoryIsCreated() {
    Path out = dir.resolve("bernoulli-out");
    CliRun run = CliRun.of("reproduce", "bernoulli", "--threads", "0", "--out", out.toString());
    assertThat(run.status()).isEqualTo(Failures.BAD_INPUT);
    assertThat(run.err().strip()).isEqualTo("tradeoff: --threads must be in [1, 1024], but was 0");
    assertThat(run.out()).isEmpty();
    assertThat(out).doesNotExist();
  }
}
