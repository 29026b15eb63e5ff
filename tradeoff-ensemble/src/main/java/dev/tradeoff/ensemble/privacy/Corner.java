package dev.tradeoff.ensemble.privacy;

import java.util.List;

/**
 * A corner (p, p′) of the feasible region F_i of one (ε, Δ)-DP teacher's probabilities of voting 1
 * on adjacent datasets [DaRRM24, Lemma 5.1, Figure 5]: 8 corners when Δ &gt; 0, 4 when Δ = 0.
 *
 * @param p Pr[M_i(D) = 1]
 * @param pPrime Pr[M_i(D′) = 1]
 */
public record Corner(double p, double pPrime) {

  /**
   * The corners of F_i for an (ε, Δ)-DP teacher, deterministic ones first: (0, 0), (1, 1), then
   * (e^ε + Δ, 1 − Δ)/(e^ε + 1) and its mirror, then (when Δ &gt; 0) (0, Δ), (Δ, 0), (1 − Δ, 1),
   * (1, 1 − Δ).
   */
  public static List<Corner> of(double epsilon, double teacherDelta) {
    double e = Math.exp(epsilon);
    double hi = (e + teacherDelta) / (e + 1);
    double lo = (1 - teacherDelta) / (e + 1);
    if (teacherDelta == 0) {
      return List.of(new Corner(0, 0), new Corner(1, 1), new Corner(hi, lo), new Corner(lo, hi));
    }
    double d = teacherDelta;
    return List.of(new Corner(0, 0), new Corner(1, 1), new Corner(hi, lo), new Corner(lo, hi),
        new Corner(0, d), new Corner(d, 0), new Corner(1 - d, 1), new Corner(1, 1 - d));
  }
}
