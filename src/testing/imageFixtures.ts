// Real images for tests: a PNG of any size encoded here (RGB, one filtered scanline per row, CRCs
// right, so any decoder opens it), and the tiny JPEG, GIF and WebP files in test/fixtures/images/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { ImagePart } from '../providers/messages';
import { imagePartOf } from '../tools/images';

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

/** A width × height PNG, every pixel `rgb`. */
export function pngImage(width: number, height: number, rgb: readonly [number, number, number] = [200, 40, 90]): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 2, 0, 0, 0], 8);
	const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
	const pixels = Buffer.concat(Array.from({ length: height }, () => row));
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(pixels)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/** The fixture folder of real tiny images: python.jpg (16×16), tk.gif (14×11), python.webp (16×16, VP8X). */
export const IMAGE_FIXTURES = join(process.cwd(), 'test', 'fixtures', 'images');

export function imageFixture(name: 'python.jpg' | 'tk.gif' | 'python.webp'): Buffer {
	return readFileSync(join(IMAGE_FIXTURES, name));
}

/** The bytes as the image part a tool result carries (they must be one of the four formats). */
export function partOf(bytes: Buffer): ImagePart {
	const part = imagePartOf(bytes);
	assert.ok(part);
	return part;
}
