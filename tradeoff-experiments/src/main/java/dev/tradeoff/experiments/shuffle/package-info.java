/**
 * [ShuffleGDP21, Figure 1], with the exact worst-case curve of
 * tradeoff-shuffle added, drawn with XChart ({@code tradeoff reproduce shuffle}, {@code tradeoff
 * shuffle plot}).
 */
package dev.tradeoff.experiments.shuffle;
