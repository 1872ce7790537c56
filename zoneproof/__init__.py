"""zoneproof: a bounded model checker for the zone rules of trading card games."""

__version__ = "0.1.0"
