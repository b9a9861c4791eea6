"""Observability: Prometheus metrics, health probes, structured logs and capacity planning."""
