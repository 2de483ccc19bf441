// The parts of a zip (an XLSX) read by their central directory, each unpacked within a limit.
// Written here rather than taken from a library: none of our dependencies both tells the
// declared sizes before unpacking and stops inflating at a byte count (exceljs streams the
// zip through unzipper, which trusts the local headers and unpacks whatever comes).
import fs from 'node:fs';
import { Readable, Transform, pipeline } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { refuse } from './sheet-limits.ts';

/** Random access to the uploaded bytes: a file on disk, or a buffer already in memory. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
  /** The bytes from `start` up to (not including) `end`. */
  stream(start: number, end: number): Readable;
  close(): Promise<void>;
}

export async function fileSource(path: string): Promise<ByteSource> {
  const fd = await fs.promises.open(path, 'r');
  const { size } = await fd.stat();
  return {
    size,
    async read(offset, length) {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const { bytesRead } = await fd.read(buf, 0, buf.length, offset);
      return buf.subarray(0, bytesRead);
    },
    stream: (start, end) => (end > start ? fs.createReadStream(path, { start, end: end - 1, highWaterMark: 256 * 1024 }) : Readable.from([])),
    close: () => fd.close(),
  };
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    size: buf.length,
    read: async (offset, length) => buf.subarray(offset, offset + length),
    stream: (start, end) => Readable.from(end > start ? [buf.subarray(start, end)] : []),
    close: async () => {},
  };
}

export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  /** The unpacked size the central directory declares. */
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** 0xFFFF/0xFFFFFFFF: the real value is in a zip64 record (files past 4 GB, which no import is). */
const ZIP64_16 = 0xffff;
const ZIP64_32 = 0xffffffff;

/** The entries the central directory lists, in its order. */
export async function centralDirectory(src: ByteSource): Promise<ZipEntry[]> {
  // The end record is the last 22 bytes, followed by a comment of at most 64 KB.
  const tailLength = Math.min(src.size, 22 + 0xffff);
  const tail = await src.read(src.size - tailLength, tailLength);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw refuse.unreadableXlsx();
  const count = tail.readUInt16LE(end + 10);
  const dirSize = tail.readUInt32LE(end + 12);
  const dirOffset = tail.readUInt32LE(end + 16);
  if (count === ZIP64_16 || dirOffset === ZIP64_32 || dirOffset + dirSize > src.size) throw refuse.unreadableXlsx();
  const dir = await src.read(dirOffset, dirSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) throw refuse.unreadableXlsx();
    const flags = dir.readUInt16LE(p + 8);
    const nameLength = dir.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
    if (next > dir.length) throw refuse.unreadableXlsx();
    entries.push({
      // Bit 11: the name is UTF-8; XLSX part names are ASCII either way.
      name: dir.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength),
      flags,
      method: dir.readUInt16LE(p + 10),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42),
    });
    p = next;
  }
  return entries;
}

/**
 * An entry's unpacked bytes as UTF-8 text (decoded across chunk boundaries, which exceljs's own
 * reader does not do). Unpacking stops with an error as soon as the entry gives more than its
 * declared size: the total of declared sizes, checked before, then bounds what is unpacked.
 */
export async function entryText(src: ByteSource, entry: ZipEntry): Promise<Readable> {
  // Bit 0: encrypted. Methods: 0 stored, 8 deflated; nothing else is in an XLSX.
  if (entry.flags & 0x1 || (entry.method !== 0 && entry.method !== 8)) throw refuse.unreadableXlsx();
  if (entry.compressedSize === ZIP64_32 || entry.localOffset + 30 > src.size) throw refuse.unreadableXlsx();
  const local = await src.read(entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw refuse.unreadableXlsx();
  const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (start + entry.compressedSize > src.size) throw refuse.unreadableXlsx();

  let unpacked = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      if (unpacked > entry.size) done(refuse.forged());
      else done(null, chunk);
    },
  });
  const raw = src.stream(start, start + entry.compressedSize);
  const text = entry.method === 8 ? pipeline(raw, createInflateRaw(), bounded, () => {}) : pipeline(raw, bounded, () => {});
  text.setEncoding('utf8');
  return text;
}
