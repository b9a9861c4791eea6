"""``manage.py create_tenant NAME [--user USERNAME --password-env VAR --role ROLE]``."""

from __future__ import annotations

import os
from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.tenants.models import Membership
from apps.tenants.selectors import tenant_get_by_name
from apps.tenants.services import TenantExistsError, membership_grant, tenant_create


class Command(BaseCommand):
    help = "Create a tenant (organisation); optionally create or attach a user to it."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--user", help="username to add to the tenant (created if missing)")
        parser.add_argument(
            "--password-env",
            default="DOCINTEL_USER_PASSWORD",
            help="environment variable holding the new user's password",
        )
        parser.add_argument("--role", choices=Membership.Role.values, default=Membership.Role.ADMIN)
        parser.add_argument(
            "--if-missing", action="store_true", help="succeed quietly when the tenant exists"
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tenant = tenant_create(name=options["name"])
            self.stdout.write(f"created tenant {tenant.name} ({tenant.id})")
        except TenantExistsError as exc:
            if not options["if_missing"]:
                raise CommandError(str(exc)) from exc
            existing = tenant_get_by_name(name=options["name"])
            if existing is None:
                raise CommandError("the tenant disappeared while being looked up") from exc
            tenant = existing
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if options["user"]:
            user_model = get_user_model()
            user, created = user_model.objects.get_or_create(username=options["user"])
            password = os.environ.get(options["password_env"])
            if created:
                if password:
                    user.set_password(password)
                else:
                    user.set_unusable_password()
                user.save()
            membership_grant(tenant=tenant, user=user, role=options["role"])
            self.stdout.write(f"user {user.get_username()} is {options['role']} of {tenant.name}")
