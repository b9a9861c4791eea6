"""``manage.py revoke_api_key PREFIX``: the key stops working at once."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.tenants.models import ApiKey
from apps.tenants.services import api_key_revoke


class Command(BaseCommand):
    help = "Revoke an API key by its visible prefix (the part after dik_)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("prefix")

    def handle(self, *args: Any, **options: Any) -> None:
        prefix = options["prefix"].removeprefix("dik_").split("_")[0]
        api_key = ApiKey.objects.select_related("tenant").filter(prefix=prefix).first()
        if api_key is None:
            raise CommandError(f"no API key with prefix {prefix!r}")
        api_key = api_key_revoke(api_key=api_key)
        self.stdout.write(f"revoked {api_key.name!r} (prefix {api_key.prefix}) of {api_key.tenant.name}")
