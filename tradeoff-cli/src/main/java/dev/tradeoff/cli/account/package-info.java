/**
 * {@code tradeoff account}: compose, convert and calibrate privacy guarantees.
 */
package dev.tradeoff.cli.account;
