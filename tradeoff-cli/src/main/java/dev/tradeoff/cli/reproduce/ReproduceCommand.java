package dev.tradeoff.cli.reproduce;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tradeoff reproduce}: regenerate the papers' figures and tables. */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    description = "Regenerate the figures and tables of the papers Tradeoff implements.",
    subcommands = {
      ReproduceBernoulliCommand.class,
      ReproduceStabilityCommand.class,
      ReproduceShuffleCommand.class,
      ReproduceExpostCommand.class,
      ReproduceDarrmCommand.class
    })
public final class ReproduceCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
