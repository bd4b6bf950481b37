// Images a tool result carries: the real format sniffed from the magic bytes (PNG, JPEG, GIF, WebP;
// never from the name), the size in pixels read from the header, the bound Read keeps, and what an
// image costs in the context. What each provider takes is in src/providers/imageParts.ts.
import type { ImagePart } from '../providers/messages';
import { formatBytes } from './text';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The formats every provider Aside speaks to takes (Anthropic's list; OpenAI takes the same four). */
export const IMAGE_MIMES: readonly ImageMime[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The largest image Read returns: OpenAI's 20 MB per image, the largest any provider takes. */
export const READ_MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** What a model's context is charged for an image whose size in pixels is unknown (Anthropic's cap for one image). */
export const IMAGE_TOKENS_UNKNOWN = 1600;

export interface SniffedImage {
	readonly mimeType: ImageMime;
	readonly width?: number;
	readonly height?: number;
}

const EXTENSIONS: Readonly<Record<string, ImageMime>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image format a file name claims, by its extension; undefined for any other name. */
export function claimedImageMime(path: string): ImageMime | undefined {
	const dot = path.lastIndexOf('.');
	return dot === -1 ? undefined : EXTENSIONS[path.slice(dot + 1).toLowerCase()];
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean => prefix.every((byte, i) => bytes[at + i] === byte);
const ascii = (bytes: Uint8Array, at: number, text: string): boolean => startsWith(bytes, Array.from(Buffer.from(text, 'latin1')), at);
const u16be = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number): number => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number): number => u16be(b, at) * 65536 + u16be(b, at + 2);

function sized(mimeType: ImageMime, width: number, height: number): SniffedImage {
	return width > 0 && height > 0 ? { mimeType, width, height } : { mimeType };
}

function jpegSize(bytes: Uint8Array): SniffedImage {
	// Segments after SOI until a start-of-frame marker (C0–CF, except DHT C4, JPG C8, DAC CC).
	let at = 2;
	while (at + 9 < bytes.length) {
		if (bytes[at] !== 0xff) {
			break;
		}
		const marker = bytes[at + 1] ?? 0;
		if (marker === 0xff) {
			at++;
			continue;
		}
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return sized('image/jpeg', u16be(bytes, at + 7), u16be(bytes, at + 5));
		}
		at += 2 + u16be(bytes, at + 2);
	}
	return { mimeType: 'image/jpeg' };
}

function webpSize(bytes: Uint8Array): SniffedImage {
	if (ascii(bytes, 12, 'VP8X')) {
		return sized('image/webp', u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
	}
	if (ascii(bytes, 12, 'VP8L') && bytes[20] === 0x2f) {
		const bits = (bytes[21] ?? 0) | ((bytes[22] ?? 0) << 8) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
		return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
	}
	if (ascii(bytes, 12, 'VP8 ') && startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) {
		return sized('image/webp', u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
	}
	return { mimeType: 'image/webp' };
}

/** The image format the bytes really are, with the size in pixels when the header says; undefined when they are none of the four. */
export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
	// A PNG's first chunk is its header: a file cut before it is no image a provider takes.
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
		return ascii(bytes, 12, 'IHDR') && bytes.length >= 24 ? sized('image/png', u32be(bytes, 16), u32be(bytes, 20)) : undefined;
	}
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
		return jpegSize(bytes);
	}
	if ((ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) && bytes.length >= 10) {
		return sized('image/gif', u16le(bytes, 6), u16le(bytes, 8));
	}
	if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) {
		return webpSize(bytes);
	}
	return undefined;
}

/** The bytes as an image part, when they are one of the four formats. */
export function imagePartOf(bytes: Uint8Array): ImagePart | undefined {
	const sniffed = sniffImage(bytes);
	return sniffed && { ...sniffed, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}

/** The size of base64 data once decoded. */
export function decodedBytes(base64: string): number {
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** `image/png, 1.2 KB, 64×64 px`: how an image is named in text. */
export function describeImage(image: ImagePart): string {
	const pixels = image.width !== undefined && image.height !== undefined ? `, ${image.width}×${image.height} px` : '';
	return `${image.mimeType}, ${formatBytes(decodedBytes(image.data))}${pixels}`;
}

/**
 * What an image costs in a model's context, in tokens: Anthropic's documented approximation,
 * width × height / 750, after its scaling of images past 1.15 megapixels (so at most ~1,600); the
 * same flat 1,600 when the size in pixels is unknown.
 */
export function imageTokens(image: Pick<ImagePart, 'width' | 'height'>): number {
	if (image.width === undefined || image.height === undefined) {
		return IMAGE_TOKENS_UNKNOWN;
	}
	const pixels = Math.min(image.width * image.height, 1_150_000);
	return Math.max(1, Math.ceil(pixels / 750));
}
