/**
 * [DaRRM24, Figures 2, 7 and 8]: the
 * noise functions of tradeoff-ensemble and their errors drawn with XChart ({@code tradeoff
 * reproduce darrm}, {@code tradeoff ensemble plot}).
 */
package dev.tradeoff.experiments.ensemble;
