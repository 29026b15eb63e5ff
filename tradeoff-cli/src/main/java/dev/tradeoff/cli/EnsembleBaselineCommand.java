package dev.tradeoff.cli;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble baseline}: γ_Sub (Lemma 3.1), γ_DSub (Theorem 4.1) or the constant γ
 * of randomized response (Lemma A.1), certified by the exact verifier (scaled down if it fails).
 */
@Command(name = "baseline", mixinStandardHelpOptions = true,
    description = "A baseline gamma (sub, dsub, const), certified by the exact verifier.")
public final class EnsembleBaselineCommand implements Runnable {

  @Spec CommandSpec spec;
  @Mixin EnsembleSetting options;

  @Option(names = "--kind", required = true, description = "sub, dsub or const.")
  String kind;

  @Option(names = "--prior-mean", defaultValue = "0.75",
      description = "p-bar of the reported surrogate error (default 0.75).")
  double priorMean;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public void run() {
    Baseline baseline = switch (kind) {
      case "sub" -> Baseline.SUBSAMPLING;
      case "dsub" -> Baseline.DOUBLE_SUBSAMPLING;
      case "const" -> Baseline.RANDOMIZED_RESPONSE;
      default -> throw new IllegalArgumentException("kind must be sub, dsub or const, but was "
          + kind);
    };
    Require.inClosedRange("prior mean", priorMean, 0.5, 1);
    DarrmSetting setting = options.setting();
    PrivacyVerifier.Certified c = baseline.certified(new PrivacyVerifier(setting));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("gamma", c.gamma().values());
    out.put("kind", kind);
    out.put("scale", c.scale());
    out.put("certificate", EnsembleJson.certificate(c.certificate()));
    out.put("surrogateError", DarrmError.surrogate(c.gamma(), priorMean));
    out.put("setting", EnsembleJson.setting(setting));
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
    o.printf("surrogate error %.6g, slack %.3g%n", out.get("surrogateError"),
        c.certificate().slack());
    o.flush();
  }
}
