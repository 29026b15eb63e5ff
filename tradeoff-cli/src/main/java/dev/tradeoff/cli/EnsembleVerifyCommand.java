package dev.tradeoff.cli;

import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff ensemble verify}: the exact privacy verifier [DaRRM24, Lemmas 3.4 and 5.1] for a
 * user-supplied γ.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Exactly verify that DaRRM with a given gamma is (m eps, delta)-DP.")
public final class EnsembleVerifyCommand implements Runnable {

  @Spec CommandSpec spec;
  @Mixin GammaSetting options;

  @Option(names = "--gamma-file", required = true,
      description = "JSON array of K + 1 values (or an object with a \"gamma\" array).")
  Path gammaFile;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public void run() {
    EnsembleJson.GammaFile file = EnsembleJson.readGamma(gammaFile);
    DarrmSetting setting = options.resolve(file.gamma().teachers(), file.setting());
    PrivacyCertificate c = new PrivacyVerifier(setting).certify(file.gamma());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("private", c.isPrivate());
    out.putAll(EnsembleJson.certificate(c));
    out.put("setting", EnsembleJson.setting(setting));
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
      return;
    }
    o.printf("%s: max privacy cost %s, bound %s, slack %s (K = %d, m = %s, epsilon = %s)%n",
        c.isPrivate() ? "PRIVATE" : "NOT PRIVATE", Numbers.up(c.maxPrivacyCost()),
        Numbers.down(c.bound()), Numbers.nearest(c.slack()), setting.teachers(),
        Numbers.nearest(setting.allowance()), Numbers.nearest(setting.epsilon()));
    o.flush();
  }
}
