import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSse, SseParser, type SseEvent } from './sse';

const encoder = new TextEncoder();

function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
	return new ReadableStream({
		start(controller) {
			for (const chunk of chunks) {
				controller.enqueue(chunk);
			}
			controller.close();
		},
	});
}

async function collect(body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<SseEvent[]> {
	const events: SseEvent[] = [];
	for await (const event of readSse(body, signal)) {
		events.push(event);
	}
	return events;
}

/** Splits `bytes` at the given offsets. */
function splitAt(bytes: Uint8Array, ...offsets: number[]): Uint8Array[] {
	const cuts = [0, ...offsets, bytes.length];
	return cuts.slice(1).map((end, i) => bytes.slice(cuts[i], end));
}

// Every rule at once: CRLF, CR and LF breaks, comments, retry, multi-line data, an id that
// carries over, a data-less event, a field without a colon, and multi-byte characters.
const SAMPLE = [
	': keep-alive\r\n',
	'event: message_start\r\ndata: {"a":"é€"}\r\n\r\n',
	'retry: 3000\rid: 7\rdata: line one\rdata:  two spaces\r\r',
	'event: ignored-without-data\n\n',
	'data\ndata: 🙂 last\n\n',
].join('');

const EXPECTED: SseEvent[] = [
	{ event: 'message_start', data: '{"a":"é€"}' },
	{ id: '7', data: 'line one\n two spaces' },
	{ id: '7', data: '\n🙂 last' },
];

describe('SSE parsing', () => {
	it('parses events with every kind of line break, comment and field', async () => {
		assert.deepEqual(await collect(streamOf([encoder.encode(SAMPLE)])), EXPECTED);
	});

	it('gives the same events however the bytes are split in two or three chunks', async () => {
		const bytes = encoder.encode(SAMPLE);
		for (let i = 0; i <= bytes.length; i++) {
			assert.deepEqual(await collect(streamOf(splitAt(bytes, i))), EXPECTED, `split at ${i}`);
		}
		// Three chunks: every pair of cut points, parsed synchronously to keep this fast.
		for (let i = 0; i <= bytes.length; i++) {
			for (let j = i; j <= bytes.length; j++) {
				const parser = new SseParser();
				const decoder = new TextDecoder();
				const events = splitAt(bytes, i, j).flatMap((chunk) => parser.push(decoder.decode(chunk, { stream: true })));
				assert.deepEqual(events, EXPECTED, `split at ${i} and ${j}`);
			}
		}
	});

	it('gives the same events one byte at a time', async () => {
		const bytes = encoder.encode(SAMPLE);
		const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
		assert.deepEqual(await collect(streamOf(chunks)), EXPECTED);
	});

	it('treats a CR at the end of one chunk and an LF at the start of the next as one line break', async () => {
		const chunks = ['data: a\r', '\ndata: b\r', '\n\r', '\n'].map((text) => encoder.encode(text));
		assert.deepEqual(await collect(streamOf(chunks)), [{ data: 'a\nb' }]);
	});

	it('decodes a multi-byte character split across chunks', async () => {
		const bytes = encoder.encode('data: 🙂€\n\n');
		// The emoji is bytes 6..9; cut inside it and inside the euro sign.
		assert.deepEqual(await collect(streamOf(splitAt(bytes, 7, 9, 11))), [{ data: '🙂€' }]);
	});

	it('yields the last event when the body ends cleanly without its blank line, marked unterminated', async () => {
		// Gateways close right after the last data line; both official SDKs still read that event.
		assert.deepEqual(await collect(streamOf([encoder.encode('data: done\n\nevent: last\ndata: half\n')])), [{ data: 'done' }, { event: 'last', data: 'half', unterminated: true }]);
		assert.deepEqual(await collect(streamOf([encoder.encode('data: done\n\ndata: no newline')])), [{ data: 'done' }, { data: 'no newline', unterminated: true }]);
		assert.deepEqual(await collect(streamOf([encoder.encode('data: done\n\n: only a comment\n')])), [{ data: 'done' }]);
	});

	it('yields nothing of an unfinished event when the body breaks', async () => {
		let pulls = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (pulls++ === 0) {
					controller.enqueue(encoder.encode('data: done\n\ndata: half\n'));
				} else {
					controller.error(new TypeError('terminated'));
				}
			},
		});
		const seen: string[] = [];
		await assert.rejects(
			(async () => {
				for await (const event of readSse(body)) {
					seen.push(event.data);
				}
			})(),
			/terminated/,
		);
		assert.deepEqual(seen, ['done']);
	});

	it("keeps llama.cpp's non-standard error field as the event's error", async () => {
		const error = '{"code":400,"message":"the request exceeds the available context size","type":"invalid_request_error"}';
		const events = await collect(streamOf([encoder.encode(`error: ${error}\n\ndata: [DONE]\n\n`)]));
		assert.deepEqual(events, [{ data: '', error }, { data: '[DONE]' }]);
		// The network splits anywhere, the field name too; and an error event with no data line is still an event.
		const split = encoder.encode(`error: ${error}\n\n`);
		assert.deepEqual(await collect(streamOf(splitAt(split, 3, 9))), [{ data: '', error }]);
	});

	it('reports progress for chunks that complete a line, and none for bytes that complete none', async () => {
		const chunks = ['data: {"a', '":1}', '\n', ': keep-alive\n', '\n', 'data: x', 'y'].map((text) => encoder.encode(text));
		let progress = 0;
		const marks: number[] = [];
		for await (const event of readSse(streamOf(chunks), undefined, {
			onProgress: () => {
				progress++;
			},
		})) {
			marks.push(progress);
			assert.ok(event.data.length > 0);
		}
		// Three chunks end a line: the data line, the comment, the blank line; the rest end none.
		assert.equal(progress, 3);
		assert.deepEqual(marks, [3, 3]);
	});

	it('fails with a clear error when one event or one line outgrows the cap, instead of buffering it', () => {
		const lines = new SseParser({ maxEventChars: 100 });
		assert.throws(() => {
			for (let i = 0; i < 20; i++) {
				lines.push('data: 0123456789\n');
			}
		}, /more than 100 characters/);
		const line = new SseParser({ maxEventChars: 100 });
		assert.throws(() => {
			line.push('data: ');
			for (let i = 0; i < 20; i++) {
				line.push('0123456789');
			}
		}, /more than 100 characters/);
		// Under the cap, and the cap starts again with each event.
		const fine = new SseParser({ maxEventChars: 100 });
		for (let i = 0; i < 50; i++) {
			assert.deepEqual(fine.push('data: 0123456789\ndata: 0123456789\n\n'), [{ data: '0123456789\n0123456789' }]);
		}
	});

	it('keeps the event type to its own event', async () => {
		const events = await collect(streamOf([encoder.encode('event: ping\ndata: 1\n\ndata: 2\n\n')]));
		assert.deepEqual(events, [{ event: 'ping', data: '1' }, { data: '2' }]);
	});

	it('stops reading when the signal fires, cancelling the stream', async () => {
		let cancelled = false;
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(encoder.encode('data: first\n\n'));
			},
			cancel() {
				cancelled = true;
			},
		});
		const controller = new AbortController();
		const seen: string[] = [];
		await assert.rejects(
			(async () => {
				for await (const event of readSse(body, controller.signal)) {
					seen.push(event.data);
					// The next read would wait forever: only the abort can end it.
					setTimeout(() => {
						controller.abort();
					}, 0);
				}
			})(),
			{ name: 'AbortError' },
		);
		assert.deepEqual(seen, ['first']);
		assert.ok(cancelled, 'the body was cancelled');
	});

	it('cancels the stream when the reader leaves early', async () => {
		let cancelled = false;
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(encoder.encode('data: 1\n\ndata: 2\n\n'));
			},
			cancel() {
				cancelled = true;
			},
		});
		for await (const event of readSse(body)) {
			assert.equal(event.data, '1');
			break;
		}
		assert.ok(cancelled);
	});
});
