/** What `npm start` prints under the URL: the development credentials of CONTRACT section 8. */
export function developmentCredentialsText(): string {
  return [
    'Development credentials (local only, never deployed):',
    '  Area A (x-api-key / secret): dev-si-key / dev-si-secret (SI), dev-app-key / dev-app-secret (APP),',
    '    dev-admin-key / dev-admin-secret (ADMIN), dev-buyer-key / dev-buyer-secret, dev-other-key / dev-other-secret',
    '  Area B switch: bearer dev-switch-token, HMAC secret dev-switch-secret',
    '  Area C merchants: MRC0001 / dev-merchant-token, MRC0002 / dev-merchant2-token',
    '  Area D admin bearer: dev-notify-key',
  ].join('\n')
}
