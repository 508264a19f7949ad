import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The differential corpus: the official examples (test/fixtures/en16931) and mutations of them, each
 * made to break one rule (it may break others with it: the comparison is of the whole set), and the
 * official artefact's verdict on them all, from one Saxon-HE run over a folder.
 */

export const FIXTURES = join(import.meta.dirname, '../../fixtures/en16931')
export const XSLT = join(FIXTURES, 'EN16931-UBL-validation.xslt')
export const SAXON = '/usr/share/java/Saxon-HE.jar'

export interface Document {
  name: string
  xml: string
}

export function examples(): Document[] {
  return ['en16931', 'peppol'].flatMap((folder) =>
    readdirSync(join(FIXTURES, folder))
      .filter((file) => file.endsWith('.xml'))
      .sort()
      .map((file) => ({
        name: `${folder}-${file.replace(/\.xml$/, '')}`,
        xml: readFileSync(join(FIXTURES, folder, file), 'utf8'),
      })),
  )
}

/** Replaces the first match only; undefined when nothing matched (the mutation does not apply). */
function once(
  xml: string,
  pattern: RegExp,
  replacement: string | ((...groups: string[]) => string),
): string | undefined {
  if (!pattern.test(xml)) return undefined
  return typeof replacement === 'string'
    ? xml.replace(pattern, replacement)
    : xml.replace(pattern, replacement)
}

const plusOne = (amount: string) => (Number(amount) + 1).toFixed(2)

