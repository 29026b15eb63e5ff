package dev.tradeoff.cli;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.cli.account.AccountCommand;
import dev.tradeoff.cli.aggregate.AggregateCommand;
import dev.tradeoff.cli.amplify.AmplifyCommand;
import dev.tradeoff.cli.audit.AuditCommand;
import dev.tradeoff.cli.cluster.ClusterCommand;
import dev.tradeoff.cli.ensemble.EnsembleCommand;
import dev.tradeoff.cli.io.BuildVersion;
import dev.tradeoff.cli.io.Failures;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.cli.label.LabelCommand;
import dev.tradeoff.cli.label.PredictCommand;
import dev.tradeoff.cli.ledger.LedgerCommand;
import dev.tradeoff.cli.noise.NoiseCommand;
import dev.tradeoff.cli.reproduce.ReproduceCommand;
import dev.tradeoff.cli.shuffle.ShuffleCommand;
import dev.tradeoff.cli.tune.TuneCommand;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code tradeoff} command. Every subcommand prints a readable table by default and JSON with
 * {@code --json}; bad input prints one line on standard error and exits with status 2; no command
 * prints a stack trace ({@link Failures}). {@code --quiet} (accepted by every subcommand) silences
 * progress on standard error.
 */
@Command(
    name = "tradeoff",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersion.class,
    description = "Differential privacy that gets the most utility out of a privacy budget.")
public final class TradeoffCommand implements Runnable, Progress.Owner {

  /**
   * The commands, in the order {@code --help} lists them. A run builds only the command it names
   * ({@link #commandLine(String...)}): building all fourteen (their options, their library
   * classes) was most of a quick command's start-up.
   */
  private static final Map<String, Class<?>> COMMANDS = commands(
      Map.entry("account", AccountCommand.class),
      Map.entry("noise", NoiseCommand.class),
      Map.entry("audit", AuditCommand.class),
      Map.entry("amplify", AmplifyCommand.class),
      Map.entry("ledger", LedgerCommand.class),
      Map.entry("reproduce", ReproduceCommand.class),
      Map.entry("shuffle", ShuffleCommand.class),
      Map.entry("tune", TuneCommand.class),
      Map.entry("ensemble", EnsembleCommand.class),
      Map.entry("predict", PredictCommand.class),
      Map.entry("completion", CompletionCommand.class),
      Map.entry("label", LabelCommand.class),
      Map.entry("aggregate", AggregateCommand.class),
      Map.entry("cluster", ClusterCommand.class));

  /** The commands by name; {@code LazyCommandsTest} checks each name is its class's own. */
  @SafeVarargs
  private static Map<String, Class<?>> commands(Map.Entry<String, Class<?>>... entries) {
    Map<String, Class<?>> byName = new LinkedHashMap<>();
    for (Map.Entry<String, Class<?>> e : entries) {
      byName.put(e.getKey(), e.getValue());
    }
    return Collections.unmodifiableMap(byName);
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-q", "--quiet"},
      scope = ScopeType.INHERIT,
      description = "Print no progress on standard error (results and errors only).")
  boolean quiet;

  /** Whether standard error is a terminal (set by {@link #main}; false in-process). */
  boolean terminal;

  /** The progress of the run in flight ({@link Progress#of}); set around each execution. */
  Progress progress;

  @Override
  public Progress progress() {
    return progress;
  }

