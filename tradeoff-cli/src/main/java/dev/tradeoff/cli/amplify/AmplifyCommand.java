package dev.tradeoff.cli.amplify;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tradeoff amplify}: privacy amplification by post-processing. */
@Command(
    name = "amplify",
    mixinStandardHelpOptions = true,
    description = "Privacy amplification by Bernoulli sampling [BernAmp21].",
    subcommands = {AmplifyBernoulliCommand.class, AmplifyPlotCommand.class})
public final class AmplifyCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
