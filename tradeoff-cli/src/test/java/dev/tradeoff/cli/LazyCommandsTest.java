package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A run builds only the command its arguments name ({@link TradeoffCommand#commandLine(String...)}),
 * and that command behaves exactly as in the full tree.
 */
class LazyCommandsTest {

  @Test
  void everyCommandIsRegisteredUnderItsOwnName() {
    Map<String, CommandLine> all = TradeoffCommand.commandLine().getSubcommands();
    assertThat(all).hasSize(14);
    all.forEach((name, cli) -> assertThat(
        cli.getCommand().getClass().getAnnotation(Command.class).name()).isEqualTo(name));
  }

  @Test
  void aRunBuildsOnlyTheCommandItNames() {
    assertThat(TradeoffCommand.commandLine("-q", "account", "convert", "--gdp-mu", "1")
        .getSubcommands()).containsOnlyKeys("account");
    assertThat(TradeoffCommand.commandLine("--version").getSubcommands()).isEmpty();
    // no command, a typo or the completion script: every command (usage, "did you mean")
    assertThat(TradeoffCommand.commandLine().getSubcommands()).hasSize(14);
    assertThat(TradeoffCommand.commandLine("--help").getSubcommands()).hasSize(14);
    assertThat(TradeoffCommand.commandLine("acount").getSubcommands()).hasSize(14);
    assertThat(TradeoffCommand.commandLine("completion").getSubcommands()).hasSize(14);
  }

  @Test
  void theNamedCommandAloneGivesTheSameOutputAsTheFullTree() {
    String[] args = {"account", "convert", "--gdp-mu", "1", "--delta", "1e-5", "--json"};
    CliRun lazy = CliRun.of(args);
    assertThat(lazy.status()).isZero();
    StringWriter out = new StringWriter();
    CommandLine full = TradeoffCommand.commandLine();
    full.setOut(new PrintWriter(out, true));
    assertThat(full.execute(args)).isZero();
    assertThat(lazy.out()).isEqualTo(out.toString());
    CliRun typo = CliRun.of("acount", "convert");
    assertThat(typo.status()).isEqualTo(2);
    assertThat(typo.err()).contains("did you mean account?");
    assertThat(CliRun.of("--quiet", "tune", "invocations", "--epsilon", "0.1",
        "--epsilon-prime", "0.01", "--candidates", "5").status()).isZero();
  }
}
