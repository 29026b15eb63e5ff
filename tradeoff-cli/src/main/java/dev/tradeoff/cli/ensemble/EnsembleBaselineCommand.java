package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.ensemble.gnmax.GnMax;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble baseline}: γ_Sub (Lemma 3.1), γ_DSub (Theorem 4.1), the constant γ of
 * randomized response (Lemma A.1) or the largest constant the exact verifier certifies, certified
 * by the exact verifier (scaled down if it fails). For the constants both are reported side by
 * side.
 */
@Command(name = "baseline", mixinStandardHelpOptions = true,
    description = "A baseline gamma (sub, dsub, const), certified by the exact verifier.")
public final class EnsembleBaselineCommand implements Runnable {

  @Spec CommandSpec spec;
  @Mixin EnsembleSetting options;

  @Option(names = "--kind", required = true,
      description = "sub, dsub, const (Lemma A.1), const-max (the largest constant the exact "
          + "verifier certifies), or gnmax (non-private teachers, sigma by RDP grid search).")
  String kind;

  @Option(names = "--prior-mean", defaultValue = "0.75",
      description = "p-bar of the reported surrogate error (default 0.75).")
  double priorMean;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Option(names = "--votes-per-class", split = ",",
      description = "gnmax: per-class vote counts for the data-dependent bound (Algorithm 6).")
  int[] votesPerClass;

  @Override
  public void run() {
    if (kind.equals("gnmax")) {
      gnmax();
      return;
    }
    Baseline baseline = switch (kind) {
      case "sub" -> Baseline.SUBSAMPLING;
      case "dsub" -> Baseline.DOUBLE_SUBSAMPLING;
      case "const" -> Baseline.RANDOMIZED_RESPONSE;
      case "const-max" -> Baseline.LARGEST_CERTIFIED_CONSTANT;
      default -> throw new IllegalArgumentException(
          "kind must be sub, dsub, const, const-max or gnmax, but was " + kind);
    };
    Inputs.range("--prior-mean", priorMean, 0.5, 1, "the mean teacher accuracy p-bar");
    DarrmSetting setting = options.setting();
    PrivacyVerifier verifier = new PrivacyVerifier(setting);
    PrivacyVerifier.Certified c = baseline.certified(verifier);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("gamma", c.gamma().values());
    out.put("kind", kind);
    out.put("scale", c.scale());
    out.put("certificate", EnsembleJson.certificate(c.certificate()));
    out.put("surrogateError", DarrmError.surrogate(c.gamma(), priorMean));
    Map<String, Object> constants = new LinkedHashMap<>();
    if (kind.startsWith("const")) {
      for (Baseline b : List.of(Baseline.RANDOMIZED_RESPONSE,
          Baseline.LARGEST_CERTIFIED_CONSTANT)) {
        NoiseFunction g = b == baseline ? c.gamma() : b.certified(verifier).gamma();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("constant", g.at(0));
        entry.put("surrogateError", DarrmError.surrogate(g, priorMean));
        constants.put(b == Baseline.RANDOMIZED_RESPONSE ? "lemmaA1" : "largestCertified", entry);
      }
      out.put("randomizedResponse", constants);
    }
    out.put("setting", EnsembleJson.setting(setting, c.certificate()));
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
      return;
    }
    double[] g = c.gamma().values();
    o.printf("%s baseline (scaled by %.6f to pass the verifier)%n", kind, c.scale());
    for (int l = 0; l < g.length; l++) {
      o.printf("  %3d  %.6f%n", l, g[l]);
    }
    o.printf("surrogate error %.6g, slack %.3g: proven %s%n", out.get("surrogateError"),
        c.certificate().slack(), EnsembleJson.guarantee(c.certificate().certifiedGuarantee()));
    constants.forEach((name, entry) -> {
      Map<?, ?> e = (Map<?, ?>) entry;
      o.printf("constant gamma, %-16s %.6g (surrogate error %.6g)%n", name + ":",
          (Double) e.get("constant"), (Double) e.get("surrogateError"));
    });
    o.flush();
  }

  /** GNMax at the per-query target (mε, mΔ) of [DaRRM24, Appendix D.2.1]. */
  private void gnmax() {
    DarrmSetting setting = options.setting();
    double targetDelta = setting.allowance() * setting.teacherDelta();
    if (!(targetDelta > 0 && targetDelta < 1)) {
      throw new IllegalArgumentException("--m × --teacher-delta (GNMax's target delta) must be in"
          + " (0, 1), but was " + targetDelta);
    }
    if (votesPerClass != null) {
      Inputs.count("--votes-per-class (classes)", votesPerClass.length, 2, 1000);
      for (int v : votesPerClass) {
        Inputs.count("--votes-per-class", v, 0, setting.teachers());
      }
    }
    GnMax g = GnMax.calibrated(new ApproxDp(setting.allowance() * setting.epsilon(), targetDelta));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", "gnmax");
    out.put("sigma", g.sigma());
    out.put("lambda", g.lambda());
    out.put("gaussianRdp", g.gaussianRdp());
    out.put("targetEpsilon", setting.allowance() * setting.epsilon());
    out.put("targetDelta", targetDelta);
    if (votesPerClass != null) {
      double rdp = g.dataDependentRdp(votesPerClass);
      out.put("dataDependentRdp", rdp);
      out.put("dataDependentApplies", rdp < g.gaussianRdp());
      out.put("epsilonAtTargetDelta", g.toDp(rdp, targetDelta).epsilon());
    }
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
    } else {
      out.forEach((k, v) -> o.printf("%-22s %s%n", k, Numbers.shown(v)));
      o.flush();
    }
  }
}
