"""How a case is decided from its checks and the tenant's policy: the first rule of
``knowledge/rules.toml`` (most severe first) whose check failed decides, and says so; a rule the
policy waives (``accept_expired``) is a reason but does not decide. No failed rule: approved."""

from __future__ import annotations

from dataclasses import dataclass

from apps.cases import knowledge
from apps.cases.checks.types import CheckResult, Policy

APPROVED = "approved"
ALL_PASSED = "all_checks_passed"


@dataclass(frozen=True)
class CaseDecision:
    outcome: str  # approved, rejected, resubmission_requested or needs_review
    rule: str  # the check whose rule decided, or "all_checks_passed"
    reasons: tuple[str, ...]  # "<check>: <detail>" of every failed check


def case_decision(checks: list[CheckResult], policy: Policy) -> CaseDecision:
    failed = {c.name: c for c in checks if not c.passed}
    reasons = tuple(f"{c.name}: {c.detail}" for c in checks if not c.passed)
    for rule in knowledge.rules().rules:
        if rule.check in failed and not (rule.waived_by and getattr(policy, rule.waived_by)):
            return CaseDecision(outcome=rule.outcome, rule=rule.check, reasons=reasons)
    return CaseDecision(outcome=APPROVED, rule=ALL_PASSED, reasons=reasons)
