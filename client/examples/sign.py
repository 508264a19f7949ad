#!/usr/bin/env python3
"""Signing a request in Python, standard library only (CONTRACT sections 2 and 6).

    printf %s "$BODY" | SIGNING_SECRET=... python3 sign.py A|B METHOD TARGET [TIMESTAMP [NONCE]]

The body comes on stdin, exactly the bytes you send (</dev/null for none); TARGET is the path plus
`?query` exactly as sent. Prints the headers to send, one `name: value` a line; add your x-api-key
(Area A) or `Authorization: Bearer <token>` (Area B). Checked against docs/signing-vectors.json by
test/unit/client/examples.test.ts.
"""
import base64
import datetime
import hashlib
import hmac
import os
import secrets
import sys


def canonical(area, method, target, timestamp, nonce, body):
    """The string signed: four lines (Area A) or five (Area B, with the nonce), no trailing newline."""
    body_hash = hashlib.sha256(body).hexdigest()  # lower-case hex; of zero bytes for no body
    lines = [method.upper(), target, timestamp] + ([nonce] if area == "B" else []) + [body_hash]
    return "\n".join(lines)


def sign(secret, text):
    """Base64 of HMAC-SHA256 over the canonical string, the secret taken as its UTF-8 bytes."""
    mac = hmac.new(secret.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(mac).decode("ascii")


def main(argv):
    secret = os.environ.get("SIGNING_SECRET")
    if len(argv) < 3 or argv[0] not in ("A", "B") or not secret:
        print("usage: SIGNING_SECRET=... python3 sign.py A|B METHOD TARGET [TIMESTAMP [NONCE]] < body", file=sys.stderr)
        return 2
    area, method, target = argv[0], argv[1], argv[2]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    timestamp = argv[3] if len(argv) > 3 else now
    nonce = argv[4] if len(argv) > 4 else secrets.token_hex(16)
    body = sys.stdin.buffer.read()  # the exact bytes sent
    signature = sign(secret, canonical(area, method, target, timestamp, nonce, body))
    if area == "A":
        print(f"x-api-timestamp: {timestamp}")
        print(f"x-api-signature: {signature}")
    else:
        print(f"X-Timestamp: {timestamp}")
        print(f"X-Nonce: {nonce}")
        print(f"X-Signature: {signature}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
