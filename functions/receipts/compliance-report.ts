import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { CSV_CONTENT_TYPE } from '#lib/platform/text/csv.ts'
import { complianceCsv, complianceReport, reportRange } from '#lib/receipts/compliance-report.ts'
import { complianceReport as declaration } from '#lib/service/endpoints/compliance.ts'

/** GET /api/v1/compliance/report (ADMIN): the business's receipts over a range of issue days, JSON or CSV. */
export const handler = apiHandler(declaration, apiSignature, async ({ query, caller }) => {
  const report = await complianceReport(caller.businessId, reportRange(query.from, query.to))
  if (query.format === 'csv')
    return {
      raw: { contentType: CSV_CONTENT_TYPE, body: complianceCsv(report) },
      headers: {
        'content-disposition': `attachment; filename="compliance-${report.from}-${report.to}.csv"`,
        'x-report-range': `${report.from}/${report.to}`,
        'x-computed-at': report.computed_at,
      },
    }
  return {
    message: `Compliance report of ${report.devices.length} device(s), issue days ${report.from} to ${report.to}, computed at ${report.computed_at}`,
    data: report,
  }
})