/** Each mutation: a name (the rule it aims at) and how to make it from a document. */
export const MUTATIONS: [string, (xml: string) => string | undefined][] = [
  ['BR-01', (xml) => once(xml, /<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '')],
  ['BR-02', (xml) => once(xml, /(<cbc:ID)(>)[^<]*(<\/cbc:ID>)/, '$1$2 $3')],
  ['BR-05', (xml) => once(xml, /<cbc:DocumentCurrencyCode>[^<]*</, '<cbc:DocumentCurrencyCode> <')],
  [
    'BR-06',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyLegalEntity>\s*)<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/,
        '$1',
      ),
  ],
  ['BR-CL-04', (xml) => once(xml, /<cbc:DocumentCurrencyCode>[^<]*</, '<cbc:DocumentCurrencyCode>ZZZ<')],
  [
    'BR-CL-14',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingSupplierParty>[\s\S]*?<cac:Country>\s*<cbc:IdentificationCode[^>]*>)[^<]*/,
        '$1ZZ',
      ),
  ],
  ['BR-CL-01', (xml) => once(xml, /(<cbc:(?:Invoice|CreditNote)TypeCode[^>]*>)[^<]*/, '$1999')],
  ['BR-CL-23', (xml) => once(xml, /(<cbc:(?:Invoiced|Credited)Quantity[^>]*unitCode=")[^"]*/, '$1QQ9')],
  ['BR-23', (xml) => once(xml, /(<cbc:(?:Invoiced|Credited)Quantity[^>]*?) unitCode="[^"]*"/, '$1')],
  [
    'BR-25',
    (xml) =>
      once(
        xml,
        /(<cac:(?:Invoice|CreditNote)Line>[\s\S]*?<cac:Item>[\s\S]*?)<cbc:Name>[^<]*<\/cbc:Name>/,
        '$1',
      ),
  ],
  ['BR-27', (xml) => once(xml, /(<cbc:PriceAmount[^>]*>)\s*([0-9])/, '$1-$2')],
  ['BR-27-boundary', (xml) => once(xml, /(<cbc:PriceAmount[^>]*>)[^<]*/, '$10.00')],
  [
    'BR-CO-10',
    (xml) =>
      once(
        xml,
        /(<cac:LegalMonetaryTotal>[\s\S]*?<cbc:LineExtensionAmount[^>]*>)([^<]*)/,
        (_m, head, amount) => `${head}${plusOne(amount)}`,
      ),
  ],
  [
    'BR-CO-15',
    (xml) =>
      once(
        xml,
        /(<cac:LegalMonetaryTotal>[\s\S]*?<cbc:TaxInclusiveAmount[^>]*>)([^<]*)/,
        (_m, head, amount) => `${head}${plusOne(amount)}`,
      ),
  ],
  [
    'BR-DEC-18',
    (xml) =>
      once(
        xml,
        /(<cac:LegalMonetaryTotal>[\s\S]*?<cbc:PayableAmount[^>]*>)([^<]*)/,
        (_m, head, amount) => `${head}${Number(amount).toFixed(2)}1`,
      ),
  ],
  [
    'BR-CO-14',
    (xml) =>
      once(
        xml,
        /(<cac:TaxTotal>\s*<cbc:TaxAmount[^>]*>)([^<]*)(<\/cbc:TaxAmount>\s*<cac:TaxSubtotal>)/,
        (_m, head, amount, tail) => `${head}${plusOne(amount)}${tail}`,
      ),
  ],
  [
    'BR-CO-17',
    (xml) =>
      once(
        xml,
        /(<cac:TaxSubtotal>[\s\S]*?<cbc:TaxAmount[^>]*>)([^<]*)/,
        (_m, head, amount) => `${head}${(Number(amount) + 7).toFixed(2)}`,
      ),
  ],
  ['BR-49', (xml) => once(xml, /<cbc:PaymentMeansCode[^>]*>[^<]*<\/cbc:PaymentMeansCode>/, '')],
  ['BR-CL-16', (xml) => once(xml, /(<cbc:PaymentMeansCode[^>]*>)[^<]*/, '$1XX')],
  ['BR-CL-18', (xml) => once(xml, /(<cac:ClassifiedTaxCategory>\s*<cbc:ID[^>]*>)[^<]*/, '$1Q')],
  [
    'BR-S-05',
    (xml) =>
      once(xml, /(<cac:ClassifiedTaxCategory>\s*<cbc:ID[^>]*>S<\/cbc:ID>\s*<cbc:Percent>)[^<]*/, '$10'),
  ],
  [
    'BR-10',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingCustomerParty>[\s\S]*?)<cac:PostalAddress>[\s\S]*?<\/cac:PostalAddress>/,
        '$1',
      ),
  ],
  [
    'BR-62',
    (xml) =>
      once(xml, /(<cac:AccountingSupplierParty>\s*<cac:Party>\s*<cbc:EndpointID) schemeID="[^"]*"/, '$1'),
  ],
  ['BR-CL-25', (xml) => once(xml, /(<cbc:EndpointID schemeID=")[^"]*/, '$1XX99')],
  ['BR-CO-03', addPeriodCode],
  [
    'BR-53',
    (xml) =>
      once(
        xml,
        /(<cbc:DocumentCurrencyCode[^>]*>[^<]*<\/cbc:DocumentCurrencyCode>)/,
        '$1<cbc:TaxCurrencyCode>SEK</cbc:TaxCurrencyCode>',
      ),
  ],
  [
    'BR-CL-08',
    (xml) =>
      once(
        xml,
        /(<cbc:DocumentCurrencyCode)/,
        '<cbc:Note>#QQQ#A subject code not in UNTDID 4451</cbc:Note>$1',
      ),
  ],
  ['BR-16', (xml) => dropLines(xml)],
  ['BR-52', (xml) => once(xml, /(<cac:AdditionalDocumentReference>\s*<cbc:ID[^>]*>)[^<]*/, '$1 ')],
  [
    'BR-55',
    (xml) =>
      once(
        xml,
        /(<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*)<cbc:ID[^>]*>[^<]*<\/cbc:ID>/,
        '$1',
      ),
  ],
  ['BR-CO-11', (xml) => bump(xml, 'AllowanceTotalAmount')],
  ['BR-CO-12', (xml) => bump(xml, 'ChargeTotalAmount')],
  [
    'BR-DEC-01',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>[\s\S]*?<cbc:Amount[^>]*>-?[0-9]+\.[0-9]{2})(?=<)/,
        '$15',
      ),
  ],
  [
    'BR-DEC-05',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>[\s\S]*?<cbc:Amount[^>]*>-?[0-9]+\.[0-9]{2})(?=<)/,
        '$15',
      ),
  ],
  [
    'BR-33',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>\s*)(?:<cbc:AllowanceChargeReasonCode>[^<]*<\/cbc:AllowanceChargeReasonCode>\s*)?<cbc:AllowanceChargeReason>[^<]*<\/cbc:AllowanceChargeReason>/,
        '$1',
      ),
  ],
  [
    'BR-38',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>\s*)(?:<cbc:AllowanceChargeReasonCode>[^<]*<\/cbc:AllowanceChargeReasonCode>\s*)?<cbc:AllowanceChargeReason>[^<]*<\/cbc:AllowanceChargeReason>/,
        '$1',
      ),
  ],
  [
    'BR-32',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>[\s\S]*?)<cac:TaxCategory>[\s\S]*?<\/cac:TaxCategory>/,
        '$1',
      ),
  ],
  [
    'BR-S-10',
    (xml) =>
      once(
        xml,
        /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?<cac:TaxCategory>\s*<cbc:ID[^>]*>S<\/cbc:ID>\s*<cbc:Percent>[^<]*<\/cbc:Percent>)/,
        '$1<cbc:TaxExemptionReason>Exempt</cbc:TaxExemptionReason>',
      ),
  ],
  ['BR-E-10', (xml) => once(xml, /<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/, '')],
  ['BR-CL-22', (xml) => once(xml, /(<cbc:TaxExemptionReasonCode>)[^<]*/, '$1VATEX-XX-ZZ')],
  ['BR-CO-09', (xml) => once(xml, /(<cac:PartyTaxScheme>\s*<cbc:CompanyID[^>]*>)[A-Z]{2}/, '$1QQ')],
  ['BR-29', (xml) => once(xml, /(<cac:InvoicePeriod>\s*<cbc:StartDate>)[^<]*/, '$12099-12-31')],
  [
    'BR-DEC-20',
    (xml) => once(xml, /(<cac:TaxSubtotal>[\s\S]*?<cbc:TaxAmount[^>]*>-?[0-9]+\.[0-9]{2})(?=<)/, '$14'),
  ],
  ['BR-CL-03', (xml) => once(xml, /(<cbc:PayableAmount currencyID=")[^"]*/, '$1ZZZ')],
  ['BR-CL-10', (xml) => once(xml, /(<cac:PartyIdentification>\s*<cbc:ID schemeID=")[^"]*/, '$19999')],
  ['BR-CL-24', (xml) => once(xml, /(mimeCode=")[^"]*/, '$1text/plain')],
  ['BR-CL-13', (xml) => once(xml, /(<cbc:ItemClassificationCode[^>]*listID=")[^"]*/, '$1QQ')],
  ['BR-64', (xml) => once(xml, /(<cac:StandardItemIdentification>\s*<cbc:ID) schemeID="[^"]*"/, '$1')],
  ['BR-65', (xml) => once(xml, /(<cbc:ItemClassificationCode[^>]*?) listID="[^"]*"/, '$1')],
  [
    'BR-CL-17',
    (xml) =>
      once(
        xml,
        /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?<cac:TaxCategory>\s*<cbc:ID[^>]*>)[^<]*/,
        '$1Q',
      ),
  ],
  ['BR-50', (xml) => once(xml, /(<cac:PayeeFinancialAccount>\s*<cbc:ID[^>]*>)[^<]*/, '$1 ')],
  [
    'BR-61',
    (xml) =>
      once(
        xml,
        /(<cbc:PaymentMeansCode[^>]*>)(30|58)(<\/cbc:PaymentMeansCode>[\s\S]*?)<cac:PayeeFinancialAccount>[\s\S]*?<\/cac:PayeeFinancialAccount>/,
        '$1$2$3',
      ),
  ],
  ['BR-54', (xml) => once(xml, /(<cac:AdditionalItemProperty>[\s\S]*?)<cbc:Value>[^<]*<\/cbc:Value>/, '$1')],
  ['BR-CO-04', (xml) => once(xml, /<cac:ClassifiedTaxCategory>[\s\S]*?<\/cac:ClassifiedTaxCategory>/, '')],
  ['BR-22', (xml) => once(xml, /<cbc:(Invoiced|Credited)Quantity[^>]*>[^<]*<\/cbc:\1Quantity>/, '')],
  ['BR-26', (xml) => once(xml, /(<cac:Price>\s*)<cbc:PriceAmount[^>]*>[^<]*<\/cbc:PriceAmount>/, '$1')],
  [
    'BR-41',
    (xml) =>
      once(
        xml,
        /(<cac:(?:Invoice|CreditNote)Line>(?:(?!<\/cac:(?:Invoice|CreditNote)Line>)[\s\S])*?<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>[\s\S]*?)<cbc:Amount[^>]*>[^<]*<\/cbc:Amount>/,
        '$1',
      ),
  ],
  [
    'BR-CO-20',
    (xml) =>
      once(
        xml,
        /(<cac:(?:Invoice|CreditNote)Line>(?:(?!<\/cac:(?:Invoice|CreditNote)Line>)[\s\S])*?<cac:InvoicePeriod>)[\s\S]*?(<\/cac:InvoicePeriod>)/,
        '$1$2',
      ),
  ],
  [
    'BR-57',
    (xml) =>
      once(
        xml,
        /(<cac:DeliveryLocation>[\s\S]*?<cac:Address>[\s\S]*?)<cac:Country>[\s\S]*?<\/cac:Country>/,
        '$1',
      ),
  ],
  [
    'BR-18',
    (xml) =>
      once(xml, /(<cbc:DocumentCurrencyCode[^>]*>[^<]*<\/cbc:DocumentCurrencyCode>)/, '$1') &&
      addTaxRepresentative(xml),
  ],
  ['BR-03', (xml) => once(xml, /<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '')],
  ['BR-04', (xml) => once(xml, /<cbc:(Invoice|CreditNote)TypeCode[^>]*>[^<]*<\/cbc:\1TypeCode>/, '')],
  [
    'BR-07',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingCustomerParty>[\s\S]*?<cac:PartyLegalEntity>\s*)<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/,
        '$1',
      ),
  ],
  [
    'BR-08',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingSupplierParty>[\s\S]*?)<cac:PostalAddress>[\s\S]*?<\/cac:PostalAddress>/,
        '$1',
      ),
  ],
  [
    'BR-11',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingCustomerParty>[\s\S]*?<cac:PostalAddress>[\s\S]*?)<cac:Country>[\s\S]*?<\/cac:Country>/,
        '$1',
      ),
  ],
  [
    'BR-12',
    (xml) =>
      once(
        xml,
        /(<cac:LegalMonetaryTotal>\s*)<cbc:LineExtensionAmount[^>]*>[^<]*<\/cbc:LineExtensionAmount>/,
        '$1',
      ),
  ],
  [
    'BR-13',
    (xml) =>
      once(
        xml,
        /(<cac:LegalMonetaryTotal>[\s\S]*?)<cbc:TaxExclusiveAmount[^>]*>[^<]*<\/cbc:TaxExclusiveAmount>/,
        '$1',
      ),
  ],
  [
    'BR-15',
    (xml) =>
      once(xml, /(<cac:LegalMonetaryTotal>[\s\S]*?)<cbc:PayableAmount[^>]*>[^<]*<\/cbc:PayableAmount>/, '$1'),
  ],
  ['BR-21', (xml) => once(xml, /(<cac:(?:Invoice|CreditNote)Line>\s*<cbc:ID>)[^<]*/, '$1 ')],
  [
    'BR-24',
    (xml) =>
      once(
        xml,
        /(<cac:(?:Invoice|CreditNote)Line>(?:(?!<\/cac:(?:Invoice|CreditNote)Line>)[\s\S])*?)<cbc:LineExtensionAmount[^>]*>[^<]*<\/cbc:LineExtensionAmount>/,
        '$1',
      ),
  ],
  [
    'BR-31',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>(?:(?!<\/cac:AllowanceCharge>)[\s\S])*?)<cbc:Amount[^>]*>[^<]*<\/cbc:Amount>/,
        '$1',
      ),
  ],
  [
    'BR-36',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>(?:(?!<\/cac:AllowanceCharge>)[\s\S])*?)<cbc:Amount[^>]*>[^<]*<\/cbc:Amount>/,
        '$1',
      ),
  ],
  [
    'BR-37',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>[\s\S]*?)<cac:TaxCategory>[\s\S]*?<\/cac:TaxCategory>/,
        '$1',
      ),
  ],
  [
    'BR-45',
    (xml) => once(xml, /(<cac:TaxSubtotal>\s*)<cbc:TaxableAmount[^>]*>[^<]*<\/cbc:TaxableAmount>/, '$1'),
  ],
  [
    'BR-46',
    (xml) =>
      once(
        xml,
        /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?)<cbc:TaxAmount[^>]*>[^<]*<\/cbc:TaxAmount>/,
        '$1',
      ),
  ],
  [
    'BR-48',
    (xml) =>
      once(
        xml,
        /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?<cac:TaxCategory>(?:(?!<\/cac:TaxCategory>)[\s\S])*?)<cbc:Percent>[^<]*<\/cbc:Percent>/,
        '$1',
      ),
  ],
  [
    'BR-63',
    (xml) =>
      once(xml, /(<cac:AccountingCustomerParty>\s*<cac:Party>\s*<cbc:EndpointID) schemeID="[^"]*"/, '$1'),
  ],
  ['BR-CO-26', (xml) => sellerUnidentified(xml)],
  [
    'BR-CL-05',
    (xml) =>
      once(
        xml,
        /(<cbc:DocumentCurrencyCode[^>]*>[^<]*<\/cbc:DocumentCurrencyCode>)/,
        '$1<cbc:TaxCurrencyCode>XYZ</cbc:TaxCurrencyCode>',
      ),
  ],
  ['BR-CL-06', (xml) => once(xml, /(<cac:InvoicePeriod>)/, '$1<cbc:DescriptionCode>9</cbc:DescriptionCode>')],
  [
    'BR-CL-11',
    (xml) => once(xml, /(<cac:PartyLegalEntity>[\s\S]*?<cbc:CompanyID schemeID=")[^"]*/, '$19999'),
  ],
  [
    'BR-CL-19',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>\s*<cbc:AllowanceChargeReasonCode>)[^<]*/,
        '$1ZZ9',
      ),
  ],
  [
    'BR-CL-20',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>\s*<cbc:AllowanceChargeReasonCode>)[^<]*/,
        '$1ZZ9',
      ),
  ],
  ['BR-CL-21', (xml) => once(xml, /(<cac:StandardItemIdentification>\s*<cbc:ID schemeID=")[^"]*/, '$19999')],
  ['BR-CL-15', (xml) => once(xml, /(<cac:OriginCountry>\s*<cbc:IdentificationCode>)[^<]*/, '$1QQ')],
  [
    'BR-28',
    (xml) =>
      once(xml, /(<cac:Price>[\s\S]*?<cac:AllowanceCharge>[\s\S]*?<cbc:BaseAmount[^>]*>)\s*([0-9])/, '$1-$2'),
  ],
  ['BR-IC-12', (xml) => once(xml, /(<cac:TaxCategory>\s*<cbc:ID[^>]*>)S(<\/cbc:ID>)/g, '$1K$2')],
  ['BR-O-11', (xml) => withOutsideScope(xml)],
  ['BR-B-02', (xml) => once(xml, /(<cac:ClassifiedTaxCategory>\s*<cbc:ID[^>]*>)[^<]*/, '$1B')],
  ...(
    [
      ['BR-DEC-09', 'LineExtensionAmount'],
      ['BR-DEC-12', 'TaxExclusiveAmount'],
      ['BR-DEC-14', 'TaxInclusiveAmount'],
      ['BR-DEC-10', 'AllowanceTotalAmount'],
      ['BR-DEC-11', 'ChargeTotalAmount'],
      ['BR-DEC-16', 'PrepaidAmount'],
    ] as const
  ).map(([rule, total]): [string, (xml: string) => string | undefined] => [
    rule,
    (xml) =>
      once(
        xml,
        new RegExp(`(<cac:LegalMonetaryTotal>[\\s\\S]*?<cbc:${total}[^>]*>-?[0-9]+\\.[0-9]{2})(?=<)`),
        '$10',
      ),
  ]),
  [
    'BR-DEC-19',
    (xml) => once(xml, /(<cac:TaxSubtotal>\s*<cbc:TaxableAmount[^>]*>-?[0-9]+\.[0-9]{2})(?=<)/, '$10'),
  ],
  [
    'BR-DEC-23',
    (xml) =>
      once(
        xml,
        /(<cac:(?:Invoice|CreditNote)Line>(?:(?!<\/cac:(?:Invoice|CreditNote)Line>)[\s\S])*?<cbc:LineExtensionAmount[^>]*>-?[0-9]+\.[0-9]{2})(?=<)/,
        '$10',
      ),
  ],
  [
    'BR-14',
    (xml) =>
      once(
        xml,
        /(<cac:LegalMonetaryTotal>[\s\S]*?)<cbc:TaxInclusiveAmount[^>]*>[^<]*<\/cbc:TaxInclusiveAmount>/,
        '$1',
      ),
  ],
  [
    'BR-47',
    (xml) =>
      once(
        xml,
        /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?<cac:TaxCategory>\s*)<cbc:ID[^>]*>[^<]*<\/cbc:ID>/,
        '$1',
      ),
  ],
  [
    'BR-09',
    (xml) =>
      once(
        xml,
        /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PostalAddress>(?:(?!<\/cac:PostalAddress>)[\s\S])*?)<cac:Country>[\s\S]*?<\/cac:Country>/,
        '$1',
      ),
  ],
  ['BR-CO-19', (xml) => once(xml, /(<cac:InvoicePeriod>)[\s\S]*?(<\/cac:InvoicePeriod>)/, '$1$2')],
  ['BR-CL-26', (xml) => once(xml, /(<cac:DeliveryLocation>\s*<cbc:ID schemeID=")[^"]*/, '$19999')],
  [
    'BR-S-06',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>(?:(?!<\/cac:AllowanceCharge>)[\s\S])*?<cac:TaxCategory>\s*<cbc:ID>S<\/cbc:ID>\s*<cbc:Percent>)[^<]*/,
        '$10',
      ),
  ],
  [
    'BR-S-07',
    (xml) =>
      once(
        xml,
        /(<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>(?:(?!<\/cac:AllowanceCharge>)[\s\S])*?<cac:TaxCategory>\s*<cbc:ID>S<\/cbc:ID>\s*<cbc:Percent>)[^<]*/,
        '$10',
      ),
  ],
  [
    'BR-AF-02',
    (xml) => {
      const swapped = xml.replace(/(<cac:(?:Classified)?TaxCategory>\s*<cbc:ID[^>]*>)S(<\/cbc:ID>)/g, '$1L$2')
      return swapped === xml ? undefined : sellerUnidentified(swapped)
    },
  ],
  [
    'BR-AG-09',
    (xml) => {
      const swapped = xml.replace(/(<cac:(?:Classified)?TaxCategory>\s*<cbc:ID[^>]*>)S(<\/cbc:ID>)/g, '$1M$2')
      if (swapped === xml) return undefined
      return once(
        swapped,
        /(<cac:TaxSubtotal>[\s\S]*?<cbc:TaxAmount[^>]*>)([^<]*)/,
        (_m, head, amount) => `${head}${(Number(amount) + 7).toFixed(2)}`,
      )
    },
  ],
  [
    'BR-Z-10',
    (xml) => {
      const swapped = xml.replace(/(<cac:(?:Classified)?TaxCategory>\s*<cbc:ID[^>]*>)S(<\/cbc:ID>)/g, '$1Z$2')
      if (swapped === xml) return undefined
      return once(
        swapped,
        /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?<cac:TaxCategory>\s*<cbc:ID[^>]*>Z<\/cbc:ID>\s*<cbc:Percent>[^<]*<\/cbc:Percent>)/,
        '$1<cbc:TaxExemptionReason>Zero</cbc:TaxExemptionReason>',
      )
    },
  ],
  ...['Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'].map((code): [string, (xml: string) => string | undefined] => [
    `category-S-to-${code}`,
    (xml) => {
      const out = xml.replace(
        /(<cac:(?:Classified)?TaxCategory>\s*<cbc:ID[^>]*>)S(<\/cbc:ID>)/g,
        `$1${code}$2`,
      )
      return out === xml ? undefined : out
    },
  ]),
]