  @Override
  public boolean quiet() {
    return quiet;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * The command line with every command, and Tradeoff's error handling: one line on stderr, status
   * 2 for bad input (with a suggestion for a mistyped command or option), never a stack trace.
   */
  public static CommandLine commandLine() {
    return withHandlers(COMMANDS);
  }

  /**
   * The command line for a run with {@code args}: only the command they name (the first word that
   * is not an option), none for {@code --version} alone, every command in full for {@code
   * completion} (its script walks every option), and every command as an outline when they name
   * none or one that does not exist: the usage lists their names and descriptions, and a typo gets
   * "did you mean", neither of which needs their options built.
   */
  public static CommandLine commandLine(String... args) {
    String first = null;
    boolean version = false;
    for (String a : args) {
      if (!a.startsWith("-")) {
        first = a;
        break;
      }
      version |= a.equals("-V") || a.equals("--version");
    }
    if (first != null && COMMANDS.containsKey(first)) {
      return first.equals("completion") ? commandLine()
          : withHandlers(Map.of(first, COMMANDS.get(first)));
    }
    if (first == null && version) {
      return withHandlers(Map.of());
    }
    Map<String, Object> outlines = new LinkedHashMap<>();
    COMMANDS.forEach((name, command) -> outlines.put(name, outline(name, command)));
    return withHandlers(outlines);
  }

  /**
   * A command's name and description from its {@code @Command}, without its options or
   * subcommands: what the usage's list of commands and a typo's suggestion read.
   */
  private static CommandLine outline(String name, Class<?> command) {
    Command annotation = command.getAnnotation(Command.class);
    CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create().name(name);
    spec.usageMessage().header(annotation.header()).description(annotation.description());
    return new CommandLine(spec);
  }

  /** The root with {@code commands} (each a command class or a built command line) and handlers. */
  private static CommandLine withHandlers(Map<String, ?> commands) {
    CommandLine cli = new CommandLine(new TradeoffCommand());
    commands.forEach(cli::addSubcommand);
    TradeoffCommand root = cli.getCommand();
    cli.setExecutionStrategy(
        parseResult -> {
          CommandLine leaf = parseResult.asCommandLineList().get(parseResult.asCommandLineList().size() - 1);
          String name = leaf.getCommandSpec().qualifiedName(" ");
          try (Progress p = Progress.start(leaf.getErr(), name, root.terminal, root.quiet)) {
            root.progress = p;
            return new CommandLine.RunLast().execute(parseResult);
          } catch (OutOfMemoryError | StackOverflowError e) {
            // picocli hands Exceptions to the handler below but lets Errors through
            throw new CommandLine.ExecutionException(leaf, name + " failed", e);
          } finally {
            root.progress = null;
          }
        });
    cli.setParameterExceptionHandler(
        (ex, args) -> {
          PrintWriter err = ex.getCommandLine().getErr();
          String line = ex.getMessage();
          if (ex.getCause() instanceof TypeConversionException refused
              && ex.getArgSpec() instanceof OptionSpec option) {
            // a converter's refusal ("must be ..., but was ..."): the flag's one-line message
            // (a spec's refusal already names the flag and its key: --mechanism pure:epsilon ...)
            String why = refused.getMessage();
            line = why.startsWith(option.longestName() + " ") ? why
                : option.longestName() + " " + why;
          }
          if (ex instanceof UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            line = line.replaceAll("[.\\s]+$", "")
                + "; did you mean " + closest(u.getUnmatched().get(0), u.getSuggestions()) + "?";
          }
          err.println("tradeoff: " + Shown.line(line));
          err.flush();
          return Failures.BAD_INPUT;
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (ex instanceof BudgetExceededException) {
            commandLine.getErr().println("tradeoff: " + Shown.line(ex.getMessage()));
            commandLine.getErr().flush();
            return Failures.BUDGET_EXCEEDED;
          }
          String command = commandLine.getCommandSpec().qualifiedName(" ").replaceFirst("^tradeoff ", "");
          Failures.Line line = Failures.describe(ex, command, parseResult.originalArgs());
          commandLine.getErr().println("tradeoff: " + line.message());
          commandLine.getErr().flush();
          return line.status();
        });
    return cli;
  }

  /** The candidate nearest to {@code typed} by edit distance (picocli lists them unordered). */
  static String closest(String typed, List<String> candidates) {
    String best = candidates.get(0);
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = editDistance(typed, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int editDistance(String a, String b) {
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      row[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int above = row[j];
        row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1),
            diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length()];
  }

  public static void main(String[] args) {
    // Standard output carries only the command's output: what a library prints to System.out
    // (a Beam runner, Spark, Flink, logging back-ends) goes to standard error.
    java.io.PrintStream out = System.out;
    System.setOut(System.err);
    // a failure in a thread the command did not join (a pool, a runner) still prints one line
    Thread.setDefaultUncaughtExceptionHandler(
        (thread, e) -> {
          System.err.println("tradeoff: " + Failures.describe(e, "a background task", List.of()).message());
          System.err.flush();
        });
    int status;
    try {
      CommandLine cli = commandLine(args);
      cli.setOut(new java.io.PrintWriter(new java.io.OutputStreamWriter(out,
          java.nio.charset.StandardCharsets.UTF_8), true));
      ((TradeoffCommand) cli.getCommand()).terminal = Progress.stderrIsTerminal();
      status = cli.execute(args);
    } catch (Throwable e) { // the guard of last resort: handlers themselves failed
      System.err.println("tradeoff: " + Failures.describe(e, "tradeoff", List.of(args)).message());
      status = Failures.INTERNAL;
    }
    out.flush();
    System.exit(status);
  }
}
