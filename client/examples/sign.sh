#!/usr/bin/env bash
# Signing a request in bash with openssl, for curl (CONTRACT sections 2 and 6).
#
#   printf %s "$BODY" | SIGNING_SECRET=... bash sign.sh A|B METHOD TARGET [TIMESTAMP [NONCE]]
#
# The body comes on stdin, exactly the bytes you send (</dev/null for none); TARGET is the path plus
# ?query exactly as sent. Prints the headers to send, one `name: value` a line, for curl's -H; add your
# x-api-key (Area A) or `Authorization: Bearer <token>` (Area B). The secret reaches openssl as an
# argument, so other users of the machine can see it in the process list while it runs: sign on a
# machine of your own. Checked against docs/signing-vectors.json by test/unit/client/examples.test.ts.
set -euo pipefail

area=${1:-} method=${2:-} target=${3:-}
timestamp=${4:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
nonce=${5:-$(openssl rand -hex 16)}
if [[ ! $area =~ ^[AB]$ || -z $method || -z $target || -z ${SIGNING_SECRET:-} ]]; then
  echo 'usage: SIGNING_SECRET=... bash sign.sh A|B METHOD TARGET [TIMESTAMP [NONCE]] < body' >&2
  exit 2
fi

# Lower-case hex SHA-256 of the exact body bytes (of zero bytes for no body).
body_hash=$(openssl dgst -sha256 -r | cut -d' ' -f1)
if [[ $area == A ]]; then
  canonical=$(printf '%s\n%s\n%s\n%s' "${method^^}" "$target" "$timestamp" "$body_hash")
else
  canonical=$(printf '%s\n%s\n%s\n%s\n%s' "${method^^}" "$target" "$timestamp" "$nonce" "$body_hash")
fi
# HMAC-SHA256 over the canonical string (no trailing newline), the secret's bytes as the key, Base64.
signature=$(printf '%s' "$canonical" | openssl dgst -sha256 -hmac "$SIGNING_SECRET" -binary | openssl base64 -A)

if [[ $area == A ]]; then
  printf 'x-api-timestamp: %s\nx-api-signature: %s\n' "$timestamp" "$signature"
else
  printf 'X-Timestamp: %s\nX-Nonce: %s\nX-Signature: %s\n' "$timestamp" "$nonce" "$signature"
fi
