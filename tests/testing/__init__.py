"""Tests of the shipped test doubles: cassettes, the recorder, the pytest plugin."""
