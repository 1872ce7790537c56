"""Encoding the zone semantics for Z3: codes and variables, the transition system, decoding, slicing."""
