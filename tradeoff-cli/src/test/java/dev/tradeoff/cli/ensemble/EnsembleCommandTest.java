package dev.tradeoff.cli.ensemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnsembleCommandTest {

  @TempDir Path dir;

  private record Run(int status, String out, String err) {
    JsonNode json() throws Exception {
      return new ObjectMapper().readTree(out);
    }
  }

  /** A quiet in-process run ({@link CliRun}): no progress line can mix with a refusal's line. */
  private static Run run(String... args) {
    CliRun r = CliRun.of(args);
    return new Run(r.status(), r.out(), r.err());
  }

  @Test
  void optimizeReproducesThePaperK11M3GammaWithCertificateAndErrors() throws Exception {
    Run r = run("ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
        "--teacher-delta", "1e-5", "--json");
    assertThat(r.status()).isZero();
    JsonNode j = r.json();
    double[] expected = {0.939241, 0.542340, 1, 1, 0.977696, 1};
    for (int i = 0; i < 6; i++) {
      assertThat(j.get("gamma").get(6 + i).asDouble()).isCloseTo(expected[i], within(1e-5));
    }
    JsonNode c = j.get("certificate");
    assertThat(c.get("maxPrivacyCost").asDouble())
        .isLessThanOrEqualTo(c.get("bound").asDouble() + c.get("tolerance").asDouble());
    assertThat(c.get("worstCase").isArray()).isTrue();
    JsonNode e = j.get("errors");
    assertThat(e.get("optimized").asDouble())
        .isLessThanOrEqualTo(e.get("subsampling").asDouble())
        .isLessThanOrEqualTo(e.get("randomizedResponse").get("largestCertified").get("error")
            .asDouble())
        .isLessThanOrEqualTo(e.get("randomizedResponse").get("lemmaA1").get("error").asDouble());
    assertThat(e.get("randomizedResponse").get("lemmaA1").get("constant").asDouble())
        .isCloseTo(0.2975, within(1e-4));
    assertThat(e.get("randomizedResponse").get("largestCertified").get("constant").asDouble())
        .isCloseTo(0.8720, within(1e-4));
    // The printed guarantee is the one the certificate proves: never below the requested delta.
    JsonNode setting = j.get("setting");
    assertThat(setting.get("delta").asDouble())
        .isEqualTo(c.get("certifiedDelta").asDouble())
        .isGreaterThanOrEqualTo(setting.get("requestedDelta").asDouble() + (c.get("tolerance")
            .asDouble() - c.get("slack").asDouble()) / 2);
    assertThat(r.out().strip()).doesNotContain("\n"); // stdout is one line of JSON; progress goes to stderr
  }

  @Test
  void baselineVerifyAndAggregateRoundTripThroughFiles() throws Exception {
    Run b = run("ensemble", "baseline", "--kind", "sub", "--teachers", "5", "--m", "3",
        "--epsilon", "0.5", "--teacher-delta", "1e-3", "--json");
    assertThat(b.status()).isZero();
    Path gamma = dir.resolve("g.json");
    Files.writeString(gamma, b.out());
    Run v = run("ensemble", "verify", "--teachers", "5", "--m", "3", "--epsilon", "0.5",
        "--teacher-delta", "1e-3", "--gamma-file", gamma.toString(), "--json");
    assertThat(v.status()).isZero();
    assertThat(v.json().get("private").asBoolean()).isTrue();
    Path votes = dir.resolve("votes.csv");
    Files.writeString(votes, "1,1,1,0,0\n0,0,0,0,1\n1,1,1,1,1\n");
    Path labels = dir.resolve("labels.csv");
    Run a = run("ensemble", "aggregate", "--votes", votes.toString(), "--gamma-file",
        gamma.toString(), "--out", labels.toString(), "--seed", "3", "--json");
    assertThat(a.status()).as(a.err()).isZero();
    assertThat(Files.readAllLines(labels)).hasSize(3).allMatch(s -> s.equals("0")
        || s.equals("1"));
    assertThat(a.json().get("totalBasic").get("epsilon").asDouble())
        .isCloseTo(3 * 1.5, within(1e-9));

    // the same votes compressed (read by what they hold) give the same labels for the same seed
    for (var c : List.of(org.apache.beam.sdk.io.Compression.GZIP,
        org.apache.beam.sdk.io.Compression.BZIP2, org.apache.beam.sdk.io.Compression.ZSTD,
        org.apache.beam.sdk.io.Compression.DEFLATE)) {
      Path packed = dir.resolve("votes.csv" + c.getSuggestedSuffix());
      try (var out = c.writeCompressed(java.nio.channels.Channels.newChannel(
          Files.newOutputStream(packed)))) {
        out.write(java.nio.ByteBuffer.wrap(Files.readAllBytes(votes)));
      }
      Path packedLabels = dir.resolve("labels-" + c + ".csv");
      Run p = run("ensemble", "aggregate", "--votes", packed.toString(), "--gamma-file",
          gamma.toString(), "--out", packedLabels.toString(), "--seed", "3", "--json");
      assertThat(p.status()).as("%s: %s", c, p.err()).isZero();
      assertThat(Files.readAllLines(packedLabels)).isEqualTo(Files.readAllLines(labels));
    }
    Path misnamed = Files.copy(votes, dir.resolve("votes-text.csv.gz"));
    Run refused = run("ensemble", "aggregate", "--votes", misnamed.toString(), "--gamma-file",
        gamma.toString(), "--out", dir.resolve("none.csv").toString(), "--seed", "3");
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.err()).contains("is named as gzip");

    // RFC 4180 (BOM, CRLF, quoted cells) gives the same labels; malformed quoting names its place
    Path quoted = Files.writeString(dir.resolve("votes-quoted.csv"),
        "\uFEFF1,\"1\",1,0,0\r\n0,0,0,0,\"1\"\r\n1,1,1,1,1\r\n");
    Path quotedLabels = dir.resolve("labels-quoted.csv");
    Run q = run("ensemble", "aggregate", "--votes", quoted.toString(), "--gamma-file",
        gamma.toString(), "--out", quotedLabels.toString(), "--seed", "3");
    assertThat(q.status()).as(q.err()).isZero();
    assertThat(Files.readAllLines(quotedLabels)).isEqualTo(Files.readAllLines(labels));
    Path open = Files.writeString(dir.resolve("votes-open.csv"), "1,1,1,0,0\n0,\"0,0,0,1\n");
    Run malformed = run("ensemble", "aggregate", "--votes", open.toString(), "--gamma-file",
        gamma.toString(), "--out", dir.resolve("none.csv").toString(), "--seed", "3");
    assertThat(malformed.status()).isEqualTo(2);
    assertThat(malformed.err().strip()).isEqualTo("tradeoff: votes file " + open
        + ":2, column 2: a quoted cell is never closed");
  }

  @Test
  void verifyReportsANonPrivateGammaAndExitsThree() throws Exception {
    Path gamma = dir.resolve("ones.json");
    Files.writeString(gamma, "[1,1,1,1,1,1,1,1,1,1,1,1]");
    Run v = run("ensemble", "verify", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
        "--gamma-file", gamma.toString(), "--json");
    assertThat(v.status()).isEqualTo(EnsembleVerifyCommand.NOT_PRIVATE).isEqualTo(3);
    assertThat(v.json().get("private").asBoolean()).isFalse();
    assertThat(v.json().get("slack").asDouble()).isNegative();
    Run text = run("ensemble", "verify", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
        "--gamma-file", gamma.toString());
    assertThat(text.status()).isEqualTo(3);
    assertThat(text.out()).startsWith("NOT PRIVATE");
    assertThat(text.err().strip()).startsWith("tradeoff: gamma is NOT PRIVATE").doesNotContain("\n");
    // gamma = 1 on 11 pure teachers at m = 6 sits exactly on the bound: private, exit 0, and the
    // printed delta is the one the tolerance covers, not 0.
    Run tight = run("ensemble", "verify", "--teachers", "11", "--m", "6", "--epsilon", "0.1",
        "--gamma-file", gamma.toString());
    assertThat(tight.status()).isZero();
    assertThat(tight.out()).startsWith("PRIVATE").contains("proven (")
        .doesNotContain(", 0)-DP");
  }

  @Test
  void constantBaselineReportsLemmaA1AndTheLargestCertifiedConstant() throws Exception {
    for (String kind : new String[] {"const", "const-max"}) {
      Run r = run("ensemble", "baseline", "--kind", kind, "--teachers", "11", "--m", "3",
          "--epsilon", "0.1", "--teacher-delta", "1e-5", "--json");
      assertThat(r.status()).as(r.err()).isZero();
      JsonNode rr = r.json().get("randomizedResponse");
      double lemma = rr.get("lemmaA1").get("constant").asDouble();
      double largest = rr.get("largestCertified").get("constant").asDouble();
      assertThat(lemma).isCloseTo(0.2975, within(1e-4));
      assertThat(largest).isCloseTo(0.8720, within(1e-4));
      assertThat(r.json().get("gamma").get(0).asDouble())
          .isEqualTo(kind.equals("const") ? lemma : largest);
      assertThat(rr.get("largestCertified").get("surrogateError").asDouble())
          .isLessThan(rr.get("lemmaA1").get("surrogateError").asDouble());
    }
    Run text = run("ensemble", "baseline", "--kind", "const", "--teachers", "11", "--m", "3",
        "--epsilon", "0.1", "--teacher-delta", "1e-5");
    assertThat(text.out()).contains("lemmaA1:").contains("largestCertified:");
  }

  @Test
  void badInputIsOneLineExitTwoAndWritesNothing() throws Exception {
    Path gamma = dir.resolve("g.json");
    Files.writeString(gamma, "[1,0.5,0.5,1,1,1]");
    Path asym = dir.resolve("asym.json");
    Files.writeString(asym, "[1,0.5,0.4,1]");
    Path outside = dir.resolve("outside.json");
    Files.writeString(outside, "[1.5,0.5,0.5,1.5]");
    Path nonBinary = dir.resolve("nb.csv");
    Files.writeString(nonBinary, "1,2,0,1,1\n");
    Path ragged = dir.resolve("ragged.csv");
    Files.writeString(ragged, "1,0,0,1,1\n1,0\n");
    Path good = dir.resolve("good.json");
    Files.writeString(good, "{\"gamma\":[0.1,0.1,0.1,0.1,0.1,0.1],\"setting\":{\"m\":1,"
        + "\"epsilon\":0.5}}");
    Path labels = dir.resolve("labels.csv");
    String[][] cases = {
        {"ensemble", "optimize", "--teachers", "10", "--m", "3", "--epsilon", "0.1"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "0", "--epsilon", "0.1"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "12", "--epsilon", "0.1"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "0"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "-1"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
            "--teacher-delta", "1"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
            "--delta", "1"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
            "--teacher-delta", "1e-3", "--delta", "1e-4"},
        {"ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon", "0.1",
            "--objective", "nope"},
        {"ensemble", "baseline", "--kind", "xyz", "--teachers", "11", "--m", "3", "--epsilon",
            "0.1"},
        {"ensemble", "verify", "--teachers", "3", "--m", "1", "--epsilon", "0.1",
            "--gamma-file", asym.toString()},
        {"ensemble", "verify", "--teachers", "3", "--m", "1", "--epsilon", "0.1",
            "--gamma-file", outside.toString()},
        {"ensemble", "verify", "--teachers", "3", "--m", "1", "--epsilon", "0.1",
            "--gamma-file", gamma.toString()},
        {"ensemble", "verify", "--teachers", "3", "--m", "1", "--epsilon", "0.1",
            "--gamma-file", dir.resolve("missing.json").toString()},
        {"ensemble", "aggregate", "--votes", nonBinary.toString(), "--gamma-file",
            good.toString(), "--out", labels.toString()},
        {"ensemble", "aggregate", "--votes", ragged.toString(), "--gamma-file",
            good.toString(), "--out", labels.toString()},
        {"ensemble", "plot", "--teachers", "10", "--epsilon", "0.1", "--m", "1,3", "--out",
            dir.resolve("fig.png").toString()},
    };
    for (String[] args : cases) {
      Run r = run(args);
      assertThat(r.status()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("tradeoff: ")
          .doesNotContain("\n");
      assertThat(r.out()).isEmpty();
    }
    assertThat(labels).doesNotExist();
    assertThat(dir.resolve("fig.png")).doesNotExist();
  }

  /**
   * A flag's ε, Δ or δ is refused by its converter, naming the flag; a γ file's by a line naming
   * the file and the field; either way one line, status 2, nothing written.
   */
  @Test
  void aBadPrivacyParameterIsRefusedNamingTheFlagOrTheGammaFilesField() throws Exception {
    Path png = dir.resolve("refused.png");
    String[][] flags = {
        {"--epsilon", "-1", "ensemble", "optimize", "--teachers", "11", "--m", "3"},
        {"--teacher-delta", "1", "ensemble", "baseline", "--kind", "sub", "--teachers", "5",
            "--m", "3", "--epsilon", "0.5"},
        {"--delta", "0", "ensemble", "optimize", "--teachers", "11", "--m", "3", "--epsilon",
            "0.1"},
        {"--epsilon", "NaN", "ensemble", "plot", "--teachers", "5", "--m", "1,2", "--out",
            png.toString()},
        {"--teacher-delta", "-0.5", "ensemble", "plot", "--teachers", "5", "--epsilon", "0.1",
            "--m", "1", "--out", png.toString()},
    };
    for (String[] c : flags) {
      List<String> args = new java.util.ArrayList<>(List.of(c).subList(2, c.length));
      args.addAll(List.of(c[0], c[1]));
      Run r = run(args.toArray(String[]::new));
      assertThat(r.status()).as(args.toString()).isEqualTo(2);
      assertThat(r.err().strip()).as(args.toString()).startsWith("tradeoff: " + c[0] + " must ")
          .endsWith(", but was " + Double.parseDouble(c[1])).doesNotContain("\n");
      assertThat(r.out()).isEmpty();
    }
    assertThat(png).doesNotExist();

    Path gamma = dir.resolve("bad-setting.json");
    Path labels = dir.resolve("refused-labels.csv");
    Path votes = dir.resolve("votes.csv");
    Files.writeString(votes, "1,1,0\n");
    for (String field : List.of("\"epsilon\":-0.5", "\"epsilon\":0.5,\"teacherDelta\":2",
        "\"epsilon\":0.5,\"requestedDelta\":0")) {
      Files.writeString(gamma, "{\"gamma\":[0.1,0.1,0.1,0.1],\"setting\":{\"m\":1," + field
          + "}}");
      String name = field.substring(field.lastIndexOf(',') + 2, field.lastIndexOf(':') - 1);
      for (String[] args : new String[][] {
          {"ensemble", "verify", "--gamma-file", gamma.toString()},
          {"ensemble", "aggregate", "--votes", votes.toString(), "--gamma-file",
              gamma.toString(), "--out", labels.toString()}}) {
        Run r = run(args);
        assertThat(r.status()).as(field).isEqualTo(2);
        assertThat(r.err().strip()).as(field)
            .startsWith("tradeoff: --gamma-file " + gamma + " setting." + name + " must be ")
            .doesNotContain("\n");
        assertThat(r.out()).isEmpty();
      }
    }
    assertThat(labels).doesNotExist();
    // a flag overrides the file's value, and so is what is checked
    Run overridden = run("ensemble", "verify", "--gamma-file", gamma.toString(), "--delta",
        "1e-3");
    assertThat(overridden.err()).doesNotContain("setting.requestedDelta");
  }

  @Test
  void plotWritesAPng() throws Exception {
    Path png = dir.resolve("fig.png");
    Run r = run("ensemble", "plot", "--teachers", "5", "--epsilon", "0.1", "--teacher-delta",
        "1e-5", "--m", "1,2", "--out", png.toString());
    assertThat(r.status()).as(r.err()).isZero();
    byte[] bytes = Files.readAllBytes(png);
    assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
  }

  @Test
  void gnmaxBaselineReproducesTable4SigmaAndReportsTheDataDependentBoundFallback()
      throws Exception {
    Run r = run("ensemble", "baseline", "--kind", "gnmax", "--teachers", "11", "--m", "3",
        "--epsilon", "0.0892", "--teacher-delta", "1e-4", "--votes-per-class", "11,0", "--json");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.json().get("sigma").asDouble()).isCloseTo(21.46, within(0.01));
    assertThat(r.json().get("dataDependentApplies").asBoolean()).isFalse();
  }

  @Test
  void expectedErrorObjectiveAcceptsNamedAndEmpiricalPriors() throws Exception {
    Path prior = dir.resolve("prior.csv");
    Files.writeString(prior, "0.9,0.95\n0.1\n0.85\n");
    for (String p : new String[] {"uniform", "polarized", prior.toString()}) {
      Run r = run("ensemble", "optimize", "--teachers", "5", "--m", "2", "--epsilon", "0.2",
          "--objective", "expected-error", "--prior", p, "--samples", "300", "--json");
      assertThat(r.status()).as(r.err()).isZero();
      JsonNode e = r.json().get("errors");
      assertThat(e.get("optimized").asDouble())
          .isLessThanOrEqualTo(e.get("randomizedResponse").get("lemmaA1").get("error").asDouble());
      assertThat(r.json().get("objective").get("kind").asText()).isEqualTo("expected-error");
    }
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "0.5,1.5\n");
    Run r = run("ensemble", "optimize", "--teachers", "5", "--m", "2", "--epsilon", "0.2",
        "--objective", "expected-error", "--prior", bad.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("tradeoff: prior value on line 1");
  }
}
