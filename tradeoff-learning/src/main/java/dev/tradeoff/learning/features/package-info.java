/**
 * Data-independent feature maps for raw CSV tables: standardised numeric columns (with public
 * statistics), user-ranged columns and feature-hashed string columns (Weinberger et al. 2009), each
 * with a missing indicator, plus a bias feature. Their parameters come from public data or the
 * user, never from the sensitive rows, so the map is a per-record transformation that preserves
 * every privacy guarantee of what is trained on its output.
 */
package dev.tradeoff.learning.features;
