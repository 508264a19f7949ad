/**
 * Helvetica and Helvetica-Bold, two of the PDF standard fonts every reader has (PDF 1.4 section 5.5.1),
 * named rather than embedded, in WinAnsiEncoding: what text the page can show and how wide it is.
 *
 * The widths are Adobe's, from its Core 14 font metrics (Helvetica.afm and Helvetica-Bold.afm, version
 * 002.000, "Copyright (c) 1985, 1987, 1989, 1990, 1997 Adobe Systems Incorporated"), the `WX` of each
 * glyph in units of 1/1000 of the font size, listed by WinAnsi code from 0x20 to 0xFF (Windows code page
 * 1252, PDF 1.4 Appendix D). Codes WinAnsi leaves undefined (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D) are 0:
 * `winAnsiBytes` never produces them.
 */

export type FontName = 'Helvetica' | 'Helvetica-Bold'

// biome-ignore format: a table by WinAnsi code, 16 codes to a row
const WIDTHS: Record<FontName, readonly number[]> = {
  Helvetica: [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // 0x20
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0x30
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // 0x40
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // 0x50
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // 0x60
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0, // 0x70
    556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0, // 0x80
    0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 500, // 0x90
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333, // 0xA0
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611, // 0xB0
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, // 0xC0
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, // 0xD0
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278, // 0xE0
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500, // 0xF0
  ],
  'Helvetica-Bold': [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, // 0x20
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, // 0x30
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, // 0x40
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, // 0x50
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, // 0x60
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0, // 0x70
    556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0, // 0x80
    0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 556, // 0x90
    278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333, // 0xA0
    400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611, // 0xB0
    722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, // 0xC0
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, // 0xD0
    556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278, // 0xE0
    611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556, // 0xF0
  ],
}

/** WinAnsi's codes 0x80-0x9F, which are not Latin-1's: the character each stands for (\0 where none). */
const WIN_ANSI_80_9F = '€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0\0‘’“”•–—˜™š›œ\0žŸ'
const EXTRA_CODES = new Map([...WIN_ANSI_80_9F].flatMap((c, i) => (c === '\0' ? [] : [[c, 0x80 + i]])))

/** The WinAnsi code of one character, or undefined when the encoding has none for it. */
function codeOf(c: string): number | undefined {
  const code = c.codePointAt(0)!
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code
  return EXTRA_CODES.get(c)
}

/**
 * Text as the fonts' WinAnsi codes, never anything else: letters outside it that have a Latin base
 * (Yoruba ọ, ẹ, ṣ; Hausa ƙ has none) lose their marks, control characters and line breaks become
 * spaces, anything else becomes "?". One character of the text is one byte, so widths and cuts can be
 * made on the bytes.
 */
export function winAnsiBytes(value: string): Uint8Array {
  const out: number[] = []
  // Composed first, so that an "e" followed by a combining acute is the "é" WinAnsi has.
  for (const c of value.normalize('NFC')) {
    const code = codeOf(c)
    if (code !== undefined) out.push(code)
    else if (c.codePointAt(0)! < 0x20 || c === '\u007f') out.push(0x20)
    else if (/^\p{M}$/u.test(c))
      continue // a mark left over on its own: dropped, as on a letter
    else {
      const bare = [...c.normalize('NFKD').replace(/\p{M}/gu, '')].map(codeOf)
      if (bare.length && bare.every((b) => b !== undefined)) out.push(...(bare as number[]))
      else out.push(0x3f)
    }
  }
  return Uint8Array.from(out)
}

/** Width of WinAnsi-encoded text in points at `size`; no kerning, as the page draws it (`Tj`). */
export function textWidth(bytes: Uint8Array, size: number, font: FontName): number {
  const widths = WIDTHS[font]
  let units = 0
  for (const b of bytes) units += widths[b - 0x20] ?? 0
  return (units * size) / 1000
}
