package dev.tradeoff.cli.account;

import picocli.CommandLine.Command;

/** {@code tradeoff account}: compose, convert and calibrate privacy guarantees. */
@Command(
    name = "account",
    mixinStandardHelpOptions = true,
    description = "Compose, convert and calibrate privacy guarantees.",
    subcommands = {AccountComposeCommand.class, AccountConvertCommand.class, AccountCalibrateCommand.class})
public final class AccountCommand implements Runnable {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
