package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/**
 * {@code tradeoff}, {@code --help} and {@code --version} answered from what the build rendered
 * ({@link HelpText}) print exactly what picocli prints for the same arguments, styled and plain.
 */
class HelpTextTest {

  private static final List<String> WORDS =
      List.of("-q", "--quiet", "-h", "--help", "-V", "--version", "account", "-x");

  @Test
  void everyAnsweredArgumentListPrintsWhatPicocliPrints() {
    int answered = 0;
    for (List<String> args : argumentLists(3)) {
      for (boolean styled : new boolean[] {false, true}) {
        Optional<byte[]> answer = HelpText.answer(args.toArray(String[]::new), () -> styled);
        if (answer.isEmpty()) {
          continue;
        }
        answered++;
        assertThat(new String(answer.get(), StandardCharsets.UTF_8))
            .as("tradeoff %s (%s)", String.join(" ", args), styled ? "styled" : "plain")
            .isEqualTo(picocli(args, styled ? Ansi.ON : Ansi.OFF));
      }
    }
    // [], [-q], [--quiet], the 4 asking words alone, and each with one quiet word on either side
    assertThat(answered).isEqualTo(2 * (3 + 4 + 4 * 2 * 2));
  }

  @Test
  void theUsageIsTheWholeUsageAndStyledOnlyWhenAsked() {
    String plain = new String(HelpText.answer(new String[] {"--help"}, () -> false).orElseThrow(),
        StandardCharsets.UTF_8);
    String styled = new String(HelpText.answer(new String[] {"--help"}, () -> true).orElseThrow(),
        StandardCharsets.UTF_8);
    assertThat(plain).startsWith("Usage: tradeoff").contains("account", "cluster")
        .doesNotContain("\u001b[");
    assertThat(styled).contains("\u001b[").isNotEqualTo(plain);
    assertThat(HelpText.usage(Ansi.OFF)).isEqualTo(plain);
  }

  @Test
  void anythingElseIsLeftToPicocli() {
    for (String[] args : new String[][] {{"-q", "-q"}, {"--help", "--version"}, {"-h", "-h"},
        {"-qh"}, {"--help", "account"}, {"account", "--help"}, {"acount"}, {"--", "--help"}}) {
      assertThat(HelpText.answer(args, () -> false)).as(String.join(" ", args)).isEmpty();
    }
    System.setProperty("picocli.usage.width", "120");
    try {
      assertThat(HelpText.answer(new String[] {"--help"}, () -> false)).isEmpty();
    } finally {
      System.clearProperty("picocli.usage.width");
    }
  }

  /** What the command line prints on standard output for {@code args}, which must succeed. */
  private static String picocli(List<String> args, Ansi ansi) {
    String[] array = args.toArray(String[]::new);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = TradeoffCommand.commandLine(array);
    cli.setColorScheme(CommandLine.Help.defaultColorScheme(ansi));
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    assertThat(cli.execute(array)).as(String.join(" ", args)).isZero();
    assertThat(err.toString()).isEmpty();
    return out.toString();
  }

  /** Every list of at most {@code length} words from {@link #WORDS}. */
  private static List<List<String>> argumentLists(int length) {
    List<List<String>> all = new ArrayList<>();
    all.add(List.of());
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).size() < length) {
        for (String w : WORDS) {
          List<String> longer = new ArrayList<>(all.get(i));
          longer.add(w);
          all.add(longer);
        }
      }
    }
    return all;
  }
}
