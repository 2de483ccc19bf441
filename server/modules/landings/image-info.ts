// Image type and pixel size read from the bytes themselves (never from the file name or
// the browser's content type): PNG, JPEG, WebP and GIF. Anything else is refused. The size comes
// from the header alone, so an image too large to decode is refused before anything decodes it.
import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE } from '../../../contracts/landings.ts';

interface ImageInfo {
  mime: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
  ext: 'png' | 'jpg' | 'webp' | 'gif';
  width: number;
  height: number;
}

function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  const chunk = b.toString('ascii', 12, 16);
  if (chunk === 'VP8X' && b.length >= 30) return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return null;
}

export function imageInfo(b: Buffer): ImageInfo | null {
  let size: { width: number; height: number } | null = null;
  let type: Pick<ImageInfo, 'mime' | 'ext'> | null = null;
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('ascii', 12, 16) === 'IHDR') {
    type = { mime: 'image/png', ext: 'png' };
    size = { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  } else if (b.length >= 10 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    type = { mime: 'image/jpeg', ext: 'jpg' };
    size = jpegSize(b);
  } else if (b.length >= 16 && b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP') {
    type = { mime: 'image/webp', ext: 'webp' };
    size = webpSize(b);
  } else if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('ascii', 0, 6))) {
    type = { mime: 'image/gif', ext: 'gif' };
    size = { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (!type || !size || size.width < 1 || size.height < 1) return null;
  return { ...type, ...size };
}

const n = (v: number) => v.toLocaleString('en-US');

/** Why an image is too large to take (in Korean, naming the limits), or null when it fits. */
export function oversizeReason(info: Pick<ImageInfo, 'width' | 'height'>): string | null {
  if (info.width <= IMAGE_MAX_SIDE && info.height <= IMAGE_MAX_SIDE && info.width * info.height <= IMAGE_MAX_PIXELS) return null;
  return (
    `이미지가 너무 큽니다: 가로·세로 ${n(IMAGE_MAX_SIDE)}px, ${n(IMAGE_MAX_PIXELS / 10_000)}만 화소까지 올릴 수 있습니다. ` +
    `(올린 이미지: ${n(info.width)}×${n(info.height)}px)`
  );
}
