package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.conversion.GaussianDpConversion;
import dev.tradeoff.accounting.conversion.RdpConversion;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Report;
import dev.tradeoff.cli.options.PrivacyParameters;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tradeoff account convert}: read one guarantee as (ε, δ), or (ε, δ) as Gaussian DP. */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Convert a guarantee to (epsilon, delta): give --delta for epsilon(delta) or --epsilon for"
          + " delta(epsilon).",
      "GDP uses the exact profile [ShuffleGDP21, Cor. 2.5]; zCDP and RDP use the improved RDP"
          + " conversion (Canonne-Kamath-Steinke 2020) at the best order.",
      "--to-gdp with --epsilon and --delta gives the largest mu whose GDP implies (epsilon, delta)."
    })
final class AccountConvertCommand implements Callable<Integer> {

  static final class Source {
    @Option(names = "--gdp-mu", paramLabel = "MU", converter = PrivacyParameters.GdpMu.class,
        description = "A mu-GDP guarantee.")
    Double gdpMu;

    @Option(names = "--zcdp-rho", paramLabel = "RHO", converter = PrivacyParameters.ZcdpRho.class,
        description = "A rho-zCDP guarantee.")
    Double zcdpRho;

    @Option(
        names = "--rdp",
        paramLabel = "A=E[,A=E...]",
        description = "A Renyi DP curve: order=epsilon pairs, e.g. 2=0.1,8=0.5.")
    String rdp;

    @Option(names = "--to-gdp", description = "Convert (--epsilon, --delta) to the largest mu.")
    boolean toGdp;
  }

  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(names = "--delta", paramLabel = "D", converter = PrivacyParameters.Delta.class,
      description = "Report epsilon at this delta.")
  Double delta;

  @Option(names = "--epsilon", paramLabel = "E", converter = PrivacyParameters.EpsilonOrZero.class,
      description = "Report delta at this epsilon.")
  Double epsilon;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  /** Largest Renyi order and epsilon of an --rdp curve. */
  static final double MAX_ORDER = 1e6;
  static final double MAX_RDP_EPSILON = 1e6;

  @Override
  public Integer call() {
    Report report = new Report();
    if (source.toGdp) {
      if (delta == null || epsilon == null) {
        throw new IllegalArgumentException("--to-gdp needs both --epsilon and --delta");
      }
      Inputs.epsilon("--epsilon", epsilon); // a conversion to GDP needs epsilon > 0
      report.put("from", "approx").put("epsilon", epsilon).put("delta", delta);
      report.putRoundedDown("mu", GaussianDpConversion.mu(epsilon, delta));
    } else {
      if ((delta == null) == (epsilon == null)) {
        throw new IllegalArgumentException("exactly one of --delta and --epsilon must be given");
      }
      if (source.gdpMu != null) {
        double mu = source.gdpMu;
        report.put("from", "gdp").put("mu", mu);
        if (delta != null) {
          report.put("epsilon", GaussianDpConversion.epsilon(mu, delta));
          report.put("delta", delta);
        } else {
          report.put("epsilon", epsilon);
          report.put("delta", GaussianDpConversion.delta(mu, epsilon));
        }
      } else {
        RenyiDp curve;
        if (source.zcdpRho != null) {
          double rho = source.zcdpRho;
          report.put("from", "zcdp").put("rho", rho);
          curve = RdpConversion.zcdpToRenyiDp(new ZeroConcentratedDp(rho), RenyiDp.defaultOrders());
        } else {
          curve = parseCurve(source.rdp);
          report.put("from", "rdp").put("rdp", source.rdp);
        }
        if (delta != null) {
          RdpConversion.EpsilonAtOrder best =
              RdpConversion.bestImproved(curve, delta);
          report.put("epsilon", best.epsilon()).put("delta", delta).put("order", best.order());
        } else {
          report.put("epsilon", epsilon);
          report.put("delta", RdpConversion.toProfile(curve).delta(epsilon));
        }
      }
    }
    report.print(spec.commandLine().getOut(), json);
    return 0;
  }

  private static RenyiDp parseCurve(String text) {
    Map<Double, Double> points = new TreeMap<>();
    for (String pair : text.split(",", -1)) {
      String[] parts = pair.split("=", -1);
      if (parts.length != 2) {
        throw new IllegalArgumentException(
            "--rdp must look like ORDER=EPSILON[,ORDER=EPSILON], but was '" + text + "'");
      }
      double order = Inputs.rangeAbove("--rdp order", number("--rdp order", parts[0], text), 1,
          MAX_ORDER, "a Renyi order alpha");
      double eps = Inputs.range("--rdp epsilon", number("--rdp epsilon", parts[1], text), 0,
          MAX_RDP_EPSILON, "a Renyi epsilon");
      if (points.put(order, eps) != null) {
        throw new IllegalArgumentException("--rdp must name each order once, but " + parts[0] + " repeats");
      }
    }
    double[] orders = points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
    double[] eps = points.values().stream().mapToDouble(Double::doubleValue).toArray();
    return RenyiDp.of(orders, eps);
  }

  private static double number(String what, String raw, String text) {
    try {
      return Double.parseDouble(raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a number, but was '" + raw + "' in '" + text + "'");
    }
  }
}
