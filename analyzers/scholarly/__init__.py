"""Scholarly services: one client layer for reference verification and the review's related-work search."""
