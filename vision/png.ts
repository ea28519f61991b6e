import zlib from 'node:zlib';

/**
 * Just enough PNG to draw Set-of-Mark boxes on a screenshot in this process: 8-bit RGB or RGBA,
 * not interlaced, which is what Chromium writes. Drawing here instead of in a compositor page saves
 * two browser round trips and a second PNG encode per labelling (about 200 of 250 ms, measured).
 */

export interface Rgba {
  width: number;
  height: number;
  /** width * height * 4 bytes, row by row. */
  data: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG width and height from the IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.readUInt32BE(12) !== 0x49484452) throw new Error('not a PNG screenshot');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export function decodePng(png: Buffer): Rgba {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG screenshot');
  const { width, height } = pngSize(png);
  const depth = png[24], colour = png[25], interlace = png[28];
  const channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
  if (depth !== 8 || channels === 0 || interlace !== 0) {
    throw new Error(`unsupported PNG screenshot (bit depth ${depth}, colour type ${colour}, interlace ${interlace}): expected 8-bit RGB(A), not interlaced`);
  }
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    if (type === 'IEND') break;
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('truncated PNG screenshot');
  const out = new Uint8Array(width * height * 4);
  const out32 = new Uint32Array(out.buffer);
  // Rows are unfiltered in word-aligned buffers so that an Up row (every row Chromium writes) is added a
  // word, four bytes, at a time: the byte-by-byte loop took most of a labelling's drawing time.
  const words = Math.ceil(stride / 4);
  let prev = new Uint32Array(words);
  let cur = new Uint32Array(words);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const bytes = new Uint8Array(cur.buffer);
    bytes.set(raw.subarray(src, src + stride));
    unfilter(filter, bytes, new Uint8Array(prev.buffer), cur, prev, stride, channels);
    const row = y * width;
    if (channels === 4) out.set(bytes.subarray(0, stride), row * 4);
    else if (LITTLE_ENDIAN) for (let px = 0, i = 0; px < width; px++, i += 3) out32[row + px] = (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | 0xff000000) >>> 0;
    else for (let px = 0, i = 0; px < width; px++, i += 3) out.set([bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, 255], (row + px) * 4);
    [prev, cur] = [cur, prev];
  }
  return { width, height, data: out };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const LOW7 = 0x7f7f7f7f, HIGH = 0x80808080;

/** Reverses one row's filter in place (`cur` holds the filtered bytes, `prev` the row above, unfiltered). */
function unfilter(filter: number, cur: Uint8Array, prev: Uint8Array, curWords: Uint32Array, prevWords: Uint32Array, stride: number, channels: number): void {
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = channels; i < stride; i++) cur[i] = cur[i]! + cur[i - channels]!;
      return;
    case 2:
      // Four byte-wise additions modulo 256 in one word: the low seven bits add without carrying into the
      // next byte, and each byte's top bit is the exclusive or of the two top bits and that carry.
      for (let j = 0; j < curWords.length; j++) {
        const x = curWords[j]!, b = prevWords[j]!;
        curWords[j] = ((x & LOW7) + (b & LOW7)) ^ ((x ^ b) & HIGH);
      }
      return;
    case 3:
      for (let i = 0; i < stride; i++) cur[i] = cur[i]! + (((i >= channels ? cur[i - channels]! : 0) + prev[i]!) >> 1);
      return;
    case 4:
      for (let i = 0; i < stride; i++) {
        const a = i >= channels ? cur[i - channels]! : 0, b = prev[i]!, c = i >= channels ? prev[i - channels]! : 0;
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        cur[i] = cur[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw new Error(`corrupt PNG screenshot (row filter ${filter})`);
  }
}

/** RGBA in, PNG out; the Sub filter keeps screenshots small at the fastest compression level. */
export function encodePng(img: Rgba): Buffer {
  const stride = img.width * 4;
  const raw = Buffer.alloc(img.height * (stride + 1));
  // Sub on RGBA subtracts the pixel to the left: one word from the next, byte-wise, four bytes at a time.
  const aligned = img.data.byteOffset % 4 === 0;
  const pixels = aligned ? new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height) : null;
  const row = new Uint32Array(img.width);
  const rowBytes = new Uint8Array(row.buffer);
  for (let y = 0; y < img.height; y++) {
    const dst = y * (stride + 1), src = y * stride;
    raw[dst] = 1;
    if (pixels) {
      const first = y * img.width;
      row[0] = pixels[first]!;
      for (let x = 1; x < img.width; x++) {
        const a = pixels[first + x]!, b = pixels[first + x - 1]!;
        // a - b per byte modulo 256: set each byte's top bit of a and clear b's so no borrow crosses a byte.
        row[x] = ((a | HIGH) - (b & LOW7)) ^ ((a ^ ~b) & HIGH);
      }
      raw.set(rowBytes, dst + 1);
    } else for (let i = 0; i < stride; i++) raw[dst + 1 + i] = (img.data[src + i]! - (i >= 4 ? img.data[src + i - 4]! : 0)) & 0xff;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(crc32(0xffffffff, head.subarray(4)), data) ^ 0xffffffff) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(seed: number, bytes: Uint8Array): number {
  let c = seed;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c >>> 0;
}