/** BR-CO-26: a seller with no VAT identifier, no identifier and no legal registration identifier. */
function sellerUnidentified(xml: string): string | undefined {
  const match = /<cac:AccountingSupplierParty>[\s\S]*?<\/cac:AccountingSupplierParty>/.exec(xml)
  if (!match) return undefined
  const seller = match[0]
    .replace(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/g, '')
    .replace(/<cac:PartyIdentification>[\s\S]*?<\/cac:PartyIdentification>/g, '')
    .replace(/<cbc:CompanyID[^>]*>[^<]*<\/cbc:CompanyID>/g, '')
  return xml.replace(match[0], seller)
}

/** BR-O-11 and on: the first breakdown's category turned to O, the others left as they are. */
function withOutsideScope(xml: string): string | undefined {
  return once(
    xml,
    /(<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*?<cac:TaxCategory>\s*<cbc:ID[^>]*>)[^<]*/,
    '$1O',
  )
}

/** Adds 1 to the document total named. */
function bump(xml: string, total: string): string | undefined {
  return once(
    xml,
    new RegExp(`(<cac:LegalMonetaryTotal>[\\s\\S]*?<cbc:${total}[^>]*>)([^<]*)`),
    (_m, head, amount) => `${head}${plusOne(amount)}`,
  )
}

