/**
 * The histogram case study of [StabVal13, appendix Section 6.3]: bin-width
 * selection by the stability-based private validation of tradeoff-selection against its
 * baselines, with the CSV and charts ({@code tradeoff reproduce stability}).
 */
package dev.tradeoff.experiments.stability;
