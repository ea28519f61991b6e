import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { decodePng, encodePng, pngSize, type Rgba } from '../vision/png.js';
import { composeLabels } from '../vision/som-overlay.js';

function noise(width: number, height: number, seed = 7): Rgba {
  const data = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = (s >>> 16) & 0xff;
  }
  return { width, height, data };
}

/** A PNG written the way other encoders write them: every row filter in turn, RGB or RGBA. */
function foreignPng(img: Rgba, channels: 3 | 4): Buffer {
  const stride = img.width * channels;
  const rows: number[][] = [];
  for (let y = 0; y < img.height; y++) {
    const row: number[] = [];
    for (let x = 0; x < img.width; x++) for (let k = 0; k < channels; k++) row.push(img.data[(y * img.width + x) * 4 + k]!);
    rows.push(row);
  }
  const out: number[] = [];
  rows.forEach((row, y) => {
    const filter = y % 5;
    const prev = y > 0 ? rows[y - 1]! : new Array<number>(stride).fill(0);
    out.push(filter);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0, b = prev[i]!, c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const pred = [0, a, b, (a + b) >> 1, paeth][filter]!;
      out.push((row[i]! - pred) & 0xff);
    }
  });
  const rgba = encodePng(img);
  // Reuse the signature and IHDR layout of our own encoder, patching colour type and data.
  const ihdr = Buffer.from(rgba.subarray(8, 33));
  ihdr[17] = channels === 4 ? 6 : 2;
  // The IHDR checksum is left stale: a screenshot's chunks are not verified, only its pixels are used.
  const data = zlib.deflateSync(Buffer.from(out));
  const idat = Buffer.alloc(12 + data.length);
  idat.writeUInt32BE(data.length, 0);
  idat.write('IDAT', 4, 'latin1');
  data.copy(idat, 8);
  return Buffer.concat([rgba.subarray(0, 8), ihdr, idat, rgba.subarray(rgba.length - 12)]);
}

test('PNG: what is encoded decodes to the same pixels', () => {
  const img = noise(37, 23);
  const png = encodePng(img);
  assert.deepEqual(pngSize(png), { width: 37, height: 23 });
  assert.deepEqual(decodePng(png).data, img.data);
});

test('PNG: every row filter, in RGB and RGBA, decodes to the written pixels', () => {
  const img = noise(19, 11, 3);
  assert.deepEqual(decodePng(foreignPng(img, 4)).data, img.data);
  const rgb = decodePng(foreignPng(img, 3)).data;
  for (let i = 0; i < img.data.length; i++) assert.equal(rgb[i], i % 4 === 3 ? 255 : img.data[i], `byte ${i}`);
});

/** The encoder as first written, one byte at a time: the word-wise one must write the very same file. */
function byteWisePng(img: Rgba): Buffer {
  const stride = img.width * 4;
  const raw = Buffer.alloc(img.height * (stride + 1));
  for (let y = 0; y < img.height; y++) {
    raw[y * (stride + 1)] = 1;
    for (let i = 0; i < stride; i++) raw[y * (stride + 1) + 1 + i] = (img.data[y * stride + i]! - (i >= 4 ? img.data[y * stride + i - 4]! : 0)) & 0xff;
  }
  return zlib.deflateSync(raw, { level: 1 });
}

test('PNG: the same bytes as a byte-wise encoder, so labelled screenshots (and the model calls recorded with them) do not change', () => {
  for (const img of [noise(37, 23, 5), noise(1, 3, 9), { width: 64, height: 8, data: new Uint8Array(64 * 8 * 4).fill(255) }]) {
    const png = encodePng(img);
    const idat = png.subarray(41, png.length - 16);
    assert.deepEqual(idat, byteWisePng(img));
    // A view that does not start on a word boundary takes the byte-wise path and writes the same file.
    const shifted = new Uint8Array(img.data.length + 1);
    shifted.set(img.data, 1);
    assert.deepEqual(encodePng({ ...img, data: shifted.subarray(1) }), png);
  }
});

test('PNG: anything else is refused with what it is', () => {
  assert.throws(() => decodePng(Buffer.from('GIF89a not a png at all, long enough to read')), /not a PNG/);
  const png = encodePng(noise(4, 4));
  png[24] = 16;
  assert.throws(() => decodePng(png), /bit depth 16/);
});

test('labels: a box in its colour, the number tag above it, the rest of the screenshot untouched', () => {
  const white: Rgba = { width: 120, height: 80, data: new Uint8Array(120 * 80 * 4).fill(255) };
  const out = decodePng(composeLabels(encodePng(white), [{ n: 7, box: { x: 40, y: 30, width: 50, height: 20 } }]));
  const at = (x: number, y: number) => [...out.data.subarray((y * 120 + x) * 4, (y * 120 + x) * 4 + 4)];
  const colour7 = [0xf0, 0x32, 0xe6, 255];
  assert.deepEqual(at(40, 40), colour7, 'left border');
  assert.deepEqual(at(89, 49), colour7, 'bottom-right corner');
  assert.deepEqual(at(60, 40), [255, 255, 255, 255], 'inside the box');
  assert.deepEqual(at(5, 5), [255, 255, 255, 255], 'far from any mark');
  const tag = [...Array(16).keys()].flatMap((dy) => [...Array(16).keys()].map((dx) => at(40 + dx, 14 + dy).join()));
  assert.ok(tag.includes(colour7.join()) && tag.includes('255,255,255,255'), 'the tag has its colour and white digit strokes');
  assert.equal(composeLabels(encodePng(white), []).length, encodePng(white).length, 'no marks: the screenshot as it was');
});
