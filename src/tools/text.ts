// Text helpers shared by the tools: binary detection, line splitting, byte-capped output.

/** How much of a file the UTF-8 check looks at, like git and ripgrep. */
export const BINARY_SAMPLE_BYTES = 8 * 1024;

export type TextVerdict = 'text' | 'binary' | 'not-utf8';

/**
 * Whether bytes look like UTF-8 text: a NUL byte anywhere means binary (git looks only at the
 * first 8 KB, but a NUL past it would still reach the model; the search is a native scan); an
 * invalid UTF-8 sequence in the first 8 KB means a binary file or a legacy encoding, which the
 * tools cannot edit without corrupting it.
 */
export function classifyBytes(bytes: Uint8Array): TextVerdict {
	if (bytes.includes(0)) {
		return 'binary';
	}
	const sample = bytes.subarray(0, BINARY_SAMPLE_BYTES);
	try {
		// `stream` tolerates a character cut at the end of the sample.
		new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: sample.length < bytes.length });
		return 'text';
	} catch {
		return looksLikeText(sample) ? 'not-utf8' : 'binary';
	}
}

/** Few control characters besides whitespace: likely text in a legacy 8-bit encoding. */
function looksLikeText(sample: Uint8Array): boolean {
	let control = 0;
	for (const byte of sample) {
		if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) || byte === 0x7f) {
			control++;
		}
	}
	return control <= sample.length * 0.05;
}

/** Decodes UTF-8 (a BOM is dropped), or undefined when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return undefined;
	}
}

/** The lines of a text: `\n`, `\r\n` and `\r` all end a line; a final line break adds no line. */
export function splitLines(text: string): string[] {
	if (text === '') {
		return [];
	}
	const lines = text.split(/\r\n|\n|\r/);
	if (lines.at(-1) === '') {
		lines.pop();
	}
	return lines;
}

export function utf8Length(text: string): number {
	return Buffer.byteLength(text, 'utf8');
}

/** Cuts `text` to at most `max` characters, marking the cut with `…`. */
export function truncateChars(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
	if (utf8Length(text) <= maxBytes) {
		return text;
	}
	const cut = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8');
	// A character split by the byte cut decodes to U+FFFD at the end: drop it.
	return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}


export { formatBytes } from '../vocabulary/byteSizes';
