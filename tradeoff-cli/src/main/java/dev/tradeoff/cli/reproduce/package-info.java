/**
 * {@code tradeoff reproduce}: regenerate the papers' figures and tables.
 */
package dev.tradeoff.cli.reproduce;
