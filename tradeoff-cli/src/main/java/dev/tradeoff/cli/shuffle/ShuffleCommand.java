package dev.tradeoff.cli.shuffle;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tradeoff shuffle}: shuffle-model summation protocols and their exact f-DP analysis. */
@Command(
    name = "shuffle",
    mixinStandardHelpOptions = true,
    description = "Shuffle-model sums (Cheu et al. 2019; [ShuffleGDP21]) with an exact f-DP analysis.",
    subcommands = {ShuffleAnalyzeCommand.class, ShuffleSumCommand.class, ShufflePlotCommand.class})
public final class ShuffleCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
