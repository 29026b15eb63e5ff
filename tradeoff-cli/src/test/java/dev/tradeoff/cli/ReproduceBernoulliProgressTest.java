package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ReproduceBernoulliProgressTest {

  @Test
  void plainProgressHasNoEscapesAndEndsWithTheTotal() {
    StringWriter text = new StringWriter();
    ReproduceBernoulliCommand.ProgressLine line =
        new ReproduceBernoulliCommand.ProgressLine(new PrintWriter(text), false);
    for (int i = 1; i <= 50; i++) {
      line.update(i, 50, i - 1);
    }
    line.done();
    String out = text.toString();
    assertThat(out).doesNotContain("\r").doesNotContain("\033");
    // periodic lines only (the ten-second period has not passed), plus the final one
    assertThat(out.lines().toList()).containsExactly("reproduce bernoulli: 50/50 points, 49 certified, 0 s");
  }

  @Test
  void terminalProgressRedrawsOneLineInPlace() {
    StringWriter text = new StringWriter();
    ReproduceBernoulliCommand.ProgressLine line =
        new ReproduceBernoulliCommand.ProgressLine(new PrintWriter(text), true);
    line.update(15, 30, 15);
    line.done();
    assertThat(text.toString())
        .startsWith("\r\033[K[" + "#".repeat(15) + " ".repeat(15) + "] 15/30 points, 15 certified")
        .endsWith(System.lineSeparator());
  }
}
