# syntax=docker/dockerfile:1
# The application image: web (gunicorn), the Celery workers, beat, the dispatcher, and the CPU
# Triton of deploy/k8s (the pytriton wheel's tritonserver). Python 3.11 on Debian bookworm with the
# Debian packages `make system-packages` installs, less python3-venv (Python comes with the image)
# and redis-server (the broker is its own service). Built from the repository root:
#
#   docker build -f deploy/docker/app.Dockerfile -t docintel .
#
# Not built in CI (no Docker engine): tests/unit/deploy/test_dockerfiles.py checks the pins and
# that the package list is the Makefile's.
FROM python:3.11.13-slim-bookworm
ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# Production settings, which refuse to start without DJANGO_SECRET_KEY, DATABASE_URL,
# DOCINTEL_MASTER_KEY and DOCINTEL_METRICS_TOKEN (the Secret docintel-secrets); the code defaults to
# them too, so nothing run from this image starts with DEBUG on or a known key.
ENV DJANGO_SETTINGS_MODULE=config.settings.prod
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libgl1 libglib2.0-0 \
        fonts-dejavu-core fonts-dejavu-extra fonts-ocr-b fonts-liberation fonts-freefont-ttf fonts-urw-base35 \
        tesseract-ocr-script-latn \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/docintel
COPY . /opt/docintel
# gunicorn serves the web pods (deploy/k8s/web.yaml); the project lists it for development only.
RUN python3 -m pip install -c requirements.lock . "gunicorn==27.0.1" \
    && python3 -m pip install --no-deps -c requirements.lock -r requirements-no-deps.txt \
    && useradd --system --uid 10001 --home-dir /opt/docintel docintel \
    && mkdir -p /opt/docintel/var && chown docintel /opt/docintel/var
USER docintel
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--config", "python:config.gunicorn", "--bind", "0.0.0.0:8000"]
