package dev.tradeoff.cli.ensemble;

import dev.tradeoff.cli.io.Numbers;
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
 * {@code tradeoff ensemble verify}: the exact privacy verifier [DaRRM24, Lemmas 3.4 and 5.1] for a
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
  @Mixin GammaSetting options;

  @Option(names = "--gamma-file", required = true,
      description = "JSON array of K + 1 values (or an object with a \"gamma\" array).")
  Path gammaFile;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public Integer call() {
    EnsembleJson.GammaFile file = EnsembleJson.readGamma(gammaFile);
    DarrmSetting setting = options.resolve(file.gamma().teachers(), file.setting(), gammaFile);
    PrivacyCertificate c = new PrivacyVerifier(setting).certify(file.gamma());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("private", c.isPrivate());
    out.putAll(EnsembleJson.certificate(c));
    out.put("setting", EnsembleJson.setting(setting, c));
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
      return verdict(c);
    }
    o.printf("%s: max privacy cost %s, bound %s, slack %s (K = %d, m = %s, epsilon = %s)%n",
        c.isPrivate() ? "PRIVATE" : "NOT PRIVATE", Numbers.up(c.maxPrivacyCost()),
        Numbers.down(c.bound()), Numbers.nearest(c.slack()), setting.teachers(),
        Numbers.nearest(setting.allowance()), Numbers.nearest(setting.epsilon()));
    o.printf("%s %s (requested delta %s)%n", c.isPrivate() ? "proven" : "proven only",
        c.certifiedDelta() < 1 ? EnsembleJson.guarantee(c.certifiedGuarantee())
            : "no delta below 1 at epsilon " + Numbers.up(c.target().epsilon()),
        Numbers.nearest(setting.delta()));
    o.flush();
    return verdict(c);
  }

  /** 0, or {@link #NOT_PRIVATE} with the one refusal line on standard error. */
  private int verdict(PrivacyCertificate c) {
    if (c.isPrivate()) {
      return 0;
    }
    PrintWriter err = spec.commandLine().getErr();
    err.println("tradeoff: gamma is NOT PRIVATE for this setting: max privacy cost "
        + Numbers.up(c.maxPrivacyCost()) + " > bound " + Numbers.down(c.bound()));
    err.flush();
    return NOT_PRIVATE;
  }
}
