import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { transmit as declaration } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { transmit } from '#lib/lifecycle/transmit.ts'

/** POST /api/{v}/app/invoice/transmit: Envelope, data = `{message: [one line per party and step]}`. */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => {
  const result = await transmit(caller, body)
  return {
    message: result.alreadyTransmitted
      ? `Invoice ${body.irn} was already transmitted`
      : `Invoice ${body.irn} transmitted`,
    data: { message: result.lines },
  }
})
