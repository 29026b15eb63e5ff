package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.cli.io.Failures;
import dev.tradeoff.cli.tune.TuneCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A property-based sweep of hostile inputs over every command and every flag (plain seeded random
 * JUnit 5, no generator library). Each runnable command has one or more valid, fast base command
 * lines; for every option of the command, every number in the option's value (a spec key, a list
 * element, a plain number) is replaced in turn by each extreme value (0, −0, subnormals, ±1e308,
 * NaN, ±∞, huge integers, the empty string) and by seeded random magnitudes from 10^−330 to
 * 10^310; paths get unwritable, missing and special paths; words get garbage. Every run is
 * time-boxed in-process. The properties:
 *
 * <ul>
 *   <li>no hang: every run ends within its budget;
 *   <li>no trace: a refusal is exactly one line on stderr starting {@code tradeoff: }, with a
 *       bad-input status (never the internal-failure status 1, which means a boundary check is
 *       missing), and no run prints {@code at ...} frames;
 *   <li>no non-finite release: an accepted run prints no {@code NaN} or {@code Infinity};
 *   <li>no silent fallback: a non-finite or empty number given to a flag is never accepted.
 * </ul>
 *
 * The counts are printed and written to {@code target/hostile-input-sweep.txt}.
 */
class HostileInputSweepTest {

  private static final long SEED = 20261124L;
  private static final String[] NUMBERS = {
    "0", "-0", "4.9e-324", "1e-320", "-1", "1e-9", "1e9", "1e308", "-1e308", "NaN", "Infinity",
    "-Infinity", "2147483647", "-2147483648", "9223372036854775807", ""
  };
  private static final Set<String> NON_FINITE = Set.of("NaN", "Infinity", "-Infinity", "");
  private static final String[] PATHS = {
    "", "/proc/nope/x", "/sys/tradeoff-nope", "/dev/null", "/dev/null/x", "/proc"
  };
  private static final String[] WORDS = {"", "nope", "%s%n"};
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?(e-?\\d+)?");
  private static final Pattern NOT_FINITE_OUTPUT = Pattern.compile("\\b(NaN|Infinity)\\b");
  private static final Set<String> SKIPPED = Set.of("--help", "--version", "--quiet", "--json");

  @TempDir static Path dir;

  /** A valid, fast command line, and the options to sweep on it (all when {@code only} is empty). */
  private record Base(List<String> args, Set<String> only) {}

  private record Outcome(String args, String kind, String detail) {}

  /** One hostile run: the command line and the value that was substituted (numbers only). */
  private record Case(List<String> args, String value, boolean numeric) {}

