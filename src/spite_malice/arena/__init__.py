"""Tournaments between bots."""
