package dev.tradeoff.accounting.guarantee;

/**
 * A privacy guarantee as a value. Every mechanism in Tradeoff states what it guarantees as one of
 * these, and accountants, filters, ledgers and reports consume them; no module invents its own
 * representation of ε.
 *
 * <p>Conversions between guarantees live in {@code dev.tradeoff.accounting.conversion}; composition
 * in {@code dev.tradeoff.accounting.composition} and the accountants.
 */
public sealed interface PrivacyGuarantee
    permits PureDp,
        ApproxDp,
        RenyiDp,
        ZeroConcentratedDp,
        GaussianDp,
        TradeoffFunction,
        PrivacyProfile,
        ExPostDp,
        ExPostRdp {}
