"""E-mail for the notices (``notices.py``): the SMTP server of the server's options and one message.

The server sends through the SMTP server ``boneyard serve --smtp-host/--smtp-port/--smtp-from``
(or ``--smtp smtp://HOST:PORT?from=ADDRESS``) names: plain SMTP, no login, as a relay on the
machine or the LAN takes it. Without one, no e-mail is sent.
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import urlsplit

from .tables import BadRequest, quote


@dataclass(frozen=True)
class MailSettings:
    """The SMTP server e-mail goes through (``--smtp-host``, ``--smtp-port``, ``--smtp-from``)."""

    host: str
    port: int = 25
    sender: str = "boneyard@localhost"

    @classmethod
    def parse_url(cls, url: str) -> MailSettings:
        """``smtp://HOST[:PORT]?from=ADDRESS``: the three options in one (``--smtp``)."""
        parts = urlsplit(url)
        if parts.scheme != "smtp" or not parts.hostname:
            raise ValueError(f"an SMTP server is written smtp://HOST:PORT?from=ADDRESS, not {url!r}")
        sender = "boneyard@localhost"
        for pair in filter(None, parts.query.split("&")):
            key, _, value = pair.partition("=")
            if key == "from" and value:
                sender = value
        return cls(parts.hostname, parts.port or 25, sender)


def clean_address(address: str | None) -> str | None:
    """An e-mail address as given (trimmed; empty: none), or 400 for one that cannot be one."""
    if address is None or not address.strip():
        return None
    address = address.strip()
    local, _, domain = address.rpartition("@")
    if not local or "." not in domain or any(c.isspace() or c in "<>,;\"" for c in address):
        raise BadRequest(f"{quote(address)} is not an e-mail address (it looks like ann@example.org)")
    return address


def send(settings: MailSettings, to: str, subject: str, text: str, unsubscribe: str | None, timeout: float) -> None:
    """Send one plain-text e-mail (blocking: run it in a thread); ``unsubscribe`` adds the
    ``List-Unsubscribe`` header and its one-click form (RFC 8058)."""
    msg = EmailMessage()
    msg["From"] = settings.sender
    msg["To"] = to
    msg["Subject"] = subject
    if unsubscribe:
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(text)
    with smtplib.SMTP(settings.host, settings.port, timeout=timeout) as smtp:
        smtp.send_message(msg)
