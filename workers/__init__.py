"""Celery tasks, the Triton server launcher and client, and page preprocessing (ARCHITECTURE §2)."""
