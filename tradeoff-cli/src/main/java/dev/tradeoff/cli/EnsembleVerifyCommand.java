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
  @Mixin EnsembleSetting options;

  @Option(names = "--gamma-file", required = true,
      description = "JSON array of K + 1 values (or an object with a \"gamma\" array).")
  Path gammaFile;

  @Option(names = "--json", description = "JSON output.")
  boolean json;

  @Override
  public void run() {
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
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EnsembleJson.print(o, out);
      return;
    }
    o.printf("%s: max privacy cost %.12g, bound %.12g, slack %.3g%n",
        c.isPrivate() ? "PRIVATE" : "NOT PRIVATE", c.maxPrivacyCost(), c.bound(), c.slack());
    o.flush();
  }
}
