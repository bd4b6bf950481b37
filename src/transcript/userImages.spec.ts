// The images a person attached, in the transcript: out of line in <session>.files/ (never base64 in
// the JSONL), read back and replayed byte for byte, a missing file a placeholder line and a problem.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { conversationTokens } from '../agent/compaction/estimate';
import { imageFixture, partOf, pngImage } from '../testing/imageFixtures';
import { RecordingLogger } from '../testing/recordingLogger';
import { transcriptDirs, writeSession } from '../testing/transcriptFixtures';
import { IMAGE_TOKENS_UNKNOWN } from '../tools/images';
import { load } from './load';
import type { AssistantRecord, TranscriptRecord, UserRecord } from './records';
import { replayHistory } from './replay';
import { imageRecords } from './replayImages';

const { freshDir } = transcriptDirs();
const PNG = partOf(pngImage(30, 20));
const GIF = partOf(imageFixture('tk.gif'));
const asked: UserRecord = { kind: 'user', id: 'u1', turnId: 't1', at: 1, text: 'What is wrong in these?', images: imageRecords([PNG, GIF]) };

function userPart(records: readonly TranscriptRecord[]) {
	const message = replayHistory(records).find((entry) => entry.role === 'user');
	assert.ok(message?.role === 'user');
	const [part] = message.content;
	assert.ok(part?.type === 'text');
	return part;
}

describe('images attached to a message, in the transcript', () => {
	it('are written to <session>.files/, never inline, and replayed byte for byte after a reload', () => {
		const dir = freshDir();
		const path = writeSession(dir, [asked]);
		const line = readFileSync(path, 'utf8').trim().split('\n').at(-1) ?? '';
		assert.ok(!line.includes(PNG.data) && !line.includes(GIF.data), 'no base64 in the JSONL');
		assert.deepEqual((JSON.parse(line) as UserRecord).images, [
			{ mimeType: 'image/png', width: 30, height: 20, bytes: pngImage(30, 20).length, file: 'u1.image-1.png' },
			{ mimeType: 'image/gif', width: 14, height: 11, bytes: 72, file: 'u1.image-2.gif' },
		]);
		assert.deepEqual(readdirSync(join(dir, 's-1.files')).sort(), ['u1.image-1.png', 'u1.image-2.gif']);
		assert.equal(readFileSync(join(dir, 's-1.files', 'u1.image-1.png')).equals(pngImage(30, 20)), true);

		const loaded = load(dir, 's-1');
		assert.deepEqual(loaded.problems, []);
		const part = userPart(loaded.records);
		assert.equal(part.text, 'What is wrong in these?');
		assert.deepEqual(part.images, [PNG, GIF], 'the same image parts from disk as were recorded');
		assert.deepEqual(userPart([asked]), part, 'and as from memory');
	});

	it('an image whose file is gone becomes a placeholder line after the text, and a problem; the other is still sent', () => {
		const dir = freshDir();
		writeSession(dir, [asked]);
		unlinkSync(join(dir, 's-1.files', 'u1.image-2.gif'));
		const log = new RecordingLogger();
		const loaded = load(dir, 's-1', { log });
		assert.equal(loaded.problems.length, 1);
		assert.match(loaded.problems[0]?.message ?? '', /An image attached to a message was stored in s-1\.files\/u1\.image-2\.gif, which cannot be read/);
		const part = userPart(loaded.records);
		assert.equal(part.text, 'What is wrong in these?\n\n[image file missing: u1.image-2.gif (image/gif, 72 bytes) — the image is not shown]');
		assert.deepEqual(part.images, [PNG]);
	});

	it('a record naming an image file that is no plain name is refused', () => {
		const bad: UserRecord = { ...asked, images: [{ mimeType: 'image/png', bytes: 1, file: '../x.png' }] };
		assert.throws(() => writeSession(freshDir(), [bad]), /image file "\.\.\/x\.png" is not a plain file name/);
	});

	it('the context estimate counts them: width × height / 750 tokens, or the flat cost when the size is unknown', () => {
		const plain: UserRecord = { ...asked, images: undefined };
		const unsized: UserRecord = { ...asked, images: [{ mimeType: 'image/png', bytes: 10, data: 'AAAA' }] };
		const tokens = (record: UserRecord): number => conversationTokens([record], '', []);
		assert.equal(tokens(asked) - tokens(plain), Math.ceil((30 * 20) / 750) + Math.ceil((14 * 11) / 750), 'as the whole request is estimated');
		const answered: AssistantRecord = { kind: 'assistant', id: 'a0', turnId: 't0', requestId: 'r0', at: 0, text: 'hi', toolCalls: [], stop: 'end', usage: { inputTokens: 100, outputTokens: 10 } };
		const after = (record: UserRecord): number => conversationTokens([answered, record], '', []);
		assert.equal(after(asked) - after(plain), Math.ceil((30 * 20) / 750) + Math.ceil((14 * 11) / 750), 'and after the last reported usage');
		assert.equal(tokens(unsized) - tokens(plain), IMAGE_TOKENS_UNKNOWN);
	});
});
