"""Benchmarks: `make bench` runs them and writes bench/RESULTS.md."""
