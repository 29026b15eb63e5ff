package dev.tradeoff.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.selection.expost.TuningOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of docs/*.md is preceded by {@code <!-- example: Name -->} and must be, line for
 * line, the imports that the region between {@code // [example]} and {@code // [/example]} of
 * {@code Name.java} here uses, a blank line, then that region (so the documentation shows code that
 * compiles, with the imports a reader needs); each example is run and its result checked.
 */
class DocsExamplesTest {

  private static final Path DOCS = Path.of("..", "docs");
  private static final Path HERE = Path.of("src", "test", "java", "dev", "tradeoff", "docs");
  private static final Pattern BLOCK =
      Pattern.compile("<!-- example: (\\w+) -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

  @TempDir Path tmp;

  @Test
  void everyJavaBlockInTheDocsIsACompiledExample() throws IOException {
    List<String> seen = new ArrayList<>();
    try (var pages = Files.list(DOCS)) {
      for (Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
        String text = Files.readString(page);
        assertThat(text.split("```java", -1).length - 1)
            .as("every java block of %s is marked as an example", page)
            .isEqualTo(count(BLOCK.matcher(text)));
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
          String example = snippet(Files.readString(HERE.resolve(m.group(1) + ".java")));
          assertThat(m.group(2)).as("%s in %s", m.group(1), page).isEqualTo(example);
          seen.add(m.group(1));
        }
      }
    }
    assertThat(seen).contains("AccountingExample", "MechanismsExample", "AuditExample",
        "AmplificationExample", "EnsembleExample", "LearningExample", "BeamExample",
        "ShuffleExample", "SelectionExample", "PateExample", "PateBeamExample");
  }

