/**
 * Figures 1–3 of Imola and Chaudhuri, "Privacy Amplification by Bernoulli Sampling": the curves
 * of tradeoff-amplification drawn with XChart ({@code tradeoff reproduce bernoulli}, {@code
 * tradeoff amplify plot}).
 */
package dev.tradeoff.experiments.amplification;
