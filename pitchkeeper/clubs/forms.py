"""The sign-up form: Django's own, with an email address for password resets."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from pitchkeeper.clubs.names import name_visible


class SignupForm(UserCreationForm):
    """Username and password twice, checked by AUTH_PASSWORD_VALIDATORS; the email is
    optional, but without it a forgotten password cannot be reset."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        labels = {"email": _("Email (optional)")}
        help_texts = {"email": _("Only used to send you a link if you forget your password.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Django's username check takes any letter, the blank Hangul filler too: the
        # username is a name like the others, and names the user's own club.
        self.fields["username"].validators.append(name_visible)
