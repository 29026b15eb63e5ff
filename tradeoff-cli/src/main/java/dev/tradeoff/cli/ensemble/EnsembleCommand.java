package dev.tradeoff.cli.ensemble;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble}: private majority ensembling with DaRRM
 * [DaRRM24] — optimise, certify and apply noise functions γ.
 */
@Command(
    name = "ensemble",
    mixinStandardHelpOptions = true,
    description = "Private majority of K private teachers with DaRRM: optimise, verify, apply.",
    subcommands = {EnsembleOptimizeCommand.class, EnsembleBaselineCommand.class,
        EnsembleVerifyCommand.class, EnsembleAggregateCommand.class, EnsemblePlotCommand.class})
public final class EnsembleCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
