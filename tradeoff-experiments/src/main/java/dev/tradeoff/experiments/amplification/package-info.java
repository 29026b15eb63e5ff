/**
 * [BernAmp21, Figures 1–3]: the curves
 * of tradeoff-amplification drawn with XChart ({@code tradeoff reproduce bernoulli}, {@code
 * tradeoff amplify plot}).
 */
package dev.tradeoff.experiments.amplification;