/** BR-18, BR-19, BR-56: a tax representative with neither name, address nor VAT identifier. */
function addTaxRepresentative(xml: string): string | undefined {
  if (xml.includes('<cac:TaxRepresentativeParty>')) return undefined
  return once(
    xml,
    /(<cac:Delivery>|<cac:PaymentMeans>|<cac:PaymentTerms>|<cac:AllowanceCharge>|<cac:TaxTotal>)/,
    '<cac:TaxRepresentativeParty><cac:PartyName><cbc:Name> </cbc:Name></cac:PartyName></cac:TaxRepresentativeParty>$1',
  )
}

/** BR-CO-03: a tax point date and an invoicing period description code together. */
function addPeriodCode(xml: string): string | undefined {
  const withDate = once(
    xml,
    /(<cbc:DocumentCurrencyCode)/,
    '<cbc:TaxPointDate>2017-11-01</cbc:TaxPointDate>$1',
  )
  if (!withDate) return undefined
  if (/<cac:InvoicePeriod>/.test(withDate.split(/<cac:(?:Invoice|CreditNote)Line>/)[0]!))
    return once(
      withDate,
      /<cac:InvoicePeriod>/,
      '<cac:InvoicePeriod><cbc:DescriptionCode>35</cbc:DescriptionCode>',
    )
  return undefined
}

