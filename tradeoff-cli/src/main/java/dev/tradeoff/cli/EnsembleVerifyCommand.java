package dev.tradeoff.cli;

import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble verify}: the exact privacy verifier (DaRRM Lemmas 3.4 and 5.1) for a
 * user-supplied γ. Exits 0 when DaRRM_γ is (mε, δ)-DP, {@link #NOT_PRIVATE} (3) when it is not
 * (after printing the verdict), 2 on bad input.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Exactly verify that DaRRM with a given gamma is (m eps, delta)-DP.",
    exitCodeListHeading = "Exit status:%n",
    exitCodeList = {"0:PRIVATE", "2:bad input", "3:NOT PRIVATE (the verdict is still printed)"})
public final class EnsembleVerifyCommand implements Callable<Integer> {

  /** Exit status of a γ that fails the verifier (1 is left to internal errors, 2 to bad input). */
  public static final int NOT_PRIVATE = 3;

  @Spec CommandSpec spec;
  @Mixin EnsembleSetting options;

  @Option(names = "--gamma-file", required = true,
      description = "JSON array of K + 1 values (or an object with a \"gamma\" array).")
  Path gammaFile;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public Integer call() {
    DarrmSetting setting = options.setting();
    EnsembleJson.GammaFile file = EnsembleJson.readGamma(gammaFile);
    if (file.gamma().teachers() != setting.teachers()) {
      throw new IllegalArgumentException("gamma file must have K + 1 = " + (setting.teachers() + 1)
          + " values, but had " + (file.gamma().teachers() + 1));
    }
    PrivacyCertificate c = new PrivacyVerifier(setting).certify(file.gamma());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("private", c.isPrivate());
    out.putAll(EnsembleJson.certificate(c));
    out.put("setting", EnsembleJson.setting(setting, c));
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
    } else {
      o.printf("%s: max privacy cost %.12g, bound %.12g, slack %.3g%n",
          c.isPrivate() ? "PRIVATE" : "NOT PRIVATE", c.maxPrivacyCost(), c.bound(), c.slack());
      o.printf("%s %s (requested delta %s)%n", c.isPrivate() ? "proven" : "proven only",
          provenGuarantee(c), setting.delta());
      o.flush();
    }
    return c.isPrivate() ? 0 : NOT_PRIVATE;
  }

  /** The guarantee the certificate proves, or a sentence when it proves none (δ ≥ 1). */
  private static String provenGuarantee(PrivacyCertificate c) {
    double d = c.certifiedDelta();
    return d < 1 ? EnsembleJson.guarantee(c.certifiedGuarantee())
        : "no delta below 1 at epsilon " + EnsembleJson.up(c.target().epsilon(), 6);
  }
}
