"""Why a review action was refused. Each error has a stable ``code`` the UI and API can map to a
message and an HTTP status, so callers never parse exception texts (which never carry values)."""

from __future__ import annotations


class ReviewError(Exception):
    code = "review_error"


class ReviewPermissionError(ReviewError):
    """The user has no reviewing role in the task's or queue's tenant (or is not a member at all)."""

    code = "permission_denied"


class LeaseError(ReviewError):
    """Someone else holds the task, or nobody does: claim it first."""

    code = "not_lease_holder"


class TaskStateError(ReviewError):
    """The task is finished, or in a state where this action makes no sense."""

    code = "invalid_task_state"


class SameOperatorError(ReviewError):
    """Maker-checker: the operator who approved first cannot also be the checker."""

    code = "checker_must_differ"


class FieldNotFoundError(ReviewError):
    """The document's extraction has no field of that name."""

    code = "field_not_found"


class InvalidInputError(ReviewError):
    """A malformed argument: unknown reject reason, empty note, bad queue settings."""

    code = "invalid_input"


class NotEnoughLabelsError(ReviewError):
    """Too few operator labels to refit the calibration on."""

    code = "not_enough_labels"
