"""Development: the zero-setup defaults (SQLite unless DATABASE_URL is set, debug on)."""

from config.env import env_bool
from config.settings.base import *  # noqa: F403

DEBUG = env_bool("DJANGO_DEBUG", True)
