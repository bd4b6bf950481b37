// The images the composer sends, checked on the host: by their bytes (a file named .png that is no
// PNG is refused), within the largest bound and the provider's; the message with them through the
// view connection (a turn of its own, the row's thumbnails, the composer told they went) and the
// images part's answers to the composer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANTHROPIC_IMAGE_LIMITS } from '../providers/imageParts';
import { MAX_ATTACHED_IMAGE_BYTES, type ImageUpload } from '../protocol/images';
import { type HostMessage, PROTOCOL_VERSION } from '../protocol/messages';
import { pngImage } from '../testing/imageFixtures';
import { testConnection } from '../testing/viewConnection';
import { checkImage } from './imageUploads';

const SHOT = pngImage(4, 3);
const upload = (name: string, bytes: Buffer): ImageUpload => ({ name, data: bytes.toString('base64') });

/** A PNG header of `bytes` in all. */
function bigPng(bytes: number): Buffer {
	const head = pngImage(64, 48);
	return Buffer.concat([head, Buffer.alloc(bytes - head.length)]);
}

describe('an image the person attaches, checked by the host', () => {
	it('is what its bytes are, with its size in pixels', () => {
		const checked = checkImage('shot.png', SHOT);
		assert.ok('image' in checked);
		assert.deepEqual(checked.image, { mimeType: 'image/png', width: 4, height: 3, data: SHOT.toString('base64') });
	});

	it('a file named .png that is not a PNG is refused by its bytes, saying so', () => {
		assert.deepEqual(checkImage('fake.png', Buffer.from('just text, not an image\n')), {
			refused: '"fake.png" is not a PNG, JPEG, GIF or WebP image (its bytes say so, whatever its name says). It was not attached.',
		});
	});

	it('a 30 MB image is refused with its size and the bound', () => {
		assert.deepEqual(checkImage('huge.png', bigPng(30 * 1024 * 1024)), {
			refused: '"huge.png" is 30 MB: the largest image Aside sends is 20 MB (OpenAI-compatible\'s bound). It was not attached.',
		});
		assert.ok('image' in checkImage('edge.png', bigPng(MAX_ATTACHED_IMAGE_BYTES)), 'the bound itself is taken');
	});

	it('past the provider\'s bound: which provider, what bound, what the image is', () => {
		assert.deepEqual(checkImage('photo.png', bigPng(4 * 1024 * 1024), ANTHROPIC_IMAGE_LIMITS), {
			refused: '"photo.png" (image/png, 4 MB, 64×48 px) was not attached: it is larger than the Anthropic limit of 5 MB of base64 image data.',
		});
	});
});

describe('a message with images, through the view connection', () => {
	it('starts a turn with the images; the row shows them as data URLs; the composer is told they went', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'what is this?', images: [upload('shot.png', SHOT)] });
		assert.deepEqual(t.agent.calls, ['submit what is this? with image/png']);
		const appended = t.posted.find((message) => message.type === 'items.appended');
		const row = appended?.type === 'items.appended' ? appended.items[0] : undefined;
		assert.deepEqual(row?.kind === 'user' ? row.images : undefined, [{ mimeType: 'image/png', bytes: SHOT.length, width: 4, height: 3, src: `data:image/png;base64,${SHOT.toString('base64')}` }]);
		assert.ok(t.posted.some((message) => message.type === 'images.sent'));
	});

	it('an image alone (no text) is a message too', () => {
		const t = testConnection();
		t.connection.receive({ type: 'submit', text: '', images: [upload('shot.png', SHOT)] });
		assert.deepEqual(t.agent.calls, ['submit  with image/png']);
	});

	it('a forged image, or a busy agent, gives the text back with why; the composer keeps its images', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'look', images: [upload('shot.png', SHOT), upload('evil.png', Buffer.from('<svg/>'))] });
		assert.deepEqual(t.agent.calls, []);
		const restored = t.posted.find((message): message is Extract<HostMessage, { type: 'composer.restore' }> => message.type === 'composer.restore');
		assert.equal(restored?.text, 'look');
		assert.match(restored.reason, /"evil\.png" is not a PNG, JPEG, GIF or WebP image .* Nothing was sent\./);
		t.agent.imagesRefusal = 'The agent is working: stop it or wait for it to finish before sending images.';
		t.connection.receive({ type: 'submit', text: 'look', images: [upload('shot.png', SHOT)] });
		assert.equal(t.posted.filter((message) => message.type === 'composer.restore').length, 2);
		assert.ok(!t.posted.some((message) => message.type === 'images.sent'));
	});
});
