import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { imageFixture, pngImage } from '../testing/imageFixtures';
import { claimedImageMime, describeImage, imagePartOf, imageTokens, sniffImage } from './images';

describe('images by their bytes', () => {
	it('knows a PNG, JPEG, GIF and WebP by their magic bytes, with their size in pixels from the header', () => {
		assert.deepEqual(sniffImage(pngImage(3, 2)), { mimeType: 'image/png', width: 3, height: 2 });
		assert.deepEqual(sniffImage(imageFixture('python.jpg')), { mimeType: 'image/jpeg', width: 16, height: 16 });
		assert.deepEqual(sniffImage(imageFixture('tk.gif')), { mimeType: 'image/gif', width: 14, height: 11 });
		assert.deepEqual(sniffImage(imageFixture('python.webp')), { mimeType: 'image/webp', width: 16, height: 16 });
	});

	it('knows no image in text, a PDF, or a PNG cut before its header', () => {
		assert.equal(sniffImage(Buffer.from('just some text, named image.png')), undefined);
		assert.equal(sniffImage(Buffer.from('%PDF-1.7\n')), undefined);
		assert.equal(sniffImage(pngImage(3, 2).subarray(0, 12)), undefined);
		assert.equal(sniffImage(new Uint8Array()), undefined);
	});

	it('reads the size of a JPEG whose frame comes after other segments, from a view into a larger buffer', () => {
		const jpeg = imageFixture('python.jpg');
		const inside = Buffer.concat([Buffer.from('padding'), jpeg]).subarray(7);
		const part = imagePartOf(inside);
		assert.ok(part);
		assert.equal(part.mimeType, 'image/jpeg');
		assert.equal(part.width, 16);
		assert.equal(Buffer.from(part.data, 'base64').equals(jpeg), true, 'the base64 is the image, not the buffer around it');
	});

	it('takes the format a name claims from its extension only', () => {
		assert.equal(claimedImageMime('/w/shot.PNG'), 'image/png');
		assert.equal(claimedImageMime('photo.jpeg'), 'image/jpeg');
		assert.equal(claimedImageMime('photo.jpg'), 'image/jpeg');
		assert.equal(claimedImageMime('notes.png.txt'), undefined);
		assert.equal(claimedImageMime('README'), undefined);
	});

	it('names an image by format, size and pixels, and costs it width × height / 750 tokens, capped, or 1,600 unknown', () => {
		const part = imagePartOf(pngImage(3, 2));
		assert.ok(part);
		assert.match(describeImage(part), /^image\/png, \d+ bytes, 3×2 px$/);
		assert.equal(imageTokens({ width: 750, height: 100 }), 100);
		assert.equal(imageTokens({ width: 8000, height: 8000 }), 1534);
		assert.equal(imageTokens({}), 1600);
	});
});
