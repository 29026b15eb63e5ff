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
    // the completion script walks every option: every command in full
    assertThat(TradeoffCommand.commandLine("completion").getSubcommands().get("account")
        .getSubcommands()).hasSize(3);
    // no command or a typo: every command as an outline (usage, "did you mean"), none built
    for (String[] args : new String[][] {{}, {"--help"}, {"-q", "-h"}, {"acount"}}) {
      Map<String, CommandLine> outlines = TradeoffCommand.commandLine(args).getSubcommands();
      assertThat(outlines.keySet()).containsExactlyElementsOf(
          TradeoffCommand.commandLine().getSubcommands().keySet());
      outlines.values().forEach(outline -> {
        assertThat(outline.getSubcommands()).isEmpty();
        assertThat((Object) outline.getCommand()).isNull();
      });
    }
  }

  @Test
  void theOutlinedUsageIsTheFullTreesUsage() {
    for (String[] args : new String[][] {{}, {"--help"}, {"-q", "-h"}}) {
      StringWriter full = new StringWriter();
      CommandLine tree = TradeoffCommand.commandLine();
      tree.setOut(new PrintWriter(full, true));
      assertThat(tree.execute(args)).isZero();
      CliRun outlined = CliRun.of(args);
      assertThat(outlined.status()).isZero();
      assertThat(outlined.out()).isEqualTo(full.toString()).contains("account", "cluster");
    }
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
