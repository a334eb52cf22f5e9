// Renders public/icon.svg's drawing (the brand-blue tile with a white "C") into the PNG and
// ICO files browsers ask for by name: node scripts/render-icons.mjs. Plain node (zlib), so no
// image tool has to be installed; run it again after changing the drawing in both places.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const BRAND = [0x18, 0x4c, 0x99];
const WHITE = [0xff, 0xff, 0xff];
// The drawing, in icon.svg's 64-unit box: a tile with 14-unit corners, and an arc of radius 14
// around (34.2, 32), 7 units wide with round ends, open to the right between ±45.6°.
const CENTER = [44 - Math.sqrt(14 ** 2 - 10 ** 2), 32];
const ENDS = [
  [44, 22],
  [44, 42],
];
const OPEN = Math.atan2(10, 44 - CENTER[0]);

function insideTile(x, y, r) {
  const dx = Math.max(r - x, 0, x - (64 - r));
  const dy = Math.max(r - y, 0, y - (64 - r));
  return dx * dx + dy * dy <= r * r;
}

function onArc(x, y) {
  const dx = x - CENTER[0];
  const dy = y - CENTER[1];
  if (Math.abs(Math.atan2(dy, dx)) >= OPEN) return Math.abs(Math.hypot(dx, dy) - 14) <= 3.5;
  return ENDS.some(([ex, ey]) => Math.hypot(x - ex, y - ey) <= 3.5);
}

/** RGBA pixels of the icon at `size`, 4×4 samples a pixel; `corner` 0 fills the square. */
function render(size, corner) {
  const pixels = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let tile = 0;
      let mark = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = ((px + (sx + 0.5) / n) * 64) / size;
          const y = ((py + (sy + 0.5) / n) * 64) / size;
          if (insideTile(x, y, corner)) {
            tile++;
            if (onArc(x, y)) mark++;
          }
        }
      }
      const alpha = tile / (n * n);
      const white = tile === 0 ? 0 : mark / tile;
      const at = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) pixels[at + c] = Math.round(BRAND[c] * (1 - white) + WHITE[c] * white);
      pixels[at + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
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
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, corner = 14) {
  const pixels = render(size, corner);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** An ICO holding PNG images, which every current browser reads. */
function ico(sizes) {
  const images = sizes.map((size) => png(size));
  const head = Buffer.alloc(6);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map((image, i) => {
    const entry = Buffer.alloc(16);
    entry[0] = sizes[i] % 256;
    entry[1] = sizes[i] % 256;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(image.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.length;
    return entry;
  });
  return Buffer.concat([head, ...entries, ...images]);
}

const out = new URL("../public/", import.meta.url);
// iOS rounds the corners itself and paints transparency black, so its icon is a full square.
writeFileSync(new URL("apple-touch-icon.png", out), png(180, 0));
writeFileSync(new URL("icon-192.png", out), png(192));
writeFileSync(new URL("icon-512.png", out), png(512));
writeFileSync(new URL("favicon.ico", out), ico([16, 32, 48]));
