/**
 * Signing for integrators (and the project's own tests): the headers of CONTRACT sections 2 and 6
 * for a request given its method, target (path plus query, exactly as it will be sent) and body.
 * The functions are the service's own (lib/platform/auth/sign-request.ts), which also signs its webhook
 * deliveries with them, so a client and the service can never sign differently.
 */
export {
  type AreaACredentials,
  type AreaBCredentials,
  newNonce,
  type RequestToSign,
  signAreaA,
  signAreaB,
} from '#lib/platform/auth/sign-request.ts'
