/**
 * The official rules' flags and texts, copied as data from ConnectingEurope/eInvoicing-EN16931
 * ubl/schematron/abstract/EN16931-model.sch and ubl/schematron/codelist/EN16931-UBL-codes.sch,
 * release 1.3.16 (commit b6c9e06a59812fb1a83585da40923b3678a649ad), EUPL 1.2: see
 * test/fixtures/en16931/README.md.
 */

export const RULES: Record<string, { flag: 'fatal' | 'warning'; text: string }> = {
  'BR-52': {
    flag: 'fatal',
    text: 'Each Additional supporting document (BG-24) shall contain a Supporting document reference (BT-122).',
  },
  'BR-63': { flag: 'fatal', text: 'The Buyer electronic address (BT-49) shall have a Scheme identifier.' },
  'BR-11': { flag: 'fatal', text: 'The Buyer postal address shall contain a Buyer country code (BT-55).' },
  'BR-51': {
    flag: 'warning',
    text: 'In accordance with card payments security standards an invoice should never include a full card primary account number (BT-87). At the moment PCI Security Standards Council has defined that the first 6 digits and last 4 digits are the maximum number of digits to be shown.',
  },
  'BR-57': {
    flag: 'fatal',
    text: 'Each Deliver to address (BG-15) shall contain a Deliver to country code (BT-80).',
  },
  'BR-31': {
    flag: 'fatal',
    text: 'Each Document level allowance (BG-20) shall have a Document level allowance amount (BT-92).',
  },
  'BR-32': {
    flag: 'fatal',
    text: 'Each Document level allowance (BG-20) shall have a Document level allowance VAT category code (BT-95).',
  },
  'BR-33': {
    flag: 'fatal',
    text: 'Each Document level allowance (BG-20) shall have a Document level allowance reason (BT-97) or a Document level allowance reason code (BT-98).',
  },
  'BR-CO-05': {
    flag: 'fatal',
    text: 'Document level allowance reason code (BT-98) and Document level allowance reason (BT-97) shall indicate the same type of allowance.',
  },
  'BR-CO-21': {
    flag: 'fatal',
    text: 'Each Document level allowance (BG-20) shall contain a Document level allowance reason (BT-97) or a Document level allowance reason code (BT-98), or both.',
  },
  'BR-DEC-01': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Document level allowance amount (BT-92) is 2.',
  },
  'BR-DEC-02': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Document level allowance base amount (BT-93) is 2.',
  },
  'BR-36': {
    flag: 'fatal',
    text: 'Each Document level charge (BG-21) shall have a Document level charge amount (BT-99).',
  },
  'BR-37': {
    flag: 'fatal',
    text: 'Each Document level charge (BG-21) shall have a Document level charge VAT category code (BT-102).',
  },
  'BR-38': {
    flag: 'fatal',
    text: 'Each Document level charge (BG-21) shall have a Document level charge reason (BT-104) or a Document level charge reason code (BT-105).',
  },
  'BR-CO-06': {
    flag: 'fatal',
    text: 'Document level charge reason code (BT-105) and Document level charge reason (BT-104) shall indicate the same type of charge.',
  },
  'BR-CO-22': {
    flag: 'fatal',
    text: 'Each Document level charge (BG-21) shall contain a Document level charge reason (BT-104) or a Document level charge reason code (BT-105), or both.',
  },
  'BR-DEC-05': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Document level charge amount (BT-99) is 2.',
  },
  'BR-DEC-06': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Document level charge base amount (BT-100) is 2.',
  },
  'BR-12': { flag: 'fatal', text: 'An Invoice shall have the Sum of Invoice line net amount (BT-106).' },
  'BR-13': { flag: 'fatal', text: 'An Invoice shall have the Invoice total amount without VAT (BT-109).' },
  'BR-14': { flag: 'fatal', text: 'An Invoice shall have the Invoice total amount with VAT (BT-112).' },
  'BR-15': { flag: 'fatal', text: 'An Invoice shall have the Amount due for payment (BT-115).' },
  'BR-CO-10': {
    flag: 'fatal',
    text: 'Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131).',
  },
  'BR-CO-11': {
    flag: 'fatal',
    text: 'Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92).',
  },
  'BR-CO-12': {
    flag: 'fatal',
    text: 'Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99).',
  },
  'BR-CO-13': {
    flag: 'fatal',
    text: 'Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-131) - Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108).',
  },
  'BR-CO-16': {
    flag: 'fatal',
    text: 'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) +Rounding amount (BT-114).',
  },
  'BR-DEC-09': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Sum of Invoice line net amount (BT-106) is 2.',
  },
  'BR-DEC-10': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Sum of allowanced on document level (BT-107) is 2.',
  },
  'BR-DEC-11': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Sum of charges on document level (BT-108) is 2.',
  },
  'BR-DEC-12': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice total amount without VAT (BT-109) is 2.',
  },
  'BR-DEC-14': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice total amount with VAT (BT-112) is 2.',
  },
  'BR-DEC-16': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Paid amount (BT-113) is 2.',
  },
  'BR-DEC-17': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Rounding amount (BT-114) is 2.',
  },
  'BR-DEC-18': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Amount due for payment (BT-115) is 2.',
  },
  'BR-01': { flag: 'fatal', text: 'An Invoice shall have a Specification identifier (BT-24).' },
  'BR-02': { flag: 'fatal', text: 'An Invoice shall have an Invoice number (BT-1).' },
  'BR-03': { flag: 'fatal', text: 'An Invoice shall have an Invoice issue date (BT-2).' },
  'BR-04': { flag: 'fatal', text: 'An Invoice shall have an Invoice type code (BT-3).' },
  'BR-05': { flag: 'fatal', text: 'An Invoice shall have an Invoice currency code (BT-5).' },
  'BR-06': { flag: 'fatal', text: 'An Invoice shall contain the Seller name (BT-27).' },
  'BR-07': { flag: 'fatal', text: 'An Invoice shall contain the Buyer name (BT-44).' },
  'BR-08': { flag: 'fatal', text: 'An Invoice shall contain the Seller postal address.' },
  'BR-10': { flag: 'fatal', text: 'An Invoice shall contain the Buyer postal address (BG-8).' },
  'BR-16': { flag: 'fatal', text: 'An Invoice shall have at least one Invoice line (BG-25)' },
  'BR-53': {
    flag: 'fatal',
    text: 'If the VAT accounting currency code (BT-6) is present, then the Invoice total VAT amount in accounting currency (BT-111) shall be provided.',
  },
  'BR-AE-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Reverse charge" shall contain in the VAT Breakdown (BG-23) exactly one VAT category code (BT-118) equal with "VAT reverse charge".',
  },
  'BR-AE-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Reverse charge" shall contain the Seller VAT Identifier (BT-31), the Seller Tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) and/or the Buyer legal registration identifier (BT-47).',
  },
  'BR-AE-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Reverse charge" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) and/or the Buyer legal registration identifier (BT-47).',
  },
  'BR-AE-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Reverse charge" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) and/or the Buyer legal registration identifier (BT-47).',
  },
  'BR-CO-03': {
    flag: 'fatal',
    text: 'Value added tax point date (BT-7) and Value added tax point date code (BT-8) are mutually exclusive.',
  },
  'BR-CO-15': {
    flag: 'fatal',
    text: 'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
  },
  'BR-CO-18': { flag: 'fatal', text: 'An Invoice shall at least have one VAT breakdown group (BG-23).' },
  'BR-DEC-13': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice total VAT amount (BT-110) is 2.',
  },
  'BR-DEC-15': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice total VAT amount in accounting currency (BT-111) is 2.',
  },
  'BR-E-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Exempt from VAT" shall contain exactly one VAT breakdown (BG-23) with the VAT category code (BT-118) equal to "Exempt from VAT".',
  },
  'BR-E-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Exempt from VAT" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-E-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Exempt from VAT" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-E-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Exempt from VAT" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-G-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Export outside the EU" shall contain in the VAT breakdown (BG-23) exactly one VAT category code (BT-118) equal with "Export outside the EU".',
  },
  'BR-G-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Export outside the EU" shall contain the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-G-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Export outside the EU" shall contain the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-G-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Export outside the EU" shall contain the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-IC-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Intra-community supply" shall contain in the VAT breakdown (BG-23) exactly one VAT category code (BT-118) equal with "Intra-community supply".',
  },
  'BR-IC-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Intra-community supply" shall contain the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48).',
  },
  'BR-IC-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Intra-community supply" shall contain the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48).',
  },
  'BR-IC-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Intra-community supply" shall contain the Seller VAT Identifier (BT-31) or the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48).',
  },
  'BR-IC-11': {
    flag: 'fatal',
    text: 'In an Invoice with a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the Actual delivery date (BT-72) or the Invoicing period (BG-14) shall not be blank.',
  },
  'BR-IC-12': {
    flag: 'fatal',
    text: 'In an Invoice with a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the Deliver to country code (BT-80) shall not be blank.',
  },
  'BR-AF-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "IGIC" shall contain in the VAT breakdown (BG-23) at least one VAT category code (BT-118) equal with "IGIC".',
  },
  'BR-AF-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "IGIC" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-AF-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "IGIC" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-AF-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "IGIC" shall contain the Seller VAT Identifier (BT-31), the Seller Tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-AG-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "IPSI" shall contain in the VAT breakdown (BG-23) at least one VAT category code (BT-118) equal with "IPSI".',
  },
  'BR-AG-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "IPSI" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-AG-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "IPSI" shall contain the Seller VAT Identifier (BT-31), the Seller Tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-AG-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "IPSI" shall contain the Seller VAT Identifier (BT-31), the Seller Tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-O-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Not subject to VAT" shall contain exactly one VAT breakdown group (BG-23) with the VAT category code (BT-118) equal to "Not subject to VAT".',
  },
  'BR-O-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Not subject to VAT" shall not contain the Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) or the Buyer VAT identifier (BT-48).',
  },
  'BR-O-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Not subject to VAT" shall not contain the Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) or the Buyer VAT identifier (BT-48).',
  },
  'BR-O-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Not subject to VAT" shall not contain the Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) or the Buyer VAT identifier (BT-48).',
  },
  'BR-O-11': {
    flag: 'fatal',
    text: 'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain other VAT breakdown groups (BG-23).',
  },
  'BR-O-12': {
    flag: 'fatal',
    text: 'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is not "Not subject to VAT".',
  },
  'BR-O-13': {
    flag: 'fatal',
    text: 'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain Document level allowances (BG-20) where Document level allowance VAT category code (BT-95) is not "Not subject to VAT".',
  },
  'BR-O-14': {
    flag: 'fatal',
    text: 'An Invoice that contains a VAT breakdown group (BG-23) with a VAT category code (BT-118) "Not subject to VAT" shall not contain Document level charges (BG-21) where Document level charge VAT category code (BT-102) is not "Not subject to VAT".',
  },
  'BR-S-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Standard rated" shall contain in the VAT breakdown (BG-23) at least one VAT category code (BT-118) equal with "Standard rated".',
  },
  'BR-S-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Standard rated" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-S-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Standard rated" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-S-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Standard rated" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-Z-01': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95 or BT-102) is "Zero rated" shall contain in the VAT breakdown (BG-23) exactly one VAT category code (BT-118) equal with "Zero rated".',
  },
  'BR-Z-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line where the Invoiced item VAT category code (BT-151) is "Zero rated" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-Z-03': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Zero rated" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-Z-04': {
    flag: 'fatal',
    text: 'An Invoice that contains a Document level charge where the Document level charge VAT category code (BT-102) is "Zero rated" shall contain the Seller VAT Identifier (BT-31), the Seller tax registration identifier (BT-32) and/or the Seller tax representative VAT identifier (BT-63).',
  },
  'BR-B-01': {
    flag: 'fatal',
    text: 'An Invoice where the VAT category code (BT-151, BT-95 or BT-102) is “Split payment” shall be a domestic Italian invoice.',
  },
  'BR-B-02': {
    flag: 'fatal',
    text: 'An Invoice that contains an Invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95, BT-118 or BT-102) is “Split payment" shall not contain an invoice line (BG-25), a Document level allowance (BG-20) or a Document level charge (BG-21) where the VAT category code (BT-151, BT-95, BT-118 or BT-102) is “Standard rated”.',
  },
  'BR-21': {
    flag: 'fatal',
    text: 'Each Invoice line (BG-25) shall have an Invoice line identifier (BT-126).',
  },
  'BR-22': { flag: 'fatal', text: 'Each Invoice line (BG-25) shall have an Invoiced quantity (BT-129).' },
  'BR-23': {
    flag: 'fatal',
    text: 'An Invoice line (BG-25) shall have an Invoiced quantity unit of measure code (BT-130).',
  },
  'BR-24': {
    flag: 'fatal',
    text: 'Each Invoice line (BG-25) shall have an Invoice line net amount (BT-131).',
  },
  'BR-25': { flag: 'fatal', text: 'Each Invoice line (BG-25) shall contain the Item name (BT-153).' },
  'BR-26': { flag: 'fatal', text: 'Each Invoice line (BG-25) shall contain the Item net price (BT-146).' },
  'BR-27': { flag: 'fatal', text: 'The Item net price (BT-146) shall NOT be negative.' },
  'BR-28': { flag: 'fatal', text: 'The Item gross price (BT-148) shall NOT be negative.' },
  'BR-CO-04': {
    flag: 'fatal',
    text: 'Each Invoice line (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151).',
  },
  'BR-DEC-23': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice line net amount (BT-131) is 2.',
  },
  'BR-41': {
    flag: 'fatal',
    text: 'Each Invoice line allowance (BG-27) shall have an Invoice line allowance amount (BT-136).',
  },
  'BR-42': {
    flag: 'fatal',
    text: 'Each Invoice line allowance (BG-27) shall have an Invoice line allowance reason (BT-139) or an Invoice line allowance reason code (BT-140).',
  },
  'BR-CO-07': {
    flag: 'fatal',
    text: 'Invoice line allowance reason code (BT-140) and Invoice line allowance reason (BT-139) shall indicate the same type of allowance reason.',
  },
  'BR-CO-23': {
    flag: 'fatal',
    text: 'Each Invoice line allowance (BG-27) shall contain an Invoice line allowance reason (BT-139) or an Invoice line allowance reason code (BT-140), or both.',
  },
  'BR-DEC-24': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice line allowance amount (BT-136) is 2.',
  },
  'BR-DEC-25': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice line allowance base amount (BT-137) is 2.',
  },
  'BR-43': {
    flag: 'fatal',
    text: 'Each Invoice line charge (BG-28) shall have an Invoice line charge amount (BT-141).',
  },
  'BR-44': {
    flag: 'fatal',
    text: 'Each Invoice line charge shall have an Invoice line charge reason or an invoice line allowance reason code.',
  },
  'BR-CO-08': {
    flag: 'fatal',
    text: 'Invoice line charge reason code (BT-145) and Invoice line charge reason (BT-144) shall indicate the same type of charge reason.',
  },
  'BR-CO-24': {
    flag: 'fatal',
    text: 'Each Invoice line charge (BG-28) shall contain an Invoice line charge reason (BT-144) or an Invoice line charge reason code (BT-145), or both.',
  },
  'BR-DEC-27': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice line charge amount (BT-141) is 2.',
  },
  'BR-DEC-28': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the Invoice line charge base amount (BT-142) is 2.',
  },
  'BR-30': {
    flag: 'fatal',
    text: 'If both Invoice line period start date (BT-134) and Invoice line period end date (BT-135) are given then the Invoice line period end date (BT-135) shall be later or equal to the Invoice line period start date (BT-134).',
  },
  'BR-CO-20': {
    flag: 'fatal',
    text: 'If Invoice line period (BG-26) is used, the Invoice line period start date (BT-134) or the Invoice line period end date (BT-135) shall be filled, or both.',
  },
  'BR-29': {
    flag: 'fatal',
    text: 'If both Invoicing period start date (BT-73) and Invoicing period end date (BT-74) are given then the Invoicing period end date (BT-74) shall be later or equal to the Invoicing period start date (BT-73).',
  },
  'BR-CO-19': {
    flag: 'fatal',
    text: 'If Invoicing period (BG-14) is used, the Invoicing period start date (BT-73) or the Invoicing period end date (BT-74) shall be filled, or both.',
  },
  'BR-54': {
    flag: 'fatal',
    text: 'Each Item attribute (BG-32) shall contain an Item attribute name (BT-160) and an Item attribute value (BT-161).',
  },
  'BR-65': {
    flag: 'fatal',
    text: 'The Item classification identifier (BT-158) shall have a Scheme identifier.',
  },
  'BR-64': { flag: 'fatal', text: 'The Item standard identifier (BT-157) shall have a Scheme identifier.' },
  'BR-CL-08': { flag: 'fatal', text: 'Invoiced note subject code shall be coded using UNCL4451' },
  'BR-17': {
    flag: 'fatal',
    text: 'The Payee name (BT-59) shall be provided in the Invoice, if the Payee (BG-10) is different from the Seller (BG-4)',
  },
  'BR-50': {
    flag: 'fatal',
    text: 'A Payment account identifier (BT-84) shall be present if Credit transfer (BG-17) information is provided in the Invoice.',
  },
  'BR-49': {
    flag: 'fatal',
    text: 'A Payment instruction (BG-16) shall specify the Payment means type code (BT-81).',
  },
  'BR-61': {
    flag: 'fatal',
    text: 'If the Payment means type code (BT-81) means SEPA credit transfer, Local credit transfer or Non-SEPA international credit transfer, the Payment account identifier (BT-84) shall be present.',
  },
  'BR-55': {
    flag: 'fatal',
    text: 'Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25).',
  },
  'BR-CO-26': {
    flag: 'fatal',
    text: 'In order for the buyer to automatically identify a supplier, the Seller identifier (BT-29), the Seller legal registration identifier (BT-30) and/or the Seller VAT identifier (BT-31) shall be present.',
  },
  'BR-62': { flag: 'fatal', text: 'The Seller electronic address (BT-34) shall have a Scheme identifier.' },
  'BR-09': {
    flag: 'fatal',
    text: 'The Seller postal address (BG-5) shall contain a Seller country code (BT-40).',
  },
  'BR-18': {
    flag: 'fatal',
    text: 'The Seller tax representative name (BT-62) shall be provided in the Invoice, if the Seller (BG-4) has a Seller tax representative party (BG-11)',
  },
  'BR-19': {
    flag: 'fatal',
    text: 'The Seller tax representative postal address (BG-12) shall be provided in the Invoice, if the Seller (BG-4) has a Seller tax representative party (BG-11).',
  },
  'BR-56': {
    flag: 'fatal',
    text: 'Each Seller tax representative party (BG-11) shall have a Seller tax representative VAT identifier (BT-63).',
  },
  'BR-20': {
    flag: 'fatal',
    text: 'The Seller tax representative postal address (BG-12) shall contain a Tax representative country code (BT-69), if the Seller (BG-4) has a Seller tax representative party (BG-11).',
  },
  'BR-CO-14': {
    flag: 'fatal',
    text: 'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117).',
  },
  'BR-45': {
    flag: 'fatal',
    text: 'Each VAT breakdown (BG-23) shall have a VAT category taxable amount (BT-116).',
  },
  'BR-46': {
    flag: 'fatal',
    text: 'Each VAT breakdown (BG-23) shall have a VAT category tax amount (BT-117).',
  },
  'BR-47': {
    flag: 'fatal',
    text: 'Each VAT breakdown (BG-23) shall be defined through a VAT category code (BT-118).',
  },
  'BR-48': {
    flag: 'fatal',
    text: 'Each VAT breakdown (BG-23) shall have a VAT category rate (BT-119), except if the Invoice is not subject to VAT.',
  },
  'BR-CO-17': {
    flag: 'fatal',
    text: 'VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) / 100), rounded to two decimals.',
  },
  'BR-DEC-19': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the VAT category taxable amount (BT-116) is 2.',
  },
  'BR-DEC-20': {
    flag: 'fatal',
    text: 'The allowed maximum number of decimals for the VAT category tax amount (BT-117) is 2.',
  },
  'BR-CO-09': {
    flag: 'fatal',
    text: 'The Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) shall have a prefix in accordance with ISO code ISO 3166-1 alpha-2 by which the country of issue may be identified. Nevertheless, Greece may use the prefix ‘EL’.',
  },
  'BR-AE-08': {
    flag: 'fatal',
    text: 'In a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Reverse charge" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are "Reverse charge".',
  },
  'BR-AE-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Reverse charge" shall be 0 (zero).',
  },
  'BR-AE-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) "Reverse charge" shall have a VAT exemption reason code (BT-121), meaning "Reverse charge" or the VAT exemption reason text (BT-120) "Reverse charge" (or the equivalent standard text in another language).',
  },
  'BR-AE-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Reverse charge" the Document level allowance VAT rate (BT-96) shall be 0 (zero).',
  },
  'BR-AE-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Reverse charge" the Document level charge VAT rate (BT-103) shall be 0 (zero).',
  },
  'BR-AE-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Reverse charge" the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
  },
  'BR-E-08': {
    flag: 'fatal',
    text: 'In a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Exempt from VAT" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are "Exempt from VAT".',
  },
  'BR-E-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) In a VAT breakdown (BG-23) where the VAT category code (BT-118) equals "Exempt from VAT" shall equal 0 (zero).',
  },
  'BR-E-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) "Exempt from VAT" shall have a VAT exemption reason code (BT-121) or a VAT exemption reason text (BT-120).',
  },
  'BR-E-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Exempt from VAT", the Document level allowance VAT rate (BT-96) shall be 0 (zero).',
  },
  'BR-E-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Exempt from VAT", the Document level charge VAT rate (BT-103) shall be 0 (zero).',
  },
  'BR-E-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Exempt from VAT", the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
  },
  'BR-G-08': {
    flag: 'fatal',
    text: 'In a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Export outside the EU" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are "Export outside the EU".',
  },
  'BR-G-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Export outside the EU" shall be 0 (zero).',
  },
  'BR-G-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with the VAT Category code (BT-118) "Export outside the EU" shall have a VAT exemption reason code (BT-121), meaning "Export outside the EU" or the VAT exemption reason text (BT-120) "Export outside the EU" (or the equivalent standard text in another language).',
  },
  'BR-G-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Export outside the EU" the Document level allowance VAT rate (BT-96) shall be 0 (zero).',
  },
  'BR-G-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Export outside the EU" the Document level charge VAT rate (BT-103) shall be 0 (zero).',
  },
  'BR-G-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Export outside the EU" the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
  },
  'BR-IC-08': {
    flag: 'fatal',
    text: 'In a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are "Intra-community supply".',
  },
  'BR-IC-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" shall be 0 (zero).',
  },
  'BR-IC-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with the VAT Category code (BT-118) "Intra-community supply" shall have a VAT exemption reason code (BT-121), meaning "Intra-community supply" or the VAT exemption reason text (BT-120) "Intra-community supply" (or the equivalent standard text in another language).',
  },
  'BR-IC-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Intra-community supply" the Document level allowance VAT rate (BT-96) shall be 0 (zero).',
  },
  'BR-IC-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Intra-community supply" the Document level charge VAT rate (BT-103) shall be 0 (zero).',
  },
  'BR-IC-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Intracommunity supply" the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
  },
  'BR-AF-08': {
    flag: 'fatal',
    text: 'For each different value of VAT category rate (BT-119) where the VAT category code (BT-118) is "IGIC", the VAT category taxable amount (BT-116) in a VAT breakdown (BG-23) shall equal the sum of Invoice line net amounts (BT-131) plus the sum of document level charge amounts (BT-99) minus the sum of document level allowance amounts (BT-92) where the VAT category code (BT-151, BT-102, BT-95) is "IGIC" and the VAT rate (BT-152, BT-103, BT-96) equals the VAT category rate (BT-119).',
  },
  'BR-AF-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where VAT category code (BT-118) is "IGIC" shall equal the VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119).',
  },
  'BR-AF-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) "IGIC" shall not have a VAT exemption reason code (BT-121) or VAT exemption reason text (BT-120).',
  },
  'BR-AF-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "IGIC" the Document level allowance VAT rate (BT-96) shall be 0 (zero) or greater than zero.',
  },
  'BR-AF-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "IGIC" the Document level charge VAT rate (BT-103) shall be 0 (zero) or greater than zero.',
  },
  'BR-AF-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "IGIC" the invoiced item VAT rate (BT-152) shall be 0 (zero) or greater than zero.',
  },
  'BR-AG-08': {
    flag: 'fatal',
    text: 'For each different value of VAT category rate (BT-119) where the VAT category code (BT-118) is "IPSI", the VAT category taxable amount (BT-116) in a VAT breakdown (BG-23) shall equal the sum of Invoice line net amounts (BT-131) plus the sum of document level charge amounts (BT-99) minus the sum of document level allowance amounts (BT-92) where the VAT category code (BT-151, BT-102, BT-95) is "IPSI" and the VAT rate (BT-152, BT-103, BT-96) equals the VAT category rate (BT-119).',
  },
  'BR-AG-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where VAT category code (BT-118) is "IPSI" shall equal the VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119).',
  },
  'BR-AG-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) "IPSI" shall not have a VAT exemption reason code (BT-121) or VAT exemption reason text (BT-120).',
  },
  'BR-AG-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "IPSI" the Document level allowance VAT rate (BT-96) shall be 0 (zero) or greater than zero.',
  },
  'BR-AG-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "IPSI" the Document level charge VAT rate (BT-103) shall be 0 (zero) or greater than zero.',
  },
  'BR-AG-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "IPSI" the Invoiced item VAT rate (BT-152) shall be 0 (zero) or greater than zero.',
  },
  'BR-O-08': {
    flag: 'fatal',
    text: 'In a VAT breakdown (BG-23) where the VAT category code (BT-118) is " Not subject to VAT" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amounts (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are "Not subject to VAT".',
  },
  'BR-O-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Not subject to VAT" shall be 0 (zero).',
  },
  'BR-O-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) " Not subject to VAT" shall have a VAT exemption reason code (BT-121), meaning " Not subject to VAT" or a VAT exemption reason text (BT-120) " Not subject to VAT" (or the equivalent standard text in another language).',
  },
  'BR-O-06': {
    flag: 'fatal',
    text: 'A Document level allowance (BG-20) where VAT category code (BT-95) is "Not subject to VAT" shall not contain a Document level allowance VAT rate (BT-96).',
  },
  'BR-O-07': {
    flag: 'fatal',
    text: 'A Document level charge (BG-21) where the VAT category code (BT-102) is "Not subject to VAT" shall not contain a Document level charge VAT rate (BT-103).',
  },
  'BR-O-05': {
    flag: 'fatal',
    text: 'An Invoice line (BG-25) where the VAT category code (BT-151) is "Not subject to VAT" shall not contain an Invoiced item VAT rate (BT-152).',
  },
  'BR-S-08': {
    flag: 'fatal',
    text: 'For each different value of VAT category rate (BT-119) where the VAT category code (BT-118) is "Standard rated", the VAT category taxable amount (BT-116) in a VAT breakdown (BG-23) shall equal the sum of Invoice line net amounts (BT-131) plus the sum of document level charge amounts (BT-99) minus the sum of document level allowance amounts (BT-92) where the VAT category code (BT-151, BT-102, BT-95) is "Standard rated" and the VAT rate (BT-152, BT-103, BT-96) equals the VAT category rate (BT-119).',
  },
  'BR-S-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where VAT category code (BT-118) is "Standard rated" shall equal the VAT category taxable amount (BT-116) multiplied by the VAT category rate (BT-119).',
  },
  'BR-S-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) "Standard rate" shall not have a VAT exemption reason code (BT-121) or VAT exemption reason text (BT-120).',
  },
  'BR-S-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Standard rated" the Document level allowance VAT rate (BT-96) shall be greater than zero.',
  },
  'BR-S-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Standard rated" the Document level charge VAT rate (BT-103) shall be greater than zero.',
  },
  'BR-S-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Standard rated" the Invoiced item VAT rate (BT-152) shall be greater than zero.',
  },
  'BR-Z-08': {
    flag: 'fatal',
    text: 'In a VAT breakdown (BG-23) where VAT category code (BT-118) is "Zero rated" the VAT category taxable amount (BT-116) shall equal the sum of Invoice line net amount (BT-131) minus the sum of Document level allowance amounts (BT-92) plus the sum of Document level charge amounts (BT-99) where the VAT category codes (BT-151, BT-95, BT-102) are "Zero rated".',
  },
  'BR-Z-09': {
    flag: 'fatal',
    text: 'The VAT category tax amount (BT-117) in a VAT breakdown (BG-23) where VAT category code (BT-118) is "Zero rated" shall equal 0 (zero).',
  },
  'BR-Z-10': {
    flag: 'fatal',
    text: 'A VAT breakdown (BG-23) with VAT Category code (BT-118) "Zero rated" shall not have a VAT exemption reason code (BT-121) or VAT exemption reason text (BT-120).',
  },
  'BR-Z-06': {
    flag: 'fatal',
    text: 'In a Document level allowance (BG-20) where the Document level allowance VAT category code (BT-95) is "Zero rated" the Document level allowance VAT rate (BT-96) shall be 0 (zero).',
  },
  'BR-Z-07': {
    flag: 'fatal',
    text: 'In a Document level charge (BG-21) where the Document level charge VAT category code (BT-102) is "Zero rated" the Document level charge VAT rate (BT-103) shall be 0 (zero).',
  },
  'BR-Z-05': {
    flag: 'fatal',
    text: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Zero rated" the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
  },
  'BR-CL-01': {
    flag: 'fatal',
    text: 'The document type code MUST be coded by the invoice and credit note related code lists of UNTDID 1001.',
  },
  'BR-CL-03': { flag: 'fatal', text: 'currencyID MUST be coded using ISO code list 4217 alpha-3' },
  'BR-CL-04': { flag: 'fatal', text: 'Invoice currency code MUST be coded using ISO code list 4217 alpha-3' },
  'BR-CL-05': { flag: 'fatal', text: 'Tax currency code MUST be coded using ISO code list 4217 alpha-3' },
  'BR-CL-06': {
    flag: 'fatal',
    text: 'Value added tax point date code MUST be coded using a restriction of UNTDID 2005.',
  },
  'BR-CL-07': {
    flag: 'fatal',
    text: 'Object identifier identification scheme identifier MUST be coded using a restriction of UNTDID 1153.',
  },
  'BR-CL-10': {
    flag: 'fatal',
    text: 'Any identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list.',
  },
  'BR-CL-11': {
    flag: 'fatal',
    text: 'Any registration identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list.',
  },
  'BR-CL-13': {
    flag: 'fatal',
    text: 'Item classification identifier identification scheme identifier MUST be coded using one of the UNTDID 7143 list.',
  },
  'BR-CL-14': { flag: 'fatal', text: 'Country codes in an invoice MUST be coded using ISO code list 3166-1' },
  'BR-CL-15': { flag: 'fatal', text: 'Country codes in an invoice MUST be coded using ISO code list 3166-1' },
  'BR-CL-16': { flag: 'fatal', text: 'Payment means in an invoice MUST be coded using UNCL4461 code list' },
  'BR-CL-17': { flag: 'fatal', text: 'Invoice tax categories MUST be coded using UNCL5305 code list' },
  'BR-CL-18': { flag: 'fatal', text: 'Invoice tax categories MUST be coded using UNCL5305 code list' },
  'BR-CL-19': { flag: 'fatal', text: 'Coded allowance reasons MUST belong to the UNCL 5189 code list' },
  'BR-CL-20': { flag: 'fatal', text: 'Coded charge reasons MUST belong to the UNCL 7161 code list' },
  'BR-CL-21': {
    flag: 'fatal',
    text: 'Item standard identifier scheme identifier MUST belong to the ISO 6523 ICD code list',
  },
  'BR-CL-22': {
    flag: 'fatal',
    text: 'Tax exemption reason code identifier scheme identifier MUST belong to the CEF VATEX code list',
  },
  'BR-CL-23': {
    flag: 'fatal',
    text: 'Unit code MUST be coded according to the UN/ECE Recommendation 20 with Rec 21 extension',
  },
  'BR-CL-24': { flag: 'fatal', text: 'For Mime code in attribute use MIMEMediaType.' },
  'BR-CL-25': {
    flag: 'fatal',
    text: 'Endpoint identifier scheme identifier MUST belong to the CEF EAS code list',
  },
  'BR-CL-26': {
    flag: 'fatal',
    text: 'Delivery location identifier scheme identifier MUST belong to the ISO 6523 ICD code list',
  },
}
