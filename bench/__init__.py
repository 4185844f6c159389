"""The store benchmark: generated pi sessions, measured side by side with the real pi (`make bench`)."""
