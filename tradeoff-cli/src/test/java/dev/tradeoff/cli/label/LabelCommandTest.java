package dev.tradeoff.cli.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.cli.CliRun;
import dev.tradeoff.cli.TradeoffCommand;
import dev.tradeoff.ledger.SqliteLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tradeoff label} on generated data (two Gaussian classes, never the shipped set). */
class LabelCommandTest {

  @TempDir Path dir;

  /** Training rows {@code label,b,a} (labels "no"/"yes") and queries {@code a,id,b}. */
  static void data(Path dir, int rows, int queries) throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    StringBuilder t = new StringBuilder("label,b,a\n");
    for (int i = 0; i < rows; i++) {
      boolean yes = i % 2 == 0;
      t.append(String.format(Locale.ROOT, "%s,%.4f,%.4f%n", yes ? "yes" : "no",
          (yes ? 2 : -2) + r.nextGaussian(), r.nextGaussian()));
    }
    Files.writeString(dir.resolve("train.csv"), t);
    StringBuilder q = new StringBuilder("a,id,b\n");
    for (int i = 0; i < queries; i++) {
      q.append(String.format(Locale.ROOT, "%.4f,row-%d,%.4f%n", r.nextGaussian(), i,
          (i % 2 == 0 ? 2 : -2) + r.nextGaussian()));
    }
    Files.writeString(dir.resolve("q.csv"), q);
  }

  List<String> args(Path out, String... more) {
    List<String> a = new ArrayList<>(List.of("label", "--train", dir.resolve("train.csv")
        .toString(), "--queries", dir.resolve("q.csv").toString(), "--out", out.toString(),
        "--epsilon", "40", "--delta", "1e-5", "--teachers", "5", "--aggregator", "darrm-sub",
        "--classes", "no,yes"));
    a.addAll(List.of(more));
    return a;
  }

  /** A dp-majority run of one teacher at (epsilon, 1e-5). */
  List<String> dpMajority(Path out, String epsilon, String... more) {
    List<String> a = new ArrayList<>(List.of("label", "--train", dir.resolve("train.csv")
        .toString(), "--queries", dir.resolve("q.csv").toString(), "--out", out.toString(),
        "--epsilon", epsilon, "--delta", "1e-5", "--classes", "no,yes"));
    a.addAll(List.of(more));
    return a;
  }

  static long labelFiles(Path out) throws IOException {
    if (!Files.isDirectory(out)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(out)) {
      return s.filter(p -> p.getFileName().toString().startsWith("labels-")).count();
    }
  }

  @Test
  void jsonPrintsTheManifestAndOnlyTheManifest() throws IOException {
    data(dir, 300, 30);
    CliRun run = CliRun.of(args(dir.resolve("out"), "--seed", "4", "--json")
        .toArray(String[]::new));
    assertThat(run.status()).as(run.err()).isZero();
    JsonNode m = run.json();
    assertThat(m.get("seeded").asBoolean()).isTrue();
    assertThat(m.get("private").asBoolean()).isFalse();
    assertThat(m.get("runner").asText()).isEqualTo("direct");
    assertThat(m.get("counts").get("queries").asLong()).isEqualTo(30);
    assertThat(m.get("guarantee").get("epsilon").asDouble()).isLessThanOrEqualTo(40);
    assertThat(m.get("derivation").get("steps").size()).isGreaterThan(3);
    assertThat(m.get("commandLine").toString()).contains("--aggregator");
    assertThat(m.get("labels").toString()).isEqualTo("[\"no\",\"yes\"]");
    assertThat(labelFiles(dir.resolve("out"))).isPositive();
    assertThat(Files.readString(dir.resolve("out").resolve("manifest.json")))
        .contains("\"derivation\"");

    // the text output prints the same guarantee, rounded up to six significant digits
    CliRun text = CliRun.of(args(dir.resolve("text"), "--seed", "4").toArray(String[]::new));
    assertThat(text.status()).as(text.err()).isZero();
    var printed = Pattern.compile("spending ε = (\\S+), δ = (\\S+) \\[seeded")
        .matcher(text.out());
    assertThat(printed.find()).as(text.out()).isTrue();
    double epsilon = m.get("guarantee").get("epsilon").asDouble();
    double delta = m.get("guarantee").get("delta").asDouble();
    assertThat(Double.parseDouble(printed.group(1))).isGreaterThanOrEqualTo(epsilon)
        .isLessThanOrEqualTo(epsilon * (1 + 1e-5));
    assertThat(Double.parseDouble(printed.group(2))).isGreaterThanOrEqualTo(delta)
        .isLessThanOrEqualTo(delta * (1 + 1e-5));
  }

  @Test
  void badInputIsOneLineAndExitTwoWithNothingCharged() throws IOException {
    data(dir, 40, 5);
    Path ledger = dir.resolve("l.db");
    // every new flag's bad values: one line, exit 2, before any training, nothing written
    List<List<String>> bad = List.of(
        List.of("--classes", "yes"), List.of("--classes", "yes,yes"),
        List.of("--classes", "a,b,c"), List.of("--teachers", "4"),
        List.of("--features", "nope"), List.of("--ignore", "nope"),
        List.of("--label-column", "nope"), List.of("--id-column", "nope"),
        List.of("--categorical", "nope"), List.of("--range", "a=1"),
        List.of("--range", "a=2:1"), List.of("--range", "nope=0:1"),
        List.of("--hash-buckets", "0"), List.of("--feature-clip", "0"),
        List.of("--epochs", "0"), List.of("--sampling-rate", "2"), List.of("--clip", "-1"),
        List.of("--learning-rate", "0"), List.of("--epochs", "1000", "--sampling-rate", "1e-5"),
        List.of("--aggregator", "dp-majority", "--m", "2"));
    for (List<String> flags : bad) {
      CliRun run = CliRun.of(args(dir.resolve("o1"), flags.toArray(String[]::new))
          .toArray(String[]::new));
      assertThat(run.status()).as("%s: %s", flags, run.err()).isEqualTo(2);
      assertThat(run.err().strip().lines()).as("%s", flags).hasSize(1);
      assertThat(run.err()).as("%s", flags).startsWith("tradeoff: ");
    }
    // a seeded run cannot be charged as private
    CliRun seeded = CliRun.of(args(dir.resolve("o2"), "--seed", "1", "--ledger",
        ledger.toString(), "--ledger-budget", "100,1e-3").toArray(String[]::new));
    assertThat(seeded.status()).isEqualTo(2);
    assertThat(seeded.err()).contains("seed");
    // a corrupt (foreign) ledger
    Files.writeString(ledger, "not a ledger at all, just text that is long enough to be a file");
    CliRun corrupt = CliRun.of(args(dir.resolve("o3"), "--ledger", ledger.toString())
        .toArray(String[]::new));
    assertThat(corrupt.status()).as(corrupt.err()).isEqualTo(2);
    assertThat(corrupt.err().strip().lines()).hasSize(1);
    // an unreachable master
    CliRun master = CliRun.of(args(dir.resolve("o4"), "--runner", "flink", "--master",
        "127.0.0.1:1").toArray(String[]::new));
    assertThat(master.status()).isEqualTo(2);
    assertThat(master.err().strip().lines()).hasSize(1);
    // a master in the other engine's form, and a master for the DirectRunner
    CliRun sparkForm = CliRun.of(args(dir.resolve("o5"), "--runner", "spark", "--master",
        "127.0.0.1:7077").toArray(String[]::new));
    assertThat(sparkForm.status()).isEqualTo(2);
    assertThat(sparkForm.err().strip()).isEqualTo("tradeoff: --master must be spark://HOST:PORT "
        + "for the spark runner, but was 127.0.0.1:7077");
    CliRun direct = CliRun.of(args(dir.resolve("o6"), "--master", "spark://127.0.0.1:7077")
        .toArray(String[]::new));
    assertThat(direct.status()).isEqualTo(2);
    assertThat(direct.err().strip()).startsWith("tradeoff: --runner must be flink or spark")
        .endsWith("but was direct");
    // malformed quoting in the queries: its file, line and column
    Files.writeString(dir.resolve("q.csv"), "a,id,b\r\n1,\"row\r\n-0\",2\r\n1,\"row-1\"x,2\r\n");
    CliRun quoted = CliRun.of(args(dir.resolve("o7")).toArray(String[]::new));
    assertThat(quoted.status()).isEqualTo(2);
    assertThat(quoted.err().strip()).isEqualTo("tradeoff: queries " + dir.resolve("q.csv")
        + ":4, column 2: text after a closing quote");
    for (String o : List.of("o1", "o2", "o3", "o4", "o5", "o6", "o7")) {
      assertThat(dir.resolve(o)).doesNotExist();
    }
  }

  @Test
  void theLedgerIsChargedOnceAndRefusesWhatIsNotLeft() throws IOException {
    data(dir, 200, 20);
    Path ledger = dir.resolve("l.db");
    CliRun tooSmall = CliRun.of(dpMajority(dir.resolve("o1"), "4", "--ledger",
        ledger.toString(), "--ledger-budget", "3,1e-4").toArray(String[]::new));
    assertThat(tooSmall.status()).as(tooSmall.err()).isEqualTo(3);
    assertThat(dir.resolve("o1")).doesNotExist();
    if (Files.exists(ledger)) {
      try (SqliteLedger l = SqliteLedger.open(ledger)) {
        assertThat(l.entries()).isEmpty();
      }
      Files.delete(ledger);
    }
    CliRun first = CliRun.of(dpMajority(dir.resolve("o2"), "4", "--ledger", ledger.toString(),
        "--ledger-budget", "6,1e-4", "--json").toArray(String[]::new));
    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.json().get("ledger").get("id").asLong()).isEqualTo(1);
    var entry = first.json().get("ledger");
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).hasSize(1);
      ApproxDp spent = (ApproxDp) l.spent();
      assertThat(spent.epsilon()).isGreaterThan(3.9).isLessThanOrEqualTo(4);
      // the manifest reports what the ledger recorded: the charge is the run's guarantee, and
      // what remains is the budget less the charge, as {epsilon, delta}
      assertThat(entry.get("charged").get("epsilon").asDouble()).isEqualTo(spent.epsilon())
          .isEqualTo(first.json().get("guarantee").get("epsilon").asDouble());
      // the ledger reports what is spent as the budget less what remains (rounded up)
      assertThat(entry.get("charged").get("delta").asDouble()).isCloseTo(spent.delta(),
          within(1e-18));
      ApproxDp left = (ApproxDp) l.remaining();
      assertThat(entry.get("remaining").get("epsilon").asDouble()).isEqualTo(left.epsilon())
          .isCloseTo(6 - spent.epsilon(), within(1e-9));
      assertThat(entry.get("remaining").get("delta").asDouble()).isEqualTo(left.delta())
          .isCloseTo(1e-4 - spent.delta(), within(1e-15));
    }
    CliRun second = CliRun.of(dpMajority(dir.resolve("o3"), "4", "--ledger", ledger.toString())
        .toArray(String[]::new));
    assertThat(second.status()).isEqualTo(3);
    assertThat(second.err()).contains("budget");
    assertThat(dir.resolve("o3")).doesNotExist();
    try (SqliteLedger l = SqliteLedger.open(ledger)) {
      assertThat(l.entries()).hasSize(1);
    }
  }

  /**
   * kill -9 of the command's JVM at several moments of a run: either nothing is charged and
   * nothing written, or the run is charged and the labels are absent or marked incomplete; never
   * labels without a charge. An uninterrupted run first measures how long a run takes (and shows
   * that the command's standard output is only the JSON manifest, every log going to standard
   * error); the kills then land at 10%, 35%, 60% and 85% of that time.
   */
  @Test
  void aKilledRunNeverLeavesLabelsWithoutACharge() throws Exception {
    data(dir, 200, 40);
    long full = System.nanoTime();
    Outcome complete = runChild("full", 300_000);
    long fullMs = (System.nanoTime() - full) / 1_000_000;
    assertThat(complete.charged()).as(complete.log()).isTrue();
    assertThat(complete.complete()).as(complete.log()).isTrue();
    JsonNode printed = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(complete.stdout());
    assertThat(printed.get("ledger").get("id").asLong()).isEqualTo(1);
    assertThat(printed.get("private").asBoolean()).isTrue();
    for (double fraction : new double[] {0.10, 0.35, 0.60, 0.85}) {
      Outcome o = runChild("kill-" + fraction, (long) (fraction * fullMs));
      if (o.complete() || o.manifest()) {
        assertThat(o.charged()).as("labels after a kill at %.0f%% must have been charged",
            100 * fraction).isTrue();
      }
    }
  }

  record Outcome(boolean charged, boolean complete, boolean manifest, String log, String stdout) {}

  /** Runs `label` in a child JVM, kills it (SIGKILL) after {@code killAfterMs} if still running. */
  Outcome runChild(String name, long killAfterMs) throws Exception {
    Path out = dir.resolve("out-" + name);
    Path ledger = dir.resolve("l-" + name + ".db");
    Path log = dir.resolve("log-" + name + ".txt");
    Path stdout = dir.resolve("stdout-" + name + ".txt");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"),
        TradeoffCommand.class.getName()));
    cmd.addAll(args(out, "--ledger", ledger.toString(), "--ledger-budget", "100,1e-3",
        "--json"));
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile())
        .redirectOutput(stdout.toFile()).start();
    if (!p.waitFor(killAfterMs, TimeUnit.MILLISECONDS)) {
      p.destroyForcibly(); // SIGKILL
      p.waitFor();
    }
    boolean charged = false;
    if (Files.exists(ledger) && Files.size(ledger) > 0) {
      try (SqliteLedger l = SqliteLedger.open(ledger)) {
        charged = !l.entries().isEmpty();
      }
    }
    boolean complete = labelFiles(out) > 0 && !Files.exists(out.resolve("_INCOMPLETE"));
    return new Outcome(charged, complete, Files.exists(out.resolve("manifest.json")),
        Files.readString(log), Files.readString(stdout));
  }
}
