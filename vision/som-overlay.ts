import type { Rect } from './som-collect.js';
import { decodePng, encodePng } from './png.js';

export { pngSize } from './png.js';

/**
 * Draws the Set-of-Mark boxes onto a copy of a screenshot, in this process, so the judged page is never
 * touched and no browser page is spent on it. Labels are numbers only, so a bitmap digit font is all the
 * text rendering needed.
 */

const PALETTE: ReadonlyArray<readonly [number, number, number]> = [
  [0xe6, 0x19, 0x4b], [0x3c, 0xb4, 0x4b], [0x43, 0x63, 0xd8], [0xf5, 0x82, 0x31], [0x91, 0x1e, 0xb4],
  [0x00, 0x80, 0x80], [0xf0, 0x32, 0xe6], [0x9a, 0x63, 0x24], [0x80, 0x00, 0x00], [0x00, 0x00, 0x75],
];

/** 5x7 digits, one string of 7 rows of 5 bits each; drawn at twice the size (10x14), as legible as 12px bold. */
const DIGITS = [
  '01110 10001 10011 10101 11001 10001 01110', '00100 01100 00100 00100 00100 00100 01110',
  '01110 10001 00001 00010 00100 01000 11111', '11111 00010 00100 00010 00001 10001 01110',
  '00010 00110 01010 10010 11111 00010 00010', '11111 10000 11110 00001 00001 10001 01110',
  '00110 01000 10000 11110 10001 10001 01110', '11111 00001 00010 00100 01000 01000 01000',
  '01110 10001 10001 01110 10001 10001 01110', '01110 10001 10001 01111 00001 00010 01100',
].map((g) => g.split(' ').map((row) => [...row].map((b) => b === '1')));

const SCALE = 2, GLYPH_W = 5 * SCALE, ADVANCE = GLYPH_W + SCALE, TAG_H = 16, PAD = 3, BORDER = 2;

export interface Mark { n: number; box: Rect }

export function composeLabels(png: Buffer, marks: Mark[]): Buffer {
  if (marks.length === 0) return png;
  const img = decodePng(png);
  const canvas: Canvas = { width: img.width, height: img.height, words: new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height) };
  for (const m of marks) drawMark(canvas, m);
  return encodePng(img);
}

/** The image as one 32-bit word per pixel, so a run of pixels is one fill. */
interface Canvas { width: number; height: number; words: Uint32Array }

/** An opaque colour as the word its RGBA bytes make in memory, whatever the host's byte order. */
function word(r: number, g: number, b: number): number {
  return new Uint32Array(new Uint8Array([r, g, b, 255]).buffer)[0]!;
}

const COLOURS = PALETTE.map(([r, g, b]) => word(r, g, b));
const WHITE = word(255, 255, 255);

function drawMark(c: Canvas, m: Mark): void {
  const colour = COLOURS[(m.n - 1) % COLOURS.length]!;
  const x = Math.round(m.box.x), y = Math.round(m.box.y);
  const w = Math.max(Math.round(m.box.width), BORDER * 2), h = Math.max(Math.round(m.box.height), BORDER * 2);
  fill(c, x, y, w, BORDER, colour);
  fill(c, x, y + h - BORDER, w, BORDER, colour);
  fill(c, x, y, BORDER, h, colour);
  fill(c, x + w - BORDER, y, BORDER, h, colour);
  // The number sits above the box when there is room, else inside its top-left corner.
  const text = String(m.n);
  const tagW = text.length * ADVANCE - SCALE + PAD * 2;
  const tagY = y >= TAG_H ? y - TAG_H : y;
  fill(c, x, tagY, tagW, TAG_H, colour);
  for (let i = 0; i < text.length; i++) {
    const glyph = DIGITS[text.charCodeAt(i) - 48]!;
    const gx0 = x + PAD + i * ADVANCE;
    for (let gy = 0; gy < glyph.length; gy++) {
      for (let gx = 0; gx < glyph[gy]!.length; gx++) if (glyph[gy]![gx]) fill(c, gx0 + gx * SCALE, tagY + 1 + gy * SCALE, SCALE, SCALE, WHITE);
    }
  }
}

function fill(c: Canvas, x: number, y: number, w: number, h: number, colour: number): void {
  const x0 = Math.max(0, x), y0 = Math.max(0, y), x1 = Math.min(c.width, x + w), y1 = Math.min(c.height, y + h);
  for (let py = y0; py < y1; py++) c.words.fill(colour, py * c.width + x0, py * c.width + x1);
}
