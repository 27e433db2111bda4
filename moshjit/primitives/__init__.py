"""Data tables describing operations on builtin types (result types here; emission lives with each backend)."""
