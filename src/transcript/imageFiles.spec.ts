import assert from 'node:assert/strict';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { imageFixture, partOf, pngImage } from '../testing/imageFixtures';
import { RecordingLogger } from '../testing/recordingLogger';
import { HEADER, T0, toolResult, transcriptDirs, writeSession } from '../testing/transcriptFixtures';
import { load } from './load';
import type { AssistantRecord, TranscriptRecord, UserRecord } from './records';
import { replayHistory } from './replay';
import { imageRecords } from './replayImages';
import type { ToolResultRecord } from './toolResultRecord';

const { freshDir } = transcriptDirs();
const PNG = partOf(pngImage(3, 2));
const GIF = partOf(imageFixture('tk.gif'));

const question: UserRecord = { kind: 'user', id: 'u1', turnId: 't1', at: T0, text: 'What is in shot.png?' };
const call: AssistantRecord = {
	kind: 'assistant',
	id: 'a1',
	turnId: 't1',
	requestId: 'req-1',
	at: T0 + 1,
	text: '',
	toolCalls: [{ id: 'call-r1', name: 'Read', input: { path: 'shot.png' } }],
	stop: 'tool-use',
};
const withImages: ToolResultRecord = { ...toolResult('r1', 'The image shot.png is attached.'), name: 'Read', images: imageRecords([PNG, GIF]) };

function toolMessage(records: readonly TranscriptRecord[]) {
	const message = replayHistory(records).find((entry) => entry.role === 'tool');
	assert.ok(message);
	return message;
}

describe('a tool result\'s images in the transcript', () => {
	it('are written to <session>.files/, never inline, and read back byte for byte', () => {
		const dir = freshDir();
		const path = writeSession(dir, [question, call, withImages]);
		const line = readFileSync(path, 'utf8').trim().split('\n').at(-1) ?? '';
		assert.ok(!line.includes(PNG.data) && !line.includes(GIF.data), 'no base64 in the JSONL');
		const stored = JSON.parse(line) as ToolResultRecord;
		assert.deepEqual(stored.images, [
			{ mimeType: 'image/png', width: 3, height: 2, bytes: pngImage(3, 2).length, file: 'r1.image-1.png' },
			{ mimeType: 'image/gif', width: 14, height: 11, bytes: 72, file: 'r1.image-2.gif' },
		]);
		assert.deepEqual(readdirSync(join(dir, 's-1.files')).sort(), ['r1.image-1.png', 'r1.image-2.gif']);
		assert.equal(readFileSync(join(dir, 's-1.files', 'r1.image-2.gif')).equals(imageFixture('tk.gif')), true);

		const loaded = load(dir, 's-1');
		assert.deepEqual(loaded.problems, []);
		assert.equal(loaded.header.id, HEADER.id);
		const images = toolMessage(loaded.records).images ?? [];
		assert.deepEqual(images, [PNG, GIF], 'the same image parts from disk as were recorded');
		assert.deepEqual(toolMessage([question, call, withImages]).images, images, 'and as from memory');
	});

	it('an image whose file is gone becomes a placeholder line the model reads, and a problem; the others are still sent', () => {
		const dir = freshDir();
		writeSession(dir, [question, call, withImages]);
		unlinkSync(join(dir, 's-1.files', 'r1.image-1.png'));
		const log = new RecordingLogger();
		const loaded = load(dir, 's-1', { log });
		assert.equal(loaded.problems.length, 1);
		assert.match(loaded.problems[0]?.message ?? '', /An image of tool call call-r1 \(Read\) was stored in s-1\.files\/r1\.image-1\.png, which cannot be read/);
		const message = toolMessage(loaded.records);
		assert.equal(message.content, `The image shot.png is attached.\n\n[image file missing: r1.image-1.png (image/png, ${pngImage(3, 2).length} bytes) — the image is not shown]`);
		assert.deepEqual(message.images, [GIF]);
	});

	it('a record naming an image file that is no plain name is refused', () => {
		const dir = freshDir();
		const bad: ToolResultRecord = { ...withImages, images: [{ mimeType: 'image/png', bytes: 1, file: '../../etc/passwd.png' }] };
		assert.throws(() => writeSession(dir, [bad]), /image file "\.\.\/\.\.\/etc\/passwd\.png" is not a plain file name/);
	});
});
