"""What the Train form raises for settings that cannot be trained (``playground.train_form``,
``playground.extend_form``)."""

from __future__ import annotations

from playground.i18n import Later


class SettingsError(ValueError):
    """Settings that cannot be trained; ``message`` (``playground.i18n.later``, shown with ``t``) is Markdown-safe
    and says what is allowed.

    ``pattern`` is the regex at fault, if any, for the page to show verbatim.
    """

    def __init__(self, message: Later, pattern: str | None = None):
        super().__init__(str(message))
        self.message, self.pattern = message, pattern