  @Test
  void noHostileInputHangsCrashesOrReleasesANonFiniteNumber() throws Exception {
    Map<String, List<Base>> bases = bases();
    List<String> runnable = runnable(TradeoffCommand.commandLine());
    assertThat(bases.keySet()).as("every runnable command needs a base command line here")
        .containsAll(runnable);

    Random random = new Random(SEED);
    List<Case> cases = new ArrayList<>();
    for (String command : runnable) {
      for (Base base : bases.get(command)) {
        CommandSpec spec = find(TradeoffCommand.commandLine(), command);
        for (OptionSpec option : spec.options()) {
          String name = option.longestName();
          if (SKIPPED.contains(name) || option.usageHelp() || option.versionHelp()
              || option.type() == boolean.class || option.type() == Boolean.class
              || (!base.only().isEmpty() && !base.only().contains(name))) {
            continue;
          }
          Class<?> type = option.auxiliaryTypes().length > 0 ? option.auxiliaryTypes()[0] : option.type();
          String baseValue = valueOf(base.args(), name);
          boolean numeric = type != Path.class && (baseValue == null
              ? type.isPrimitive() || Number.class.isAssignableFrom(type)
              : NUMBER.matcher(baseValue).find());
          for (String value : hostile(option, baseValue, random)) {
            cases.add(new Case(with(base.args(), name, value), value, numeric));
          }
        }
      }
    }

    Map<String, Integer> counts = zeroCounts("accepted", "clean refusals", "traces", "hangs",
        "silent wrong outputs");
    List<Outcome> bad = new ArrayList<>();
    ExecutorService pool = daemonPool("sweep");
    long started = System.nanoTime();
    try {
      Path log = Path.of("target", "hostile-input-sweep.log");
      Files.createDirectories(log.getParent());
      Files.writeString(log, "");
      for (Case c : cases) {
        long t0 = System.nanoTime();
        Outcome o = run(pool, c);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        counts.merge(o.kind(), 1, Integer::sum);
        Files.writeString(log, o.kind() + "\t" + millis + " ms\t" + o.args() + "\t" + o.detail()
            + "\n", java.nio.file.StandardOpenOption.APPEND);
        if (!o.kind().equals("accepted") && !o.kind().equals("clean refusals")) {
          bad.add(o);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    StringBuilder summary = new StringBuilder(String.format(Locale.ROOT,
        "hostile-input sweep (seed %d): %d inputs over %d commands in %.0f s%n", SEED, cases.size(),
        runnable.size(), seconds));
    counts.forEach((k, v) -> summary.append(String.format(Locale.ROOT, "  %-22s %d%n", k, v)));
    bad.forEach(o -> summary.append("  ").append(o.kind()).append(": ").append(o.args())
        .append(" -> ").append(o.detail()).append('\n'));
    System.out.print(summary);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "hostile-input-sweep.txt"), summary);

    assertThat(bad).as(summary.toString()).isEmpty();
    assertThat(counts.get("clean refusals")).isPositive();
  }

  /**
   * Hostile file contents through every command that reads a file: control bytes, ESC sequences,
   * line breaks and invalid UTF-8 in a first line, a huge line, compressed data under a plain or a
   * wrong name, and SQLite files that are not ledgers. Beyond the properties of the flag sweep,
   * every refusal must be safe to print: one line of printable characters (no ESC, no control
   * byte, no U+FFFD) of at most {@link Shown#LINE_LIMIT} characters plus the prefix.
   */
  @Test
  void hostileFileContentsAreRefusedInOneSafeLine() throws Exception {
    Map<String, List<Base>> bases = bases();
    Map<String, byte[]> contents = HostileFiles.contents();
    List<Case> cases = new ArrayList<>();
    List<String[]> readers = List.of(
        new String[] {"label", "--train"}, new String[] {"label", "--queries"},
        new String[] {"ensemble aggregate", "--votes"},
        new String[] {"ensemble aggregate", "--gamma-file"},
        new String[] {"ensemble verify", "--gamma-file"},
        new String[] {"shuffle sum", "--input"}, new String[] {"tune", "--plan"},
        new String[] {"ledger show", "--ledger"}, new String[] {"ledger verify", "--ledger"});
    int n = 0;
    for (String[] reader : readers) {
      for (Map.Entry<String, byte[]> content : contents.entrySet()) {
        Path file = dir.resolve("hostile-" + (n++) + "-" + content.getKey());
        Files.write(file, content.getValue());
        for (Base base : bases.get(reader[0])) {
          cases.add(new Case(with(base.args(), reader[1], file.toString()), content.getKey(),
              false));
        }
      }
    }
    for (Map.Entry<String, String> ledger : HostileFiles.ledgers(dir).entrySet()) {
      for (String command : List.of("label", "ledger show", "ledger charge", "tune")) {
        for (Base base : bases.get(command)) {
          List<String> args = with(base.args(), "--ledger", ledger.getKey());
          if (command.equals("label")) {
            args.remove("--seed");
            args.remove("1");
            args.addAll(List.of("--ledger-budget", "100,0.1"));
          }
          if (command.equals("tune")) {
            args = with(args, "--budget", "50");
            args.remove("--seed");
            args.remove("7");
          }
          cases.add(new Case(args, ledger.getValue(), false));
        }
      }
    }
    Map<String, Integer> counts = zeroCounts("accepted", "clean refusals", "traces", "hangs",
        "silent wrong outputs", "unsafe messages");
    List<Outcome> bad = new ArrayList<>();
    ExecutorService pool = daemonPool("file-sweep");
    Path log = Path.of("target", "hostile-file-sweep.log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, "");
    try {
      for (Case c : cases) {
        Outcome o = run(pool, c);
        if (o.kind().equals("clean refusals") && !HostileFiles.safe(o.detail())) {
          o = new Outcome(o.args(), "unsafe messages", o.detail());
        }
        Files.writeString(log, o.kind() + "\t" + c.value() + "\t" + Shown.line(o.detail()) + "\n",
            java.nio.file.StandardOpenOption.APPEND);
        counts.merge(o.kind(), 1, Integer::sum);
        if (!o.kind().equals("accepted") && !o.kind().equals("clean refusals")) {
          bad.add(o);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    StringBuilder summary = new StringBuilder(String.format(Locale.ROOT,
        "hostile-file sweep: %d files over %d readers%n", cases.size(), readers.size()));
    counts.forEach((k, v) -> summary.append(String.format(Locale.ROOT, "  %-22s %d%n", k, v)));
    bad.forEach(o -> summary.append("  ").append(o.kind()).append(": ").append(o.args())
        .append(" -> ").append(Shown.line(o.detail())).append('\n'));
    System.out.print(summary);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "hostile-file-sweep.txt"), summary);
    assertThat(bad).as(summary.toString()).isEmpty();
  }

  private static Map<String, Integer> zeroCounts(String... kinds) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String k : kinds) {
      counts.put(k, 0);
    }
    return counts;
  }

  /** Runs are time-boxed on daemon threads, so a hung run never keeps the JVM alive. */
  private static ExecutorService daemonPool(String name) {
    return Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  private static Outcome run(ExecutorService pool, Case c) throws Exception {
    List<String> args = c.args();
    String shown = String.join(" ", args.stream().map(a -> a.isEmpty() ? "''" : a).toList());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Future<Integer> future = pool.submit(() -> {
      CommandLine cli = TradeoffCommand.commandLine();
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
      return cli.execute(args.toArray(String[]::new));
    });
    int status;
    try {
      status = future.get(budgetSeconds(args), TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      return new Outcome(shown, "hangs", "still running after " + budgetSeconds(args) + " s");
    } catch (java.util.concurrent.ExecutionException e) { // escaped the command line's guard
      return new Outcome(shown, "traces", "uncaught " + e.getCause());
    }
    String stderr = err.toString().strip();
    if (stderr.contains("\tat ") || stderr.contains("\n\tat") || stderr.matches("(?s).*\\bat [a-z]+\\.[a-zA-Z.]+\\(.*")) {
      return new Outcome(shown, "traces", stderr.lines().limit(3).toList().toString());
    }
    if (status == 0) {
      Matcher m = NOT_FINITE_OUTPUT.matcher(out.toString());
      if (m.find()) {
        return new Outcome(shown, "silent wrong outputs", "exit 0 printing " + m.group()
            + ": " + abbreviate(out.toString()));
      }
      if (c.numeric() && nonFinite(c.value())) {
        return new Outcome(shown, "silent wrong outputs", "exit 0 on a non-finite or empty number");
      }
      return new Outcome(shown, "accepted", "");
    }
    // a refusal: one "tradeoff: " line, after at most some progress lines ("... elapsed")
    List<String> lines = stderr.lines().toList();
    boolean oneLine = !lines.isEmpty() && lines.get(lines.size() - 1).startsWith("tradeoff: ")
        && lines.subList(0, lines.size() - 1).stream().allMatch(l -> l.contains(" elapsed"));
    if (status == Failures.INTERNAL || !oneLine) {
      return new Outcome(shown, "traces", "status " + status + ": " + abbreviate(stderr));
    }
    return new Outcome(shown, "clean refusals", lines.get(lines.size() - 1));
  }

  /** Seconds a run may take: the slow commands' valid runs get more. */
  private static long budgetSeconds(List<String> args) {
    return Set.of("predict", "reproduce", "label").contains(args.get(0)) ? 60 : 20;
  }

  private static List<String> hostile(OptionSpec option, String baseValue, Random random) {
    Set<String> values = new LinkedHashSet<>();
    Class<?> type = option.auxiliaryTypes().length > 0 ? option.auxiliaryTypes()[0] : option.type();
    if (type == Path.class) {
      values.addAll(List.of(PATHS));
      return new ArrayList<>(values);
    }
    boolean numeric = type.isPrimitive() || Number.class.isAssignableFrom(type);
    String template = baseValue;
    if (template == null) {
      template = numeric ? "1" : null;
    }
    if (template == null || !NUMBER.matcher(template).find()) {
      values.addAll(List.of(WORDS));
      return new ArrayList<>(values);
    }
    Matcher m = NUMBER.matcher(template);
    while (m.find()) {
      List<String> replacements = new ArrayList<>(List.of(NUMBERS));
      for (int i = 0; i < 3; i++) { // seeded random magnitudes, both signs
        double magnitude = Math.pow(10, -330 + 640 * random.nextDouble());
        replacements.add(Double.toString(random.nextBoolean() ? magnitude : -magnitude));
      }
      replacements.add(Integer.toString(random.nextInt()));
      for (String r : replacements) {
        values.add(template.substring(0, m.start()) + r + template.substring(m.end()));
      }
    }
    return new ArrayList<>(values);
  }

  /**
   * True when the value handed to the option was NaN, ±∞ or empty, alone, as a spec key's value or
   * as a list element (for the fallback check; a trailing comma, "1,", is a list of one).
   */
  static boolean nonFinite(String value) {
    return NON_FINITE.stream().anyMatch(v -> value.equals(v) || value.endsWith("=" + v)
        || (!v.isEmpty() && value.endsWith("," + v)));
  }

  private static String valueOf(List<String> args, String option) {
    int i = args.indexOf(option);
    return i < 0 || i + 1 >= args.size() ? null : args.get(i + 1);
  }

  private static List<String> with(List<String> args, String option, String value) {
    List<String> copy = new ArrayList<>(args);
    int i = copy.indexOf(option);
    if (i >= 0 && i + 1 < copy.size()) {
      copy.set(i + 1, value);
    } else {
      copy.add(option);
      copy.add(value);
    }
    return copy;
  }

  private static List<String> runnable(CommandLine root) {
    List<String> names = new ArrayList<>();
    for (CommandLine sub : root.getSubcommands().values()) {
      collect(sub, names);
    }
    return new ArrayList<>(new LinkedHashSet<>(names));
  }

  private static void collect(CommandLine cli, List<String> names) {
    Object user = cli.getCommandSpec().userObject();
    String name = cli.getCommandSpec().qualifiedName(" ").replaceFirst("^tradeoff ", "");
    boolean group = !cli.getSubcommands().isEmpty();
    boolean runsItself = user instanceof TuneCommand;
    if (!group || runsItself) {
      names.add(name);
    }
    for (CommandLine sub : cli.getSubcommands().values()) {
      collect(sub, names);
    }
  }

  private static CommandSpec find(CommandLine root, String qualified) {
    CommandLine c = root;
    for (String part : qualified.split(" ")) {
      c = c.getSubcommands().get(part);
    }
    return c.getCommandSpec();
  }

  private static String abbreviate(String s) {
    String one = s.strip().replace('\n', '|');
    return one.length() <= 300 ? one : one.substring(0, 297) + "...";
  }

  private static void add(Map<String, List<Base>> bases, String command, String args, String... only) {
    List<String> list = new ArrayList<>(List.of(command.split(" ")));
    if (!args.isEmpty()) {
      list.addAll(List.of(args.split(" ")));
    }
    bases.computeIfAbsent(command, k -> new ArrayList<>()).add(new Base(list, Set.of(only)));
  }

  /** Two well-separated Gaussian classes: training rows {@code label,x} or query rows {@code x}. */
  private static String labelRows(boolean training) {
    Random r = new Random(SEED);
    StringBuilder s = new StringBuilder(training ? "label,x\n" : "x\n");
    for (int i = 0; i < (training ? 200 : 20); i++) {
      boolean yes = i % 2 == 0;
      double x = (yes ? 2 : -2) + r.nextGaussian();
      s.append(training ? (yes ? "yes," : "no,") : "").append(String.format(Locale.ROOT, "%.4f", x))
          .append('\n');
    }
    return s.toString();
  }

  private static Map<String, List<Base>> bases() throws IOException {
    Path votes = Files.writeString(dir.resolve("votes.csv"), "1,1,1,0,0\n0,0,0,0,1\n1,1,1,1,1\n");
    Path gamma = Files.writeString(dir.resolve("gamma.json"),
        "{\"gamma\":[0.1,0.1,0.1,0.1,0.1,0.1],\"setting\":{\"teachers\":5,\"m\":1,\"epsilon\":0.5}}");
    StringBuilder csv = new StringBuilder("x\n");
    for (int i = 0; i < 50; i++) {
      csv.append(i / 50.0).append('\n');
    }
    Path data = Files.writeString(dir.resolve("data.csv"), csv);
    Path plan = Files.writeString(dir.resolve("plan.json"),
        "{\"epsilonPrime\": 5, \"timeoutSeconds\": 20,"
            + " \"command\": \"echo '{\\\"score\\\": {score}, \\\"epsilon\\\": {epsilon}}'\","
            + " \"candidates\": ["
            + "  {\"name\": \"low\", \"epsilon\": 0.25, \"hyperparameters\": {\"score\": 0.5}},"
            + "  {\"name\": \"high\", \"epsilon\": 0.5, \"hyperparameters\": {\"score\": 0.9}}]}");
    Path ledger = dir.resolve("ledger.db");
    CliRun created = CliRun.of("tune", "--plan", plan.toString(), "--ledger", ledger.toString(),
        "--budget", "50");
    assertThat(created.status()).as(created.err()).isZero();
    Path out = dir.resolve("out");

    Map<String, List<Base>> b = new LinkedHashMap<>();
    // the PLD accountant costs seconds per accepted run: every flag is swept on RDP, the spec on PLD
    add(b, "account compose", "--mechanism gaussian:sigma=1 --count 10 --delta 1e-5 --method rdp --json");
    add(b, "account compose", "--mechanism gaussian:sigma=1 --count 10 --delta 1e-5 --method pld", "--mechanism");
    add(b, "account compose", "--mechanism gaussian:sigma=1 --count 10 --epsilon 1 --method rdp");
    add(b, "account compose", "--mechanism approx:epsilon=0.1,delta=1e-6 --count 5 --method kairouz --delta-slack 1e-5", "--delta-slack");
    for (String spec : List.of("pure:epsilon=1", "approx:epsilon=1,delta=1e-6", "laplace:scale=1",
        "discrete-laplace:scale=1", "discrete-gaussian:sigma=1", "randomized-response:epsilon=1,k=3",
        "subsampled-gaussian:sigma=1,q=0.01", "gdp:mu=1", "zcdp:rho=0.5")) {
      add(b, "account compose", "--mechanism " + spec + " --count 10 --delta 1e-5 --method rdp", "--mechanism");
    }
    add(b, "account calibrate", "--mechanism gaussian --count 10 --target-epsilon 1 --target-delta 1e-5 --method rdp");
    add(b, "account calibrate", "--mechanism gaussian --count 10 --target-epsilon 1 --target-delta 1e-5 --method pld", "--discretization");
    add(b, "account calibrate", "--mechanism gaussian --target-epsilon 1 --target-delta 1e-5", "--target-epsilon", "--sensitivity", "--target-delta");
    add(b, "account calibrate", "--mechanism laplace --count 10 --target-epsilon 1", "--target-epsilon", "--sensitivity", "--count");
    add(b, "account convert", "--gdp-mu 1 --delta 1e-5");
    add(b, "account convert", "--zcdp-rho 0.5 --epsilon 1", "--zcdp-rho", "--epsilon");
    add(b, "account convert", "--rdp 2=0.1,8=0.4 --delta 1e-5", "--rdp", "--delta");
    add(b, "account convert", "--to-gdp --epsilon 1 --delta 1e-5", "--epsilon", "--delta");
    add(b, "noise", "--mechanism laplace:epsilon=1 --value 3 --seed 1 --json");
    for (String spec : List.of("gaussian:epsilon=1,delta=1e-5", "discrete-laplace:epsilon=1",
        "discrete-gaussian:sigma=2", "discrete-gaussian:rho=0.5")) {
      add(b, "noise", "--mechanism " + spec + " --value 3 --seed 1", "--mechanism", "--value", "--sensitivity");
    }
    add(b, "audit", "--mechanism laplace:epsilon=1 --samples 2000 --seed 1");
    add(b, "audit", "--mechanism gaussian:epsilon=1,delta=1e-3 --samples 2000 --seed 1", "--mechanism");
    add(b, "audit", "--mechanism randomized-response:epsilon=1,k=4 --samples 2000 --seed 1", "--mechanism");
    add(b, "amplify bernoulli", "--alpha 5 --epsilon 1 --c 0.1 --dimension 1 --samples 1");
    add(b, "amplify plot", "--alpha 50 --c 0.1 --dimension 1 --samples 1 --max-epsilon 3 --out " + dir.resolve("a.png"));
    add(b, "ledger show", "--ledger " + ledger);
    Path filters = dir.resolve("filters.db");
    Files.deleteIfExists(filters); // both sweeps build their bases in the one directory
    CliRun made = CliRun.of("ledger", "create", "--ledger", filters.toString(), "--budget",
        "8,1e-5", "--filters", "gdp:0.5,rdp:0.4,basic:0.1");
    assertThat(made.status()).as(made.err()).isZero();
    add(b, "ledger create", "--ledger " + dir.resolve("created.db") + " --budget 8,1e-5 --filters "
        + "gdp:0.5,rdp:0.4,basic:0.1");
    add(b, "ledger remaining", "--ledger " + filters);
    add(b, "ledger fits", "--ledger " + filters + " --mechanism gaussian:sigma=4.68 --count 2");
    add(b, "ledger charge", "--ledger " + filters + " --mechanism gaussian:sigma=4.68 --count 1 "
        + "--label sweep");
    add(b, "ledger history", "--ledger " + filters);
    add(b, "ledger plot", "--ledger " + filters + " --out " + dir.resolve("ledger.png"));
    add(b, "ledger verify", "--ledger " + filters);
    // grant needs a PostgreSQL server (LabelPostgresLedgerTest has one); on a file it is refused
    add(b, "ledger grant", "--ledger " + filters + " --dataset default --role analyst");
    for (String r : List.of("bernoulli", "darrm", "shuffle", "expost", "stability")) {
      add(b, "reproduce " + r, "--out " + out, "--out");
    }
    add(b, "reproduce expost", "--out " + out + " --repetitions 1 --datasets 1", "--repetitions", "--datasets");
    add(b, "reproduce stability", "--out " + out + " --seeds 2 --n 20000 --m 5000",
        "--seeds", "--n", "--m", "--alpha", "--delta", "--split", "--beta-a", "--beta-b");
    add(b, "shuffle analyze", "--users 100 --lambda 10");
    add(b, "shuffle plot", "--users 100 --lambda 10 --out " + dir.resolve("s.png"));
    add(b, "shuffle sum", "--input " + data + " --column x --lambda 5 --bits 10 --seed 42");
    add(b, "tune", "--plan " + plan + " --seed 7");
    add(b, "tune", "--plan " + plan + " --budget 50", "--budget");
    add(b, "tune invocations", "--epsilon 0.1 --epsilon-prime 0.01 --candidates 5");
    add(b, "ensemble optimize", "--teachers 5 --m 2 --epsilon 0.2 --teacher-delta 1e-3");
    add(b, "ensemble optimize", "--teachers 5 --m 2 --epsilon 0.2 --teacher-delta 1e-3 --objective expected-error --samples 50", "--samples", "--prior");
    add(b, "ensemble baseline", "--kind sub --teachers 5 --m 3 --epsilon 0.5 --teacher-delta 1e-3");
    add(b, "ensemble baseline", "--kind gnmax --teachers 5 --m 3 --epsilon 0.5 --teacher-delta 1e-3 --votes-per-class 5,0", "--votes-per-class");
    add(b, "ensemble verify", "--teachers 5 --m 1 --epsilon 0.5 --teacher-delta 1e-3 --gamma-file " + gamma);
    add(b, "ensemble aggregate", "--votes " + votes + " --gamma-file " + gamma + " --out " + dir.resolve("labels.csv") + " --seed 3");
    add(b, "ensemble plot", "--teachers 5 --epsilon 0.1 --teacher-delta 1e-5 --m 1,2 --out " + dir.resolve("e.png"));
    // every flag but --seed (all longs are valid seeds, and each valid run trains teachers)
    add(b, "predict", "--teachers 3 --queries 5 --repeats 1 --epochs 1 --seed 1 --report " + dir.resolve("r"),
        "--data", "--classes", "--teachers", "--m", "--teacher-epsilon", "--teacher-delta", "--sigma",
        "--clip", "--epochs", "--queries", "--repeats", "--runner", "--budget", "--report");
    add(b, "completion", "");
    Path train = Files.writeString(dir.resolve("train.csv"), labelRows(true));
    Path queries = Files.writeString(dir.resolve("queries.csv"), labelRows(false));
    add(b, "label", "--train " + train + " --queries " + queries + " --out " + dir.resolve("labels")
        + " --epsilon 40 --delta 1e-5 --teachers 5 --aggregator darrm-sub --classes no,yes --seed 1");
    Path teacherVotes = Files.writeString(dir.resolve("teacher-votes.csv"),
        "id,a,b,c\nq1,8,1,1\nq2,4,3,3\nq3,10,0,0\n");
    add(b, "aggregate", "--votes " + teacherVotes + " --out " + dir.resolve("pate")
        + " --delta 1e-5 --threshold 6 --sigma1 2 --sigma2 1 --seed 4 --data-dependent");
    // cluster up needs flink-runtime (the cluster-runners build): here every run is refused
    add(b, "cluster up", "--workers 2 --timeout 180 --state-dir " + dir.resolve("cluster"));
    add(b, "cluster down", "--state-dir " + dir.resolve("no-cluster"));
    return b;
  }
}
