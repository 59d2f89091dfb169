"""Connectors: table sources (filesystem, datagen) and sinks (print, blackhole, filesystem)."""
