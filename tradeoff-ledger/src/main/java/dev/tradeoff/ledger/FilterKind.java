package dev.tradeoff.ledger;

/**
 * The privacy filters of an (ε, δ) ledger, each valid under fully adaptive composition (every
 * request, and its privacy parameters, may be chosen after seeing the outputs of earlier ones).
 * docs/ledger.md states the theorem behind each.
 */
public enum FilterKind {
  /**
   * Gaussian-DP filter: admits while Σ μ_i² ≤ μ², μ the largest μ for which μ-GDP implies the
   * filter's (ε_k, δ_k) (Dong, Roth and Su 2022, Corollary 2.13). Valid under full adaptivity by
   * Smith and Thakurta 2022 (fully adaptive composition for GDP: the filter that sums the squares
   * of the μ's and compares to a threshold fixed in advance). Takes Gaussian mechanisms and GDP
   * guarantees (and their compositions) only.
   */
  GDP,
  /**
   * Rényi filter over an order grid Λ fixed at creation: admits while, at some order α ∈ Λ, the sum
   * of the admitted charges' ε(α) plus the request's stays ≤ B(α). B(α) is the largest RDP value
   * whose improved conversion (Canonne, Kamath and Steinke 2020, Proposition 12) gives (ε_k,
   * δ_k/|Λ|). Validity: at each fixed order the Feldman–Zrnic 2021 Rényi filter (adaptively chosen
   * RDP parameters, Σ ≤ B(α) almost surely ⇒ (α, B(α))-RDP), which is also [ExPost25, Theorem 16]
   * with constant ex-post functions (a proof we checked); the filter that keeps going while
   * <em>some</em> order fits is a union over the |Λ| orders, hence δ_k/|Λ| each (proof in
   * docs/ledger.md).
   */
  RDP,
  /**
   * Basic composition filter: admits while Σ ε_i ≤ ε_k and Σ δ_i ≤ δ_k (Rogers, Roth, Ullman and
   * Vadhan 2016, basic composition for privacy filters). Takes any charge by its (ε, δ).
   */
  BASIC,
  /**
   * Advanced-composition filter for opaque (ε, δ) charges (Whitehouse, Ramdas, Rogers and Wu 2023,
   * <em>Fully-adaptive composition in differential privacy</em>, ICML, Theorem 2, as stated in the
   * paper; its proof was not checked here, see docs/ledger.md): with the
   * filter's (ε_k, δ_k) split as δ′ = δ_k/2 and δ″ = δ_k − δ′, admits while
   * √(2 log(1/δ′) Σ ε_i²) + ½ Σ ε_i² ≤ ε_k and Σ δ_i ≤ δ″, the sums including the request. The
   * interaction is then (ε_k, δ′ + δ″)-DP. Takes any charge by its (ε, δ); with basic in the same
   * policy, an opaque charge goes to whichever of the two admits it, advanced first.
   */
  ADVANCED,
  /**
   * Ex-post Rényi filter at one order α fixed at creation ([ExPost25] = Ghazi, Kamath, Knop, Kumar,
   * Manurangsi and Zhang 2025, <em>Private hyperparameter tuning with ex-post guarantee</em>,
   * Algorithm 4 and Theorem 16): request i, ex-post (α, ε̃_i)-RDP, is admitted only if
   * Σ_{j&lt;i} ε̃_j(o_j) + sup_o ε̃_i(o) ≤ B, and is then charged its realised ε̃_i(o_i). Theorem
   * 16: the whole interaction is ex-ante (α, B)-RDP whatever the adaptive analyst does (the
   * mechanisms, their ε̃ functions and the neighbouring pair may depend on earlier outputs; α and B
   * are fixed in advance). B is the largest RDP value whose improved conversion (Canonne, Kamath
   * and Steinke 2020, Proposition 12) gives the filter's (ε_k, δ_k). Takes one-order Rényi
   * reservations at α ({@link SqliteLedger#reserve}), settled at the realised ε̃.
   */
  EXPOST;

  /** The lower-case name used in the file and on the command line. */
  public String cliName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Parses {@link #cliName()}. */
  public static FilterKind parse(String name) {
    for (FilterKind k : values()) {
      if (k.cliName().equals(name)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "filter must be one of gdp, rdp, basic, advanced, expost, but was \"" + name + "\"");
  }
}
