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

/**
 * Requests a newcomer can paste as they are. Area A routes refuse an unsigned request (401), so the
 * reference-list example is signed by the CLI, exactly as the README shows.
 */
export function tryItText(url: string): string {
  return [
    'Try, in another terminal:',
    `  curl -s ${url}/api/v1/health-check`,
    '  H=$(npm run --silent cli -- sign --area A --path /api/v1/resource/states --key dev-si-key --secret dev-si-secret)',
    `  eval curl -s ${url}/api/v1/resource/states $H`,
  ].join('\n')
}
