package dev.tradeoff.experiments.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Accuracy;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.experiments.predict.KnowledgeTransfer.Privacy;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The predict report explains itself, and renders in a real browser (headless Chromium, Debian's
 * {@code chromium}; CI installs it when it runs as root) without a console error. The browser test
 * also checks that a missing chart does produce a console error, so a silent browser means a clean
 * page, and it leaves the page and its screenshot in {@code target/predict-report/} for review.
 */
class PredictReportTest {

  @TempDir Path dir;

  /** A run of the size of the paper's (K = 11, m = 3, n = 10,000), with δ far above 1/n. */
  private static KnowledgeTransfer.Result result() {
    DarrmSetting setting = DarrmSetting.withDefaultDelta(11, 0.0892, 1e-4, 3);
    List<Accuracy> accuracy = new ArrayList<>();
    List<Privacy> privacy = new ArrayList<>();
    ApproxDp perQuery = setting.target();
    for (int q : List.of(20, 50, 100)) {
      for (Aggregator a : KnowledgeTransfer.TABLE1) {
        accuracy.add(new Accuracy(q, a, 0.8 + 0.05 * KnowledgeTransfer.TABLE1.indexOf(a), 0.02));
      }
      ApproxDp total = new ApproxDp(perQuery.epsilon() * Math.sqrt(q) * 3,
          q * perQuery.delta() + 1e-4);
      privacy.add(new Privacy(q, perQuery, total,
          new ApproxDp(total.epsilon() * 0.8, total.delta()), "pld", setting.teacher()));
    }
    double[] gammaSub = new double[12];
    double[] gammaOpt = new double[12];
    for (int l = 0; l < 12; l++) {
      gammaSub[l] = Math.abs(l - 5.5) / 5.5;
      gammaOpt[l] = Math.min(1, 1.3 * gammaSub[l]);
    }
    return new KnowledgeTransfer.Result(new ApproxDp(0.0892, 1e-4), setting, 12.5, gammaSub,
        gammaOpt, accuracy, privacy, 0.93, 10_000, 2_000);
  }

  private static KnowledgeTransfer.Config config(OptionalLong seed) {
    return new KnowledgeTransfer.Config(11, 3,
        new KnowledgeTransfer.Training(Double.NaN, 1e-4, 12, 1, 5), List.of(20, 50, 100), 10,
        BeamRunner.parse("direct"), seed, Optional.empty());
  }

  private static final PredictReport.Provenance PROVENANCE = new PredictReport.Provenance(
      "tradeoff predict --seed 7 --report out", "0.1.0");

  @Test
  void theReportExplainsWhatIsProtectedHowAndHowMuch() throws Exception {
    PredictReport.write(dir, result(), config(OptionalLong.of(7)), PROVENANCE);
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html)
        .contains("one training record", "one record added or removed", "add/remove relation")
        .contains("GNMax", "Gaussian NoisyMax", "Data-dependent Randomized Response Majority")
        .contains("&gamma;_Sub", "&gamma;_opt", "m, the privacy allowance", "&Delta; and &delta;")
        .contains("1/n", "Warning: &delta; is large", "(n = 10000 training records)")
        .contains("tradeoff predict --seed 7 --report out", "0.1.0", "seeded (seed 7)")
        .contains("privacy-epsilon.png", "privacy-delta.png")
        .doesNotContain("tightest");
    for (String chart : PredictReport.charts()) {
      assertThat(dir.resolve(chart)).isNotEmptyFile();
    }
  }

  @Test
  void aSmallDeltaIsNotWarnedAbout() throws Exception {
    KnowledgeTransfer.Result r = result();
    List<Privacy> tiny = r.privacy().stream().map(p -> new Privacy(p.queries(), p.perQuery(),
        new ApproxDp(p.totalGeneral().epsilon(), 1e-7), new ApproxDp(p.totalAccountant().epsilon(),
        1e-7), p.accountant(), p.postProcessing())).toList();
    KnowledgeTransfer.Result small = new KnowledgeTransfer.Result(r.teacher(), r.setting(),
        r.gnmaxSigma(), r.gammaSub(), r.gammaOpt(), r.accuracy(), tiny,
        r.nonPrivateMajorityAccuracy(), r.trainSize(), r.testSize());
    PredictReport.write(dir, small, config(OptionalLong.empty()), PROVENANCE);
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html).doesNotContain("Warning").contains("is below 1/n")
        .contains("secure (not reproducible)").doesNotContain("This run was seeded");
  }

  @Test
  void rendersInHeadlessChromiumWithoutAConsoleError() throws Exception {
    String chromium = chromium();
    assumeTrue(chromium != null, "chromium is not installed and could not be (Debian: apt-get"
        + " install -y chromium; .ci/run installs it when run as root): browser check skipped");
    PredictReport.write(dir, result(), config(OptionalLong.of(7)), PROVENANCE);
    Path screenshot = dir.resolve("screenshot.png");
    List<String> console = render(chromium, dir.resolve("report.html"), screenshot);
    assertThat(console).as("console messages of the report").isEmpty();
    assertThat(Files.readAllBytes(screenshot)).startsWith((byte) 0x89, (byte) 'P', (byte) 'N');
    Path review = Files.createDirectories(Path.of("target", "predict-report"));
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.copy(f, review.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }

    // the check can fail: without one chart, the page reports it on the console
    Files.delete(dir.resolve("gamma.png"));
    assertThat(render(chromium, dir.resolve("report.html"), dir.resolve("broken.png")))
        .anyMatch(line -> line.contains("missing chart: gamma.png"));
  }

  /** Console lines Chromium logged while rendering {@code page} into a full-page screenshot. */
  private static List<String> render(String chromium, Path page, Path screenshot)
      throws Exception {
    Path log = Files.createTempFile("chromium", ".log");
    Process p = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--hide-scrollbars", "--enable-logging=stderr", "--v=0", "--window-size=1100,5200",
        "--screenshot=" + screenshot.toAbsolutePath(), page.toUri().toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    Files.delete(log);
    return lines.stream().filter(l -> l.contains(":CONSOLE")).toList();
  }

  private static String chromium() {
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String dirName : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
        Path candidate = Path.of(dirName, name);
        if (Files.isExecutable(candidate)) {
          return candidate.toString();
        }
      }
    }
    return null;
  }
}