/** BR-16: no line at all. */
function dropLines(xml: string): string | undefined {
  const out = xml.replace(/<cac:(Invoice|CreditNote)Line>[\s\S]*?<\/cac:\1Line>/g, '')
  return out === xml ? undefined : out
}

/** EN16931_PER_MUTATION=1000 applies every mutation to every example that has what it mutates (a long run). */
const PER_MUTATION = Number(process.env.EN16931_PER_MUTATION ?? 4)

export function corpus(): Document[] {
  const documents = examples()
  const mutations: Document[] = []
  // Each mutation on up to PER_MUTATION documents, the bases taken in turn from a different start,
  // so that the corpus stays a few hundred documents (one Saxon-HE run of ~20 s on a busy machine).
  MUTATIONS.forEach(([name, mutate], index) => {
    let made = 0
    for (let step = 0; step < documents.length && made < PER_MUTATION; step += 1) {
      const document = documents[(index * 7 + step) % documents.length]!
      const xml = mutate(document.xml)
      if (xml === undefined || xml === document.xml) continue
      mutations.push({ name: `${document.name}--${name}`, xml })
      made += 1
    }
  })
  return [...documents, ...mutations]
}

/** The rule identifiers (BR-*) the official artefact fires on each document, from one Saxon-HE run. */
export function officialVerdicts(documents: Document[], folder: string): Map<string, Set<string>> {
  const input = join(folder, 'in')
  const output = join(folder, 'out')
  mkdirSync(input, { recursive: true })
  mkdirSync(output, { recursive: true })
  for (const document of documents) writeFileSync(join(input, `${document.name}.xml`), document.xml)
  execFileSync(
    'java',
    ['-cp', SAXON, 'net.sf.saxon.Transform', `-s:${input}`, `-xsl:${XSLT}`, `-o:${output}`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  const verdicts = new Map<string, Set<string>>()
  for (const document of documents) {
    const svrl = readFileSync(join(output, `${document.name}.xml`), 'utf8')
    const fired = new Set<string>()
    for (const match of svrl.matchAll(/<svrl:failed-assert\b[^>]*?\bid="([^"]+)"/g))
      if (match[1]!.startsWith('BR-')) fired.add(match[1]!)
    verdicts.set(document.name, fired)
  }
  return verdicts
}
