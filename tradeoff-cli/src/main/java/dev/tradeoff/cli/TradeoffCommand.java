package dev.tradeoff.cli;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The {@code tradeoff} command. Every subcommand prints a readable table by default and JSON with
 * {@code --json}; bad input prints one line on standard error and exits with status 2.
 */
@Command(
    name = "tradeoff",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersion.class,
    description = "Differential privacy that gets the most utility out of a privacy budget.",
    subcommands = {
      AccountCommand.class,
      NoiseCommand.class,
      AuditCommand.class,
      AmplifyCommand.class,
      LedgerCommand.class,
      ReproduceCommand.class,
      ShuffleCommand.class,
      TuneCommand.class,
      EnsembleCommand.class,
      PredictCommand.class,
      LabelCommand.class,
      ClusterCommand.class
    })
public final class TradeoffCommand implements Runnable {

  /** Exit status for bad input (parameters out of range, malformed specs). */
  public static final int BAD_INPUT = 2;

  /** Exit status when a privacy budget refuses a request (nothing charged, nothing released). */
  public static final int BUDGET_EXCEEDED = 3;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Builds the command line with Tradeoff's error handling: one line on stderr, status 2. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new TradeoffCommand());
    cli.setParameterExceptionHandler(
        (ex, args) -> {
          ex.getCommandLine().getErr().println("tradeoff: " + ex.getMessage());
          return BAD_INPUT;
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (ex instanceof BudgetExceededException) {
            commandLine.getErr().println("tradeoff: " + ex.getMessage());
            return BUDGET_EXCEEDED;
          }
          if (ex instanceof IllegalArgumentException) {
            commandLine.getErr().println("tradeoff: " + ex.getMessage());
            return BAD_INPUT;
          }
          throw ex;
        });
    return cli;
  }

  /**
   * Runs the command. Standard output carries only the command's own output: whatever a library
   * (a Beam runner, Spark, Flink, logging back-ends) prints to {@code System.out} goes to standard
   * error instead.
   */
  public static void main(String[] args) {
    java.io.PrintStream out = System.out;
    System.setOut(System.err);
    CommandLine cli = commandLine();
    cli.setOut(new java.io.PrintWriter(new java.io.OutputStreamWriter(out,
        java.nio.charset.StandardCharsets.UTF_8), true));
    int status = cli.execute(args);
    out.flush();
    System.exit(status);
  }
}
