"""``manage.py webhook_secret --tenant NAME [--rotate]``: the secret webhooks are signed with.

Stored sealed under the master key (``apps.tenants.webhook_secrets``); opened here to be shown.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.tenants.selectors import tenant_get_by_name
from apps.tenants.services import tenant_webhook_secret_rotate
from apps.tenants.webhook_secrets import webhook_secret_of


class Command(BaseCommand):
    help = "Print a tenant's webhook signing secret (last line); --rotate replaces it first."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--tenant", required=True)
        parser.add_argument(
            "--rotate", action="store_true", help="make a new secret (the old one stops verifying)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_get_by_name(name=options["tenant"])
        if tenant is None:
            raise CommandError(f"no tenant named {options['tenant']!r}")
        if options["rotate"]:
            tenant = tenant_webhook_secret_rotate(tenant=tenant)
            self.stderr.write(f"rotated the webhook secret of {tenant.name}")
        self.stdout.write(webhook_secret_of(tenant=tenant))
