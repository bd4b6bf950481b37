// The images part of the view: its answers to the composer's attach requests (pasted bytes, a
// workspace file), checked by the bytes against the provider's bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANTHROPIC_IMAGE_LIMITS } from '../../providers/imageParts';
import type { ImageUpload } from '../../protocol/images';
import type { HostMessage } from '../../protocol/messages';
import { pngImage } from '../../testing/imageFixtures';
import { RecordingLogger } from '../../testing/recordingLogger';
import type { FeatureViewPort } from '../../view/featureView';
import { ImageAttachments } from './imageAttachments';

const SHOT = pngImage(4, 3);
const upload = (name: string, bytes: Buffer): ImageUpload => ({ name, data: bytes.toString('base64') });

describe('the images part answers the composer', () => {
	const answers = (limits = ANTHROPIC_IMAGE_LIMITS, files: Record<string, Buffer> = {}) => {
		const sent: HostMessage[] = [];
		const port: FeatureViewPort = { send: (message) => sent.push(message as HostMessage), notice: () => undefined };
		const part = new ImageAttachments({
			limits: () => limits,
			readFile: (file) => {
				const bytes = files[file];
				return bytes ? Promise.resolve({ name: file.split('/').at(-1) ?? file, bytes }) : Promise.reject(new Error('there is no such file in the workspace folders'));
			},
		}, new RecordingLogger());
		return { sent, part, port };
	};

	it('a pasted image: what it is; a fake one: why not', () => {
		const { sent, part, port } = answers();
		part.receive({ type: 'images.attach', requestId: 'r1', image: upload('shot.png', SHOT) }, port);
		part.receive({ type: 'images.attach', requestId: 'r2', image: upload('fake.png', Buffer.from('nope')) }, port);
		assert.deepEqual(sent[0], { type: 'images.attached', requestId: 'r1', image: { name: 'shot.png', mimeType: 'image/png', bytes: SHOT.length, width: 4, height: 3 } });
		assert.equal(sent[1]?.type, 'images.refused');
	});

	it('a workspace file: read by the host, sent back with its data; a missing one says why', async () => {
		const { sent, part, port } = answers(ANTHROPIC_IMAGE_LIMITS, { 'docs/shot.png': SHOT });
		part.receive({ type: 'images.attachFile', requestId: 'r1', file: 'docs/shot.png' }, port);
		part.receive({ type: 'images.attachFile', requestId: 'r2', file: 'gone.png' }, port);
		await new Promise((resolve) => setImmediate(resolve));
		assert.deepEqual(sent.find((message) => message.type === 'images.attached'), {
			type: 'images.attached', requestId: 'r1', image: { name: 'shot.png', mimeType: 'image/png', bytes: SHOT.length, width: 4, height: 3, data: SHOT.toString('base64') },
		});
		assert.deepEqual(sent.find((message) => message.type === 'images.refused'), { type: 'images.refused', requestId: 'r2', reason: '"gone.png" could not be read: there is no such file in the workspace folders' });
	});
});