  private static int count(Matcher m) {
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** The imports the marked region uses, a blank line, then the region. */
  static String snippet(String source) {
    String region = region(source);
    List<String> imports = source.lines()
        .filter(line -> line.startsWith("import "))
        .filter(line -> Pattern.compile("\\b" + Pattern.quote(simpleName(line)) + "\\b")
            .matcher(region).find())
        .toList();
    return imports.isEmpty() ? region : String.join("\n", imports) + "\n\n" + region;
  }

  /** The name an import brings into scope: its last segment. */
  private static String simpleName(String importLine) {
    String name = importLine.substring(0, importLine.indexOf(';')).strip();
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** The marked region, de-indented by the marker's indentation. */
  static String region(String source) {
    String[] lines = source.split("\n", -1);
    StringBuilder out = new StringBuilder();
    int indent = -1;
    for (String line : lines) {
      if (line.strip().equals("// [example]")) {
        indent = line.indexOf('/');
        continue;
      }
      if (line.strip().equals("// [/example]")) {
        break;
      }
      if (indent >= 0) {
        out.append(line.length() >= indent ? line.substring(indent) : line.strip()).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  void accountingExampleGivesTheGdpValue() {
    // Exact value 91.81728962 (REPRODUCTION.md, PLD accounting); PLD is an upper bound within 1e-4.
    assertThat(AccountingExample.run()).isBetween(91.81728962, 91.8174);
  }

  @Test
  void mechanismsExampleStatesItsGuarantee() {
    MechanismsExample.Out out = MechanismsExample.run();
    assertThat(out.guarantee()).isEqualTo(new PureDp(1.0));
    assertThat(out.noisy()).isFinite();
  }

  @Test
  void auditExamplePassesForACorrectLaplace() {
    var result = AuditExample.run();
    assertThat(result.passed()).isTrue();
    assertThat(result.epsilonLowerBound()).isBetween(0.0, 1.0);
  }

  @Test
  void amplificationExampleMatchesThePrintedValue() {
    assertThat(AmplificationExample.run()).isCloseTo(0.7730714246, within(1e-6));
  }

  @Test
  void pateExampleDecidesEveryQueryWithinItsBudget() {
    var run = PateExample.run();
    assertThat(run.processed()).isEqualTo(3);
    assertThat(run.guarantee()).isEqualTo(new ApproxDp(1, 1e-5));
  }

  @Test
  void pateBeamExampleRunsAndDeclaresItsChargeBeforehand() {
    var aggregation = PateBeamExample.run();
    assertThat(aggregation.labelsEvent()).isEqualTo(dev.tradeoff.ensemble.pate.PateRun
        .exAnteEvent(aggregation.aggregator(), 2));
    assertThat(aggregation.release()).isPresent();
  }

  @Test
  void ensembleExampleCertifiesGammaSub() {
    EnsembleExample.Out out = EnsembleExample.run();
    assertThat(out.certified()).isTrue();
    assertThat(out.label()).isBetween(0, 1);
  }

  @Test
  void learningExampleEnsembleIsAccurate() {
    assertThat(LearningExample.run()).isGreaterThan(0.95);
  }

  @Test
  void beamExampleReleasesEveryPageAndEveryQuery() {
    BeamExample.Out out = BeamExample.run(tmp.resolve("out"));
    assertThat(out.lines()).hasSize(5);
    assertThat(out.lines()).anyMatch(l -> l.startsWith("contact,"))
        .anyMatch(l -> l.startsWith("0,")).anyMatch(l -> l.startsWith("1,"));
    assertThat(out.epsilon()).isLessThanOrEqualTo(2.0);
  }

  @Test
  void shuffleExampleRunsTheProtocolAndGivesTheExactPrivacy() {
    ShuffleExample.Out out = ShuffleExample.run();
    // Var z = (n/(n - lambda))^2 n p (1 - p), p = lambda/(2n) = 0.29: standard error 10.80.
    double variance = Math.pow(100.0 / 42, 2) * 100 * 0.29 * 0.71;
    assertThat(out.sum().variance()).isCloseTo(variance, within(1e-9));
    assertThat(out.sum().standardError()).isCloseTo(10.80, within(0.01));
    // z = n/(n - lambda) (ones - lambda/2), a multiple of 100/42 minus 69.05; 11.9 with seed 2024.
    assertThat(out.sum().value()).isCloseTo(11.90, within(0.01));
    assertThat(Math.abs(out.sum().value() - 30)).isLessThan(4 * out.sum().standardError());
    // REPRODUCTION.md, Shuffle model: exact epsilon 0.417 at 1e-6, exact mu 0.1114, paper mu*
    // 0.4791989308, Theorem 2 confirmed for (100, 58).
    assertThat(out.epsilon()).isCloseTo(0.417, within(5e-4));
    assertThat(out.mu()).isCloseTo(0.1114, within(5e-4));
    assertThat(out.paperMu()).isCloseTo(0.4791989308, within(1e-9));
    assertThat(out.confirmed()).isTrue();
    assertThat(out.paperEpsilon()).isCloseTo(2.15, within(0.005));
    assertThat(out.paperEpsilon()).isGreaterThan(out.epsilon());
  }

  @Test
  void selectionExampleChoosesTheBestRateAndChargesItsExPostEpsilon() {
    SelectionExample.Out out = SelectionExample.run(tmp);
    // Theorem 12: T = ceil(2 * 20 * ln 20) = ceil(119.83).
    assertThat(out.copies()).isEqualTo(120);
    assertThat(out.run().outcome()).isInstanceOf(TuningOutcome.Selected.class);
    var chosen = (TuningOutcome.Selected<String>) out.run().outcome();
    assertThat(chosen.result().output()).isEqualTo("lr=0.1");
    assertThat(chosen.index()).isBetween(120, 239);
    assertThat(chosen.result().score()).isCloseTo(0.977, within(5e-4));
    // Theorem 11: 2 * 0.1 + 0.1, rounded up; the ledger holds exactly that, once.
    assertThat(out.exPostEpsilon()).isEqualTo(Math.nextUp(0.3)).isGreaterThanOrEqualTo(0.3);
    assertThat(out.spent()).isEqualTo(new PureDp(out.exPostEpsilon()));
    assertThat(((PureDp) out.remaining()).epsilon()).isCloseTo(0.7, within(1e-12))
        .isLessThanOrEqualTo(1 - out.exPostEpsilon());
    assertThat(out.entries()).isEqualTo(1);
  }
}
