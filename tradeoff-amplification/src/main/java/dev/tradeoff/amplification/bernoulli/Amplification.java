package dev.tradeoff.amplification.bernoulli;

/**
 * What Bernoulli sampling leaves of an (α, ε)-RDP guarantee: Post_{A,α,k}(ε) of Definition 6
 * [BernAmp21], as a certified interval.
 *
 * <p>The true Post lies in [{@code post}, {@code upperBound}]; {@code post} is the value of a pair of
 * c-corner distributions that satisfies both constraints (an attained value, so a valid lower bound)
 * and {@code upperBound} is proven by branch and bound together with the post-processing bound ε and
 * the asymptote. Use {@code upperBound} as the privacy guarantee: it is rounded up.
 *
 * @param post the best attained value, rounded down
 * @param lowerBound the lower bound of equations (5) and (7), computed by Theorem 4 (the paper
 *     conjectures it equals Post)
 * @param upperBound a proven upper bound on Post, rounded up; never above min(ε, asymptote)
 * @param asymptote d·k·r_α(c), equations (2) and (6) (+∞ when c = 0)
 * @param certified whether {@code gap} is within the requested tolerance
 * @param gap {@code upperBound − post} ≥ 0
 */
public record Amplification(
    double post,
    double lowerBound,
    double upperBound,
    double asymptote,
    boolean certified,
    double gap) {}
