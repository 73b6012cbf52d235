// Draws the app icon: writes build/icons/icon.svg and the PNGs electron-builder packages
// (512x512 for macOS and Linux, 256x256 for Windows and Linux), from one list of shapes.
// Pure Node (zlib for PNG's deflate), so it runs anywhere without ImageMagick.
//   node build/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'icons');
const BLUE = [29, 78, 216];
const WHITE = [255, 255, 255];

// A speech bubble with three lines of text (rules and answers) on a blue rounded square; the
// coordinates are on a 512-unit canvas.
const SHAPES = [
  { kind: 'rect', x: 32, y: 32, w: 448, h: 448, r: 96, color: BLUE },
  { kind: 'rect', x: 104, y: 120, w: 304, h: 224, r: 48, color: WHITE },
  { kind: 'triangle', points: [150, 330, 250, 330, 140, 416], color: WHITE },
  { kind: 'rect', x: 152, y: 172, w: 208, h: 24, r: 12, color: BLUE },
  { kind: 'rect', x: 152, y: 220, w: 168, h: 24, r: 12, color: BLUE },
  { kind: 'rect', x: 152, y: 268, w: 120, h: 24, r: 12, color: BLUE },
];

const hex = (color) => `#${color.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

function svg() {
  const body = SHAPES.map((s) =>
    s.kind === 'rect'
      ? `  <rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" rx="${s.r}" fill="${hex(s.color)}"/>`
      : `  <polygon points="${s.points.join(' ')}" fill="${hex(s.color)}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">\n${body.join('\n')}\n</svg>\n`;
}

function inside(shape, x, y) {
  if (shape.kind === 'rect') {
    const { x: left, y: top, w, h, r } = shape;
    if (x < left || x > left + w || y < top || y > top + h) return false;
    const cx = Math.min(Math.max(x, left + r), left + w - r);
    const cy = Math.min(Math.max(y, top + r), top + h - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  }
  const [ax, ay, bx, by, cx, cy] = shape.points;
  const side = (px, py, qx, qy) => (qx - px) * (y - py) - (qy - py) * (x - px);
  const d1 = side(ax, ay, bx, by);
  const d2 = side(bx, by, cx, cy);
  const d3 = side(cx, cy, ax, ay);
  return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
}

/** RGBA pixels, 4x4 supersampled so edges are smooth. */
function rasterize(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const scale = 512 / size;
  const n = 4;
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy += 1) {
        for (let sx = 0; sx < n; sx += 1) {
          const x = (px + (sx + 0.5) / n) * scale;
          const y = (py + (sy + 0.5) / n) * scale;
          const top = SHAPES.findLast((shape) => inside(shape, x, y));
          if (!top) continue;
          for (let c = 0; c < 3; c += 1) sum[c] += top.color[c];
          sum[3] += 255;
        }
      }
      const coverage = sum[3] / 255;
      const at = (py * size + px) * 4;
      for (let c = 0; c < 3; c += 1) pixels[at + c] = coverage ? Math.round(sum[c] / coverage) : 0;
      pixels[at + 3] = Math.round(sum[3] / (n * n));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGBA PNG: signature, IHDR, one IDAT (each row prefixed by filter 0), IEND. */
function png(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) {
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'icon.svg'), svg());
for (const size of [512, 256]) {
  writeFileSync(join(OUT, `${size}x${size}.png`), png(size, rasterize(size)));
}
console.log(`icons written to ${OUT}`);
