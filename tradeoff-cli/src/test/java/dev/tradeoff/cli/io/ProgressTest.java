package dev.tradeoff.cli.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.cli.CliRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Progress on standard error: only for runs over 2 s, escapes only on a terminal, never with --quiet. */
class ProgressTest {

  private static String run(boolean terminal, boolean quiet, long millis) throws Exception {
    StringWriter err = new StringWriter();
    try (Progress p = Progress.start(new PrintWriter(err, true), "demo", terminal, quiet)) {
      p.phase("training");
      p.step(1, 4);
      Thread.sleep(millis);
    }
    return err.toString();
  }

  @Test
  void aLongRunSaysWhatItDoesAndHowLongIsLeftInPlainLinesWhenRedirected() throws Exception {
    String err = run(false, false, 2600);
    assertThat(err).startsWith("demo: training (1/4)  25%, ").contains(" elapsed, about ")
        .contains(" left").doesNotContain("\033").doesNotContain("\r");
  }

  @Test
  void unitsOfUnevenCostShowThePercentageAndALiveDetailButNoTimeLeft() throws Exception {
    StringWriter err = new StringWriter();
    long[] calls = {0};
    try (Progress p = Progress.start(new PrintWriter(err, true), "demo", false, false)) {
      p.phase("points");
      p.count(3, 4);
      p.detail(() -> "call " + ++calls[0]);
      Thread.sleep(2600);
    }
    assertThat(err.toString()).startsWith("demo: points (call ").contains(")  75%, ")
        .contains(" elapsed").doesNotContain(" left");
    assertThat(calls[0]).isPositive();
  }

  @Test
  void onATerminalTheLineIsRedrawnAndClearedAtTheEnd() throws Exception {
    String err = run(true, false, 2600);
    assertThat(err).startsWith("\r\033[Kdemo: training").endsWith("\r\033[K");
  }

  @Test
  void quietAndShortRunsPrintNothing() throws Exception {
    assertThat(run(false, true, 2600)).isEmpty();
    assertThat(run(true, false, 300)).isEmpty();
  }

  @Test
  void aCheckingPhasePrintsNoPlainLineSoARefusalIsOneLine() throws Exception {
    StringWriter err = new StringWriter();
    try (Progress p = Progress.start(new PrintWriter(err, true), "demo", false, false)) {
      p.checking("checking the input");
      Thread.sleep(2600);
    }
    assertThat(err.toString()).isEmpty();
    StringWriter after = new StringWriter();
    try (Progress p = Progress.start(new PrintWriter(after, true), "demo", false, false)) {
      p.checking("checking the input");
      p.phase("labelling");
      Thread.sleep(2600);
    }
    assertThat(after.toString()).startsWith("demo: labelling, ");
  }

  @Test
  void anExpectedDurationIsSaidAtOnceAndCountedDown() throws Exception {
    StringWriter err = new StringWriter();
    try (Progress p = Progress.start(new PrintWriter(err, true), "demo", false, false)) {
      p.expect(600, "timed on a pilot");
      assertThat(err.toString()).isEqualTo("demo: expected to take about 10 min 0 s (timed on a"
          + " pilot)\n");
      p.phase("drawing");
      Thread.sleep(2600);
    }
    assertThat(err.toString().lines().skip(1).findFirst().orElseThrow())
        .startsWith("demo: drawing, ").contains(" elapsed, about 9 min 5");
    StringWriter quiet = new StringWriter();
    try (Progress p = Progress.start(new PrintWriter(quiet, true), "demo", false, true)) {
      p.expect(600, "timed on a pilot");
    }
    assertThat(quiet.toString()).isEmpty();
  }

  @Test
  void quietIsAcceptedBeforeAndAfterTheSubcommand() {
    for (String[] args : new String[][] {
        {"--quiet", "tune", "invocations", "--epsilon", "1", "--epsilon-prime", "1", "--candidates", "3"},
        {"tune", "invocations", "-q", "--epsilon", "1", "--epsilon-prime", "1", "--candidates", "3"}}) {
      CliRun run = CliRun.of(args);
      assertThat(run.status()).as(run.err()).isZero();
      assertThat(run.err()).isEmpty();
    }
  }
}
